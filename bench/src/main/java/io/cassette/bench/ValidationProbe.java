package io.cassette.bench;

import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.TokenDigest;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.partition.PartitionDigest;
import io.cassette.storage.partition.PartitionSerializer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Repair validation's CPU cost on one replica, in one JVM (robust to machine load: thread CPU
 * time, after warm-up): N stress rows (5 columns of COL bytes) in one compacted SSTable, then
 * the whole range validated three ways, each timed over several rounds:
 * <ul>
 *   <li>{@code sha256-scan}: what validation did before Digest.db (unfiltered scan, each
 *       partition serialized and SHA-256'd);
 *   <li>{@code murmur-scan}: the unfiltered scan with storage's PartitionDigest (what a
 *       partition without a stored digest costs now);
 *   <li>{@code stored}: {@code Table.digests}, read from Digest.db.
 * </ul>
 * Also the write side's price: CPU to digest the rows as a flush does, against the flush's CPU.
 *
 * <pre>java -cp ... io.cassette.bench.ValidationProbe [rows] [colBytes] [rounds]</pre>
 */
public final class ValidationProbe {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ValidationProbe() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 12_500;
    int col = args.length > 1 ? Integer.parseInt(args[1]) : 800;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path dir = Files.createTempDirectory("validation-probe");
    long now = System.currentTimeMillis() / 1000;
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("keyspace1", "standard1", UUID.randomUUID()));
      List<PartitionUpdate> sample = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        PartitionUpdate u = row(i, col);
        t.apply(u);
        if (sample.size() < 2_000) {
          sample.add(u);
        }
      }
      t.compact(); // flush, then one SSTable: every partition's digest stored
      long bytes = (long) rows * (5L * col + 20);
      System.out.printf("rows %d of %d-byte columns (%.1f MB of user data), %d rounds after 2 warm-ups%n",
          rows, col, bytes / 1e6, rounds);
      // The write side: digesting rows as SSTableWriter does, per MB.
      PartitionDigest d = new PartitionDigest();
      long digestNanos = time(rounds, () -> {
        for (PartitionUpdate u : sample) {
          d.begin(u.key(), u.partitionDeletion(), u.rangeTombstones());
          for (Row r : u.rows()) {
            d.row(r);
          }
          d.end();
        }
      });
      long sampleBytes = (long) sample.size() * (5L * col + 20);
      System.out.printf("digest at write: %.2f ms CPU per MB written%n", digestNanos / 1e6 / (sampleBytes / 1e6));
      for (String way : List.of("sha256-scan", "murmur-scan", "stored")) {
        long nanos = time(rounds, () -> validate(t, way, now));
        System.out.printf("%-12s %8.1f ms CPU per validation of the table, %6.2f ms per MB%n", way, nanos / 1e6,
            nanos / 1e6 / (bytes / 1e6));
      }
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static PartitionUpdate row(int i, int col) {
    SplittableRandom r = new SplittableRandom(i * 0x9E3779B97F4A7C15L);
    List<Cell> cells = new ArrayList<>(5);
    for (int c = 0; c < 5; c++) {
      byte[] v = new byte[col];
      r.nextBytes(v);
      cells.add(Cell.live("C" + c, v, 1_000_000L + i));
    }
    byte[] key = String.format("%010d", i).getBytes(StandardCharsets.US_ASCII);
    return PartitionUpdate.builder("keyspace1", "standard1", key).row(Row.of(new byte[0], cells)).build();
  }

  private static long validate(Table t, String way, long now) {
    long n = 0;
    if (way.equals("stored")) {
      try (Table.CloseableIterator<TokenDigest> it = t.digests(Long.MIN_VALUE, Long.MAX_VALUE, now)) {
        while (it.hasNext()) {
          n ^= it.next().high();
        }
      }
      return n;
    }
    PartitionDigest d = new PartitionDigest();
    ByteArrayWriter buffer = new ByteArrayWriter(8192);
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (Table.CloseableIterator<PartitionUpdate> it = t.scanUnfiltered(KeyRange.ALL, ReadQuery.all(now))) {
      while (it.hasNext()) {
        PartitionUpdate u = it.next();
        if (way.equals("sha256-scan")) {
          buffer.reset();
          PartitionSerializer.writeUpdateBody(buffer, u);
          sha.update(buffer.buffer(), 0, buffer.length());
          n ^= sha.digest()[0];
        } else {
          d.digest(u, now, now - 864_000);
          n ^= d.high();
        }
      }
    }
    return n;
  }

  /** Thread CPU nanoseconds per run of {@code work}: two warm-ups, then the median of {@code rounds}. */
  private static long time(int rounds, Runnable work) {
    work.run();
    work.run();
    long[] t = new long[rounds];
    for (int i = 0; i < rounds; i++) {
      long c = cpu();
      work.run();
      t[i] = cpu() - c;
    }
    java.util.Arrays.sort(t);
    return t[rounds / 2];
  }

  private static long cpu() {
    return THREADS.getCurrentThreadCpuTime();
  }
}
