#!/bin/bash
# one round: base then new (a git archive of the branch's HEAD), MemtableBenchmark + CommitLogBenchmark, CPU time and gc profilers
R=$1
rm -rf /tmp/memwrite-new-src && mkdir -p /tmp/memwrite-new-src && (cd /work/wt/memwrite && git archive HEAD | tar -x -C /tmp/memwrite-new-src)
for t in base new; do
  d=/tmp/memwrite-$t-src
  (cd $d && bench/jmh 'MemtableBenchmark.(insert|get|overwrite|scan)$|CommitLogBenchmark' -prof io.cassette.bench.jmh.CpuTimeProfiler -prof gc -rf json -rff /tmp/memwrite-jmh-$t-$R.json > /tmp/memwrite-jmh-$t-$R.txt 2>&1)
done
