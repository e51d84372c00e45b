package io.cassette.bench.jmh;

import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.StorageMetrics;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.io.FileTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Where the disk bytes of a stress write load go, in-JVM (robust to machine load, unlike
 * op/s): {@code ROWS} stress rows through the engine with the memtable budget a 128 MB node
 * gets (1/4 of the heap), then flush and a major compaction, as bench/run's wear row does.
 * Prints the bytes of each writer (commit log, flushes, compactions) per user byte (key plus
 * values) and the process's own {@code write_bytes} from /proc/self/io where it exists.
 *
 * <pre>java -cp ... io.cassette.bench.jmh.WearProbe [rows=300000] [memtableMiB=32] [compaction options]</pre>
 *
 * Compaction options are the table's map as {@code key=value,...}, e.g.
 * {@code class=SizeTieredCompactionStrategy,min_threshold=8} (default: Cassandra's STCS defaults).
 */
public final class WearProbe {
  private WearProbe() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
    long memtableBytes = (args.length > 1 ? Long.parseLong(args[1]) : 32) << 20;
    java.util.Map<String, String> compaction = new java.util.HashMap<>(java.util.Map.of("class", "SizeTieredCompactionStrategy"));
    if (args.length > 2) {
      for (String option : args[2].split(",")) {
        String[] kv = option.split("=", 2);
        compaction.put(kv[0], kv[1]);
      }
    }
    Path dir = Files.createTempDirectory("cassette-wear");
    EngineOptions d = EngineOptions.defaults(dir);
    EngineOptions options = new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), d.commitLogSync(),
        d.commitLogSyncPeriod(), d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), memtableBytes,
        0, d.compactionThreads());
    long userBytes = (long) rows * (10 + StressRows.COLUMNS * StressRows.VALUE_BYTES);
    long ioBefore = procWriteBytes();
    try (Engine engine = Engine.open(options)) {
      TableSpec d0 = TableSpec.withDefaults(StressRows.KEYSPACE, StressRows.TABLE, UUID.nameUUIDFromBytes("wear".getBytes()));
      Table table = engine.createTable(new TableSpec(d0.keyspace(), d0.name(), d0.id(), d0.compression(), compaction,
          d0.gcGraceSeconds(), d0.bloomFilterFpChance(), d0.defaultTimeToLive()));
      long t0 = System.nanoTime();
      for (int i = 0; i < rows; i++) {
        table.apply(StressRows.update(i, 1_700_000_000_000_000L + i));
      }
      StorageMetrics loaded = engine.metrics();
      table.flush();
      StorageMetrics flushed = engine.metrics();
      long beforeMajor = flushed.compactionBytesWritten();
      table.compact();
      StorageMetrics m = engine.metrics();
      long sstableBytes = sizeOf(options.dataDirectory());
      System.out.printf("rows %d, user bytes %d (%d B a row), memtable budget %d MiB, %.1f s%n", rows, userBytes,
          userBytes / rows, memtableBytes >> 20, (System.nanoTime() - t0) / 1e9);
      System.out.printf("compaction %s%n", compaction);
      System.out.printf("flushes %d, compactions %d (before the major one: %d)%n", m.flushes(), m.compactions(),
          loaded.compactions());
      System.out.printf("commit log        %6.2f bytes/user byte (%d B a row)%n", (double) m.commitLogBytes() / userBytes,
          m.commitLogBytes() / rows);
      System.out.printf("compaction (STCS) %6.2f%n", (double) beforeMajor / userBytes);
      System.out.printf("major compaction  %6.2f%n", (double) (m.compactionBytesWritten() - beforeMajor) / userBytes);
      System.out.printf("final SSTables    %6.2f (%d B a row)%n", (double) sstableBytes / userBytes, sstableBytes / rows);
    } finally {
      long ioAfter = procWriteBytes();
      if (ioBefore >= 0 && ioAfter >= 0) {
        System.out.printf("process write_bytes %6.2f bytes/user byte (flushes = this - commit log - compactions)%n",
            (double) (ioAfter - ioBefore) / userBytes);
      }
      FileTree.delete(dir);
    }
  }

  private static long sizeOf(Path root) throws IOException {
    try (var files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
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
