#!/usr/bin/env python3
"""Inclusive samples per method (any frame), overall and for one thread group: where the CPU goes."""
import collections, re, sys
sys.path.insert(0, "/work/wt/memwrite/bench/lib")
import jfr_events
THREAD = re.compile(r'^"([^"]*)"')
rec = sys.argv[1]; top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
pat = re.compile(sys.argv[3]) if len(sys.argv) > 3 else re.compile(r"io\.cassette|java\.util\.concurrent\.Concurrent")
total = 0; incl = collections.Counter(); by_thread = collections.defaultdict(collections.Counter); tcount = collections.Counter()
for fields, frames in jfr_events.events(rec, "jdk.ExecutionSample", timeout=300):
    m = THREAD.match(fields.get("sampledThread", "")); t = re.sub(r"(?:[-#]\d+)+$", "", m.group(1) if m else "?")
    total += 1; tcount[t] += 1
    for f in set(frames):
        if pat.search(f):
            incl[f] += 1; by_thread[t][f] += 1
print(f"{total} samples")
for t, n in tcount.most_common(4):
    print(f"\n== {t}: {n} samples ({100*n/total:.1f}%), inclusive % of all samples")
    for f, c in by_thread[t].most_common(top):
        print(f"  {100*c/total:5.1f}%  {c:5d}  {f}")
