package io.cassette.bench.jmh;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.memtable.Memtable;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap bytes a memtable holds per stress row, measured (used heap after full GCs, before and
 * after filling one memtable; the updates are dropped as the engine drops them) against what
 * the memtable counts ({@link Memtable#liveBytes}, which the memtable budget and so the flush
 * size go by). Exact and independent of machine load; run with a serial GC for a steady floor.
 *
 * <pre>java -XX:+UseSerialGC -Xmx256m -cp ... io.cassette.bench.jmh.MemtableHeapProbe [rows=100000] [members]</pre>
 *
 * <p>With {@code members}: the rows are members of one partition (a Redis hash as
 * redis-benchmark's HSET fills it: {@code element:<12 digits>} under an 8-byte version, a
 * 3-byte value), so what is checked is the partition's row tree.
 */
public final class MemtableHeapProbe {
  private MemtableHeapProbe() {}

  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    boolean members = args.length > 1 && args[1].equals("members");
    long userBytes = (long) rows * (10 + StressRows.COLUMNS * StressRows.VALUE_BYTES);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    // warm the classes and code paths on a memtable that is dropped
    Memtable warm = new Memtable();
    for (int i = 0; i < 20_000; i++) {
      PartitionUpdate u = StressRows.update(i, 1);
      warm.apply(DecoratedKey.of(u.key()), u);
    }
    warm = null;
    long before = usedAfterGc(memory);
    Memtable m = new Memtable();
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    for (int i = 0; i < rows; i++) {
      PartitionUpdate u = members ? member(random) : StressRows.update(i, 1);
      m.apply(DecoratedKey.of(u.key()), u);
    }
    if (members) {
      userBytes = (long) rows * (8 + 20 + 3);
    }
    long after = usedAfterGc(memory);
    long measured = after - before;
    System.out.printf("memtable heap: %d stress rows (%d user B a row): measured %d B a row, counted %d B a row"
        + " (counted/measured %.2f); %.2f heap bytes per user byte%n", rows, userBytes / rows, measured / rows,
        m.liveBytes() / rows, (double) m.liveBytes() / measured, (double) measured / userBytes);
    java.lang.ref.Reference.reachabilityFence(m);
  }

  /** A random member of the one hash (see the class comment). */
  private static PartitionUpdate member(java.util.SplittableRandom random) {
    byte[] name = String.format("element:%012d", random.nextInt(1_000_000_000))
        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] m = new byte[8 + name.length];
    m[7] = 1;
    System.arraycopy(name, 0, m, 8, name.length);
    return PartitionUpdate.builder(StressRows.KEYSPACE, StressRows.TABLE, "myhash".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
        .row(io.cassette.storage.Row.of(m, java.util.List.of(io.cassette.storage.Cell.live("v", new byte[] {'x', 'y', 'z'}, 1))))
        .build();
  }

  private static long usedAfterGc(MemoryMXBean memory) {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
