package io.cassette.bench.jmh;

import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.ReadStats;
import io.cassette.storage.StorageListener;
import io.cassette.storage.StorageMetrics;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.io.FileTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Where the disk bytes of a stress write load go, in-JVM (robust to machine load, unlike
 * op/s): as `cassette stress write n=ROWS` does it (a warm-up of {@code WARMUP} rows first,
 * which cassandra-stress writes again in the measured run: bench/run counts ROWS rows of user
 * bytes), through the engine with the memtable budget a 128 MB node gets, then point reads
 * of random keys (SSTables each read merged, and how many were live), then a flush and a
 * major compaction, as bench/run's wear row does. Prints each flush and compaction as it
 * happens, the bytes of each writer (commit log, flushes, compactions) per user byte (key
 * plus values), how many times compaction rewrote each byte, the final SSTables by
 * component, and the process's own {@code write_bytes} from /proc/self/io where it exists.
 *
 * <pre>java -cp ... io.cassette.bench.jmh.WearProbe [rows=300000] [memtableMiB=30] [compaction options]
 *     [warmup=50000] [reads=20000]</pre>
 *
 * Compaction options are the table's map as {@code key=value,...}, e.g.
 * {@code class=SizeTieredCompactionStrategy,min_threshold=8} (default: Cassandra's STCS defaults).
 */
public final class WearProbe {
  private WearProbe() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
    long memtableBytes = (args.length > 1 ? Long.parseLong(args[1]) : 30) << 20;
    Map<String, String> compaction = new java.util.HashMap<>(Map.of("class", "SizeTieredCompactionStrategy"));
    if (args.length > 2 && !args[2].isEmpty()) {
      for (String option : args[2].split(",")) {
        String[] kv = option.split("=", 2);
        compaction.put(kv[0], kv[1]);
      }
    }
    int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 50_000;
    int reads = args.length > 4 ? Integer.parseInt(args[4]) : 20_000;
    Path dir = Files.createTempDirectory("cassette-wear");
    EngineOptions d = EngineOptions.defaults(dir);
    EngineOptions options = new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), d.commitLogSync(),
        d.commitLogSyncPeriod(), d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), memtableBytes,
        0, d.compactionThreads());
    int rowBytes = 10 + StressRows.COLUMNS * StressRows.VALUE_BYTES;
    long userBytes = (long) rows * rowBytes;
    long ioBefore = procWriteBytes();
    try (Engine engine = Engine.open(options)) {
      long t0 = System.nanoTime();
      engine.listen(new StorageListener() {
        @Override
        public void memtableFlushed(String table, long micros, long bytes) {
          System.out.printf("  %6.1f s flush      %8.2f MB%n", (System.nanoTime() - t0) / 1e9, bytes / 1e6);
        }

        @Override
        public void compacted(String table, long micros, long bytesRead, long bytesWritten) {
          System.out.printf("  %6.1f s compaction %8.2f MB read, %8.2f MB written%n", (System.nanoTime() - t0) / 1e9,
              bytesRead / 1e6, bytesWritten / 1e6);
        }
      });
      TableSpec d0 = TableSpec.withDefaults(StressRows.KEYSPACE, StressRows.TABLE, UUID.nameUUIDFromBytes("wear".getBytes()));
      Table table = engine.createTable(new TableSpec(d0.keyspace(), d0.name(), d0.id(), Map.of("enabled", "false"),
          compaction, d0.gcGraceSeconds(), d0.bloomFilterFpChance(), d0.defaultTimeToLive()));
      long sstableSamples = 0;
      long sstableSum = 0;
      int sstableMax = 0;
      long ts = 1_700_000_000_000_000L;
      for (int i = 0; i < warmup + rows; i++) {
        int key = i < warmup ? i : i - warmup; // the stress tool's warm-up writes the first keys again
        table.apply(StressRows.update(key, ts++));
        if (i % 1000 == 0) {
          int n = table.metrics().sstableCount();
          sstableSum += n;
          sstableSamples++;
          sstableMax = Math.max(sstableMax, n);
        }
      }
      StorageMetrics loaded = engine.metrics();
      double loadSeconds = (System.nanoTime() - t0) / 1e9;
      SplittableRandom random = new SplittableRandom(42);
      long merged = 0;
      long live = 0;
      for (int i = 0; i < reads; i++) {
        ReadStats stats = ReadStats.start();
        try {
          table.read(StressRows.key(random.nextInt(rows)), ReadQuery.all(System.currentTimeMillis() / 1000));
          merged += stats.sstables();
        } finally {
          ReadStats.stop();
        }
        live += table.metrics().sstableCount();
      }
      table.flush();
      StorageMetrics flushed = engine.metrics();
      long beforeMajor = flushed.compactionBytesWritten();
      table.compact();
      StorageMetrics m = engine.metrics();
      Map<String, Long> components = new TreeMap<>();
      long sstableBytes = 0;
      try (var files = Files.walk(options.dataDirectory())) {
        for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
          String name = p.getFileName().toString();
          components.merge(name.substring(name.lastIndexOf('-') + 1), Files.size(p), Long::sum);
          sstableBytes += Files.size(p);
        }
      }
      long flushBytes = table.metrics().bytesWritten() - m.compactionBytesWritten();
      System.out.printf("rows %d (+%d warm-up), user bytes %d (%d B a row), memtable budget %d MiB, load %.1f s%n",
          rows, warmup, userBytes, rowBytes, memtableBytes >> 20, loadSeconds);
      System.out.printf("compaction %s%n", compaction);
      System.out.printf("flushes %d, compactions %d (during the load: %d)%n", m.flushes(), m.compactions(),
          loaded.compactions());
      System.out.printf("live SSTables during the load: mean %.2f, max %d; a read after it merged %.2f of %.2f live%n",
          (double) sstableSum / sstableSamples, sstableMax, (double) merged / reads, (double) live / reads);
      System.out.printf("commit log        %6.2f bytes/user byte (%d B a record)%n", (double) m.commitLogBytes() / userBytes,
          m.commitLogBytes() / (rows + warmup));
      System.out.printf("flushes           %6.2f%n", (double) flushBytes / userBytes);
      System.out.printf("compaction, bg    %6.2f (%.2f rewrites of the final data)%n", (double) beforeMajor / userBytes,
          (double) beforeMajor / sstableBytes);
      System.out.printf("major compaction  %6.2f%n", (double) (m.compactionBytesWritten() - beforeMajor) / userBytes);
      System.out.printf("sum               %6.2f%n",
          (double) (m.commitLogBytes() + flushBytes + m.compactionBytesWritten()) / userBytes);
      System.out.printf("final SSTables    %6.3f (%d B a row):", (double) sstableBytes / userBytes, sstableBytes / rows);
      components.forEach((k, v) -> System.out.printf(" %s %.3f", k, (double) v / userBytes));
      System.out.println();
    } finally {
      long ioAfter = procWriteBytes();
      if (ioBefore >= 0 && ioAfter >= 0) {
        System.out.printf("process write_bytes %6.2f bytes/user byte%n", (double) (ioAfter - ioBefore) / userBytes);
      }
      FileTree.delete(dir);
    }
  }

  private static long procWriteBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("write_bytes:")) {
          return Long.parseLong(line.substring(12).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }
}
