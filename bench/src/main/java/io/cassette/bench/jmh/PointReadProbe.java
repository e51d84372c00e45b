package io.cassette.bench.jmh;

import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.io.FileTree;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * SSTableReadBenchmark's point read without JMH, by the figures that survive a loaded machine:
 * the calling thread's CPU time and heap bytes allocated per read ({@code ThreadMXBean}), two
 * rounds of a hot set (1,000 keys) and a cold one (any key), after a warm-up of as many reads.
 * Compile it with StressRows against a revision's storage classes to compare revisions:
 *
 * <pre>javac -d OUT -cp storage/target/classes bench/src/main/java/io/cassette/bench/jmh/{StressRows,PointReadProbe}.java
 * java -Xmx128m -Xms128m -cp OUT:storage/target/classes:SLF4J_API:LZ4_JAVA io.cassette.bench.jmh.PointReadProbe 100000</pre>
 */
public final class PointReadProbe {
  private PointReadProbe() {}

  static final com.sun.management.ThreadMXBean T = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  public static void main(String[] a) throws Exception {
    int rows = Integer.parseInt(a[0]);
    Path dir = Files.createTempDirectory("readcopy-probe");
    Engine engine = Engine.open(EngineOptions.defaults(dir));
    try {
      Table table = engine.createTable(TableSpec.withDefaults(StressRows.KEYSPACE, StressRows.TABLE, UUID.nameUUIDFromBytes("jmh".getBytes())));
      for (int i = 0; i < rows; i++) table.apply(StressRows.update(i, 1_700_000_000_000_000L + i));
      table.flush();
      table.compact();
      byte[][] hot = new byte[1000][];
      for (int i = 0; i < hot.length; i++) hot[i] = StressRows.key(i * (rows / 1000));
      byte[][] cold = new byte[rows][];
      SplittableRandom r = new SplittableRandom(42);
      for (int i = 0; i < rows; i++) cold[i] = StressRows.key(r.nextInt(rows));
      ReadQuery all = ReadQuery.all(0);
      for (int round = 1; round <= 2; round++) {
        measure("hot", round, table, hot, all, 200_000);
        measure("cold", round, table, cold, all, 100_000);
      }
    } finally {
      engine.close();
      FileTree.delete(dir);
    }
  }
  static void measure(String name, int round, Table t, byte[][] keys, ReadQuery all, int ops) {
    long sink = 0;
    for (int i = 0; i < ops; i++) sink += read(t, keys[i % keys.length], all);
    long id = Thread.currentThread().getId();
    long c0 = T.getCurrentThreadCpuTime(), a0 = T.getThreadAllocatedBytes(id);
    for (int i = 0; i < ops; i++) sink += read(t, keys[i % keys.length], all);
    long c = T.getCurrentThreadCpuTime() - c0, al = T.getThreadAllocatedBytes(id) - a0;
    System.out.printf("%-5s round %d: %8.2f us CPU/op %8.1f B/op%s%n", name, round, c / 1e3 / ops, (double) al / ops, sink == 42 ? " " : "");
  }
  static long read(Table t, byte[] k, ReadQuery all) {
    PartitionView v = t.read(k, all);
    if (v.staticRow() == null) throw new IllegalStateException("not found");
    return v.staticRow().cells().size();
  }
}
