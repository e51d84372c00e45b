package io.cassette.bench.jmh;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.io.FileTree;
import io.cassette.storage.memtable.Memtable;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The storage operations of MemtableBenchmark and SSTableReadBenchmark measured without JMH
 * (which this machine's offline Maven repository may lack), by the figures that survive a
 * shared machine: the calling thread's CPU time and heap bytes allocated per operation
 * ({@code com.sun.management.ThreadMXBean}), over many operations after a warm-up. Adds
 * {@code overwriteNewer}: an overwrite whose cells carry a newer timestamp each time (a real
 * update; {@code overwrite} re-applies the same update, which the old row wins), with the cost
 * of building that update ({@code buildUpdate}) reported so it can be subtracted.
 *
 * <pre>java -cp storage/target/classes:bench/target/classes:... io.cassette.bench.jmh.StorageOpProbe [rounds]</pre>
 */
public final class StorageOpProbe {
  private static final int ROWS = 100_000;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private StorageOpProbe() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    PartitionUpdate[] updates = new PartitionUpdate[ROWS];
    DecoratedKey[] keys = new DecoratedKey[ROWS];
    Memtable full = new Memtable();
    for (int i = 0; i < ROWS; i++) {
      updates[i] = StressRows.update(i, 1);
      keys[i] = DecoratedKey.of(updates[i].key());
      full.apply(keys[i], updates[i]);
    }
    byte[][] values = new byte[StressRows.COLUMNS][StressRows.VALUE_BYTES];
    String[] names = {"C0", "C1", "C2", "C3", "C4"};
    long[] clock = {10};
    int[] next = {0};
    Memtable[] filling = {new Memtable()};

    LongSupplier insert = () -> {
      int i = next[0]++;
      if (i >= ROWS) {
        filling[0] = new Memtable();
        next[0] = 1;
        i = 0;
      }
      return filling[0].apply(keys[i], updates[i]);
    };
    LongSupplier getRow = () -> {
      int k = stride(next);
      long sum = 0;
      for (Iterator<Row> it = full.get(keys[k]).rows(Bytes.EMPTY); it.hasNext(); ) {
        for (Cell c : it.next().cells()) {
          sum += c.timestamp() + c.value()[0];
        }
      }
      return sum;
    };
    LongSupplier overwrite = () -> {
      int k = stride(next);
      return full.apply(keys[k], updates[k]);
    };
    LongSupplier buildUpdate = () -> {
      int k = stride(next);
      return newer(keys[k].key(), names, values, clock[0]++).rows().size();
    };
    LongSupplier overwriteNewer = () -> {
      int k = stride(next);
      return full.apply(keys[k], newer(keys[k].key(), names, values, clock[0]++));
    };

    Path dir = Files.createTempDirectory("cassette-opprobe");
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      Table table = engine.createTable(TableSpec.withDefaults(StressRows.KEYSPACE, StressRows.TABLE,
          UUID.nameUUIDFromBytes("opprobe".getBytes())));
      for (int i = 0; i < 200_000; i++) {
        table.apply(StressRows.update(i, 1_700_000_000_000_000L + i));
      }
      table.flush();
      table.compact();
      ReadQuery all = ReadQuery.all(0);
      byte[][] hot = new byte[1_000][];
      for (int i = 0; i < hot.length; i++) {
        hot[i] = StressRows.key(i * 200L);
      }
      byte[][] cold = new byte[200_000][];
      SplittableRandom r = new SplittableRandom(42);
      for (int i = 0; i < cold.length; i++) {
        cold[i] = StressRows.key(r.nextInt(200_000));
      }
      LongSupplier readHot = () -> read(table, hot, next, all);
      LongSupplier readCold = () -> read(table, cold, next, all);

      System.out.printf("%-16s %6s %12s %14s%n", "operation", "round", "cpu ns/op", "alloc B/op");
      for (int round = 1; round <= rounds; round++) {
        measure("insert", round, insert, 2_000_000);
        measure("getRow", round, getRow, 2_000_000);
        measure("overwrite", round, overwrite, 2_000_000);
        measure("buildUpdate", round, buildUpdate, 2_000_000);
        measure("overwriteNewer", round, overwriteNewer, 2_000_000);
        measure("sstableReadHot", round, readHot, 300_000);
        measure("sstableReadCold", round, readCold, 200_000);
      }
    } finally {
      FileTree.delete(dir);
    }
  }

  private static int stride(int[] next) {
    int i = next[0]++;
    if (i >= ROWS) {
      next[0] = 1;
      i = 0;
    }
    return (int) ((i * 7919L) % ROWS);
  }

  private static long read(Table table, byte[][] keys, int[] next, ReadQuery all) {
    int i = next[0]++;
    if (i >= keys.length) {
      next[0] = 1;
      i = 0;
    }
    PartitionView v = table.read(keys[i], all);
    if (v.staticRow() == null) {
      throw new IllegalStateException("row " + new String(keys[i]) + " not found");
    }
    return v.staticRow().cells().size();
  }

  private static PartitionUpdate newer(byte[] key, String[] names, byte[][] values, long timestamp) {
    List<Cell> cells = new ArrayList<>(names.length);
    for (int c = 0; c < names.length; c++) {
      cells.add(Cell.live(names[c], values[c], timestamp));
    }
    return PartitionUpdate.builder(StressRows.KEYSPACE, StressRows.TABLE, key).row(Row.of(Bytes.EMPTY, cells)).build();
  }

  /** Warms up with {@code ops}, then reports CPU and allocation per op over {@code ops} more. */
  private static void measure(String name, int round, LongSupplier op, int ops) {
    long sink = 0;
    for (int i = 0; i < ops; i++) {
      sink += op.getAsLong();
    }
    long id = Thread.currentThread().getId();
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long alloc0 = THREADS.getThreadAllocatedBytes(id);
    for (int i = 0; i < ops; i++) {
      sink += op.getAsLong();
    }
    long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
    long alloc = THREADS.getThreadAllocatedBytes(id) - alloc0;
    System.out.printf("%-16s %6d %12.1f %14.1f%s%n", name, round, (double) cpu / ops, (double) alloc / ops,
        sink == 42 ? " " : "");
  }
}
