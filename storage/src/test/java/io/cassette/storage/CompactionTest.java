package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.io.Throttle;
import io.cassette.storage.sstable.SSTableReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionTest {
  @TempDir
  Path dir;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static long now() {
    return System.currentTimeMillis() / 1000;
  }

  static TableSpec spec(Map<String, String> compaction, int gcGrace) {
    return new TableSpec("ks", "t", UUID.randomUUID(), Map.of("class", "LZ4Compressor"), compaction, gcGrace, 0.01, 0);
  }

  static PartitionUpdate put(String pk, long ts) {
    return PartitionUpdate.builder("ks", "t", b(pk)).row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", b("x" + ts), ts)))).build();
  }

  static void awaitSSTables(Table t, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (t.metrics().sstableCount() != count && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(t.metrics().sstableCount()).isEqualTo(count);
  }

  @Test
  void sizeTieredCompactsFourSimilarSSTablesInTheBackground() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec(Map.of("class", "SizeTieredCompactionStrategy"), 864000));
      for (int f = 0; f < 4; f++) {
        for (int i = 0; i < 100; i++) {
          t.apply(put("k" + (f * 100 + i), 1));
        }
        t.flush();
      }
      awaitSSTables(t, 1);
      assertThat(e.metrics().compactions()).isEqualTo(1);
      for (int i = 0; i < 400; i++) {
        assertThat(t.read(b("k" + i), ReadQuery.all(now())).isEmpty()).isFalse();
      }
    }
  }

  /**
   * Flash wear: the result of compacting four flushes is a tier of its own. With Cassandra's
   * fixed 50 MiB min_sstable_size every SSTable of this table would share one bucket, and the
   * next three flushes would rewrite the first four's data again.
   */
  @Test
  void sizeTieredLeavesACompactionResultOutOfTheNextFlushesBucket() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec(Map.of("class", "SizeTieredCompactionStrategy"), 864000));
      java.util.SplittableRandom random = new java.util.SplittableRandom(7);
      for (int f = 0; f < 7; f++) {
        for (int i = 0; i < 600; i++) { // ~2.5 MB a flush (incompressible): over the 1 MiB floor
          byte[] value = new byte[4096];
          random.nextBytes(value);
          t.apply(PartitionUpdate.builder("ks", "t", b("k" + (f * 600 + i)))
              .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", value, 1)))).build());
        }
        t.flush();
        if (f == 3) {
          awaitSSTables(t, 1);
        }
      }
      Thread.sleep(300); // a compaction the strategy wrongly wanted would have started
      assertThat(t.metrics().pendingCompactions()).isZero();
      awaitSSTables(t, 4);
      assertThat(t.metrics().sstableCount()).isEqualTo(4);
      assertThat(e.metrics().compactions()).isEqualTo(1);
      for (int i = 0; i < 4200; i += 7) {
        assertThat(t.read(b("k" + i), ReadQuery.all(now())).isEmpty()).isFalse();
      }
    }
  }

  @Test
  void unifiedT4CompactsFourFlushesInTheBackground() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec(Map.of("class", "UnifiedCompactionStrategy", "scaling_parameters", "T4"), 864000));
      for (int f = 0; f < 4; f++) {
        for (int i = 0; i < 100; i++) {
          t.apply(put("k" + (f * 100 + i), 1));
        }
        t.flush();
        if (f < 3) {
          assertThat(t.metrics().sstableCount()).isEqualTo(f + 1);
        }
      }
      awaitSSTables(t, 1);
      assertThat(e.metrics().compactions()).isEqualTo(1);
      for (int i = 0; i < 400; i++) {
        assertThat(t.read(b("k" + i), ReadQuery.all(now())).isEmpty()).isFalse();
      }
    }
  }

  @Test
  void cleanupDropsThePartitionsOfTokensNoLongerKeptAndNothingElse() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec(Map.of("class", "SizeTieredCompactionStrategy"), 864000));
      for (int i = 0; i < 200; i++) {
        t.apply(put("k" + i, 1));
        if (i == 99) {
          t.flush(); // half in an SSTable, half in the memtable: cleanup flushes first
        }
      }
      t.cleanup(token -> token >= 0);
      int kept = 0;
      for (int i = 0; i < 200; i++) {
        boolean present = !t.read(b("k" + i), ReadQuery.all(now())).isEmpty();
        assertThat(present).as("k" + i).isEqualTo(DecoratedKey.of(b("k" + i)).token() >= 0);
        kept += present ? 1 : 0;
      }
      assertThat(kept).isBetween(60, 140);
      assertThat(t.metrics().sstableCount()).isEqualTo(1);
    }
  }

  @Test
  void timeWindowKeepsOneSSTablePerOldWindow() throws Exception {
    long day = 86_400L * 1_000_000L;
    long base = (System.currentTimeMillis() * 1000 / day - 10) * day; // ten days ago, at a window start
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec(Map.of("class", "TimeWindowCompactionStrategy",
          "compaction_window_unit", "DAYS", "compaction_window_size", "1"), 864000));
      for (long window : new long[] {0, 0, 3, 3, 3}) {
        for (int i = 0; i < 20; i++) {
          t.apply(put("k" + window + "-" + i + "-" + System.nanoTime(), base + window * day + i));
        }
        t.flush();
      }
      awaitSSTables(t, 2);
      LocalTable lt = (LocalTable) t;
      List<Long> windows = new ArrayList<>();
      for (SSTableReader s : lt.view.get().sstables()) {
        assertThat(s.stats().minTimestamp() / day).isEqualTo(s.stats().maxTimestamp() / day);
        windows.add((s.stats().maxTimestamp() - base) / day);
      }
      assertThat(windows).containsExactlyInAnyOrder(0L, 3L);
    }
  }

  @Test
  void throttleHoldsTheRate() {
    Throttle throttle = new Throttle(1 << 20);
    long t0 = System.nanoTime();
    for (int i = 0; i < 8; i++) {
      throttle.acquire(64 * 1024); // 512 KB at 1 MB/s
    }
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThan(Duration.ofMillis(400));
    Throttle unlimited = new Throttle(0);
    long t1 = System.nanoTime();
    unlimited.acquire(1 << 30);
    assertThat(Duration.ofNanos(System.nanoTime() - t1)).isLessThan(Duration.ofMillis(100));
  }

  @Test
  void compactionThroughputCapSlowsCompaction() throws Exception {
    EngineOptions d = EngineOptions.defaults(dir);
    EngineOptions slow = new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), d.commitLogSync(),
        d.commitLogSyncPeriod(), d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), d.memtableBudgetBytes(),
        256 * 1024, 1);
    try (Engine e = Engine.open(slow)) {
      Table t = e.createTable(new TableSpec("ks", "t", UUID.randomUUID(), Map.of("enabled", "false"),
          Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "32"), 864000, 0.01, 0));
      java.util.Random r = new java.util.Random(1);
      for (int f = 0; f < 2; f++) {
        for (int i = 0; i < 300; i++) {
          byte[] v = new byte[1000];
          r.nextBytes(v);
          t.apply(PartitionUpdate.builder("ks", "t", b("k" + f + "-" + i)).row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", v, 1)))).build());
        }
        t.flush();
      }
      long t0 = System.nanoTime();
      t.compact(); // ~600 KB to write at 256 KB/s
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThan(Duration.ofMillis(1200));
      assertThat(t.metrics().sstableCount()).isEqualTo(1);
    }
  }

  /**
   * Flash wear: a major compaction stops a running background compaction instead of waiting
   * for it and rewriting its result: the stopped one's output is deleted, its inputs kept, and
   * only the major compaction's bytes are written. Before, both ran to the end (2 compactions).
   */
  @Test
  void majorCompactionStopsARunningBackgroundCompaction() throws Exception {
    EngineOptions d = EngineOptions.defaults(dir);
    EngineOptions slow = new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), d.commitLogSync(),
        d.commitLogSyncPeriod(), d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), d.memtableBudgetBytes(),
        64 * 1024, 1);
    try (Engine e = Engine.open(slow)) {
      LocalTable t = (LocalTable) e.createTable(new TableSpec("ks", "t", UUID.randomUUID(), Map.of("enabled", "false"),
          Map.of("class", "SizeTieredCompactionStrategy"), 864000, 0.01, 0));
      java.util.Random r = new java.util.Random(1);
      for (int f = 0; f < 4; f++) {
        for (int i = 0; i < 100; i++) {
          byte[] v = new byte[1000];
          r.nextBytes(v);
          t.apply(PartitionUpdate.builder("ks", "t", b("k" + f + "-" + i)).row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", v, 1)))).build());
        }
        t.flush();
      }
      // the fourth flush started a background compaction of ~400 KB at 64 KB/s: wait for its output
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!hasTemporaryFile(t) && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(hasTemporaryFile(t)).as("a background compaction is running").isTrue();
      e.setCompactionThroughput(0);
      t.compact();
      assertThat(e.metrics().compactions()).as("only the major compaction completed").isEqualTo(1);
      assertThat(t.metrics().sstableCount()).isEqualTo(1);
      assertThat(e.metrics().compactionBytesWritten()).isEqualTo(t.metrics().bytesOnDisk());
      assertThat(hasTemporaryFile(t)).as("the stopped compaction's output is deleted").isFalse();
      for (int f = 0; f < 4; f++) {
        for (int i = 0; i < 100; i++) {
          assertThat(t.read(b("k" + f + "-" + i), ReadQuery.all(now())).isEmpty()).isFalse();
        }
      }
    }
  }

  private static boolean hasTemporaryFile(LocalTable t) throws java.io.IOException {
    try (var files = java.nio.file.Files.list(t.directory())) {
      return files.anyMatch(p -> p.getFileName().toString().endsWith(".tmp"));
    }
  }

  private static SSTableReader newest(LocalTable t) {
    List<SSTableReader> s = t.view.get().sstables();
    return s.get(s.size() - 1);
  }

  /** Compacts exactly {@code inputs}, as a background compaction would. */
  private static void compactOnly(LocalTable t, List<SSTableReader> inputs) {
    assertThat(t.compactions.markCompacting(inputs)).isTrue();
    t.compactions.run(inputs, new Throttle(0));
  }

  @Test
  void tombstoneKeptWhileAnSSTableOutsideTheCompactionMayHoldOlderData() {
    long now = now();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      LocalTable t = (LocalTable) e.createTable(spec(Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "32"), 0));
      t.apply(put("k", 10)); // old data, in A
      t.flush();
      SSTableReader a = newest(t);
      t.apply(PartitionUpdate.builder("ks", "t", b("k")).deletePartition(new DeletionTime(20, now - 100)).build());
      t.flush();
      SSTableReader b = newest(t);
      t.apply(put("other", 30));
      t.flush();
      SSTableReader c = newest(t);
      compactOnly(t, List.of(b, c));
      assertThat(t.read(b("k"), ReadQuery.all(now)).isEmpty()).as("the deletion still shadows A").isTrue();
      assertThat(newest(t).stats().tombstoneCount()).isEqualTo(1);
      assertThat(t.view.get().sstables()).contains(a);
      t.compact(); // now everything is in the compaction: tombstone and shadowed data both go
      assertThat(t.read(b("k"), ReadQuery.all(now)).isEmpty()).isTrue();
      assertThat(newest(t).stats().tombstoneCount()).isZero();
      assertThat(newest(t).stats().partitionCount()).isEqualTo(1); // only "other"
    }
  }

  @Test
  void tombstonePurgedWhenDataOutsideIsNewer() {
    long now = now();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      LocalTable t = (LocalTable) e.createTable(spec(Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "32"), 0));
      t.apply(put("k", 30)); // newer than the deletion
      t.flush();
      t.apply(PartitionUpdate.builder("ks", "t", b("k")).deletePartition(new DeletionTime(20, now - 100)).build());
      t.flush();
      SSTableReader b = newest(t);
      t.apply(put("other", 40));
      t.flush();
      SSTableReader c = newest(t);
      compactOnly(t, List.of(b, c));
      assertThat(newest(t).stats().tombstoneCount()).isZero();
      assertThat(t.read(b("k"), ReadQuery.all(now)).staticRow().cell("v").timestamp()).isEqualTo(30);
    }
  }

  @Test
  void tombstonesWithinGcGraceSurviveCompaction() {
    long now = now();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      LocalTable t = (LocalTable) e.createTable(spec(Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "32"), 3600));
      t.apply(PartitionUpdate.builder("ks", "t", b("k")).deletePartition(new DeletionTime(20, now - 100)).build());
      t.apply(PartitionUpdate.builder("ks", "t", b("j"))
          .row(Row.of(b("c"), List.of(Cell.expiring("v", b("x"), 5, 10, now - 50)))).build());
      t.flush();
      t.compact();
      // the partition deletion and the expired cell (now a tombstone) are both kept
      assertThat(newest(t).stats().tombstoneCount()).isEqualTo(2);
    }
  }

  @Test
  void anSSTableWhoseDataHasAllExpiredIsRewrittenAlone() throws Exception {
    long now = now();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      LocalTable t = (LocalTable) e.createTable(spec(Map.of("class", "SizeTieredCompactionStrategy",
          "tombstone_compaction_interval", "0"), 0));
      t.apply(put("live", 50));
      t.flush(); // an SSTable with only live data: never picked
      for (int i = 0; i < 100; i++) {
        t.apply(PartitionUpdate.builder("ks", "t", b("ttl" + i))
            .row(Row.of(Bytes.EMPTY, List.of(Cell.expiring("v", b("x"), 100 + i, 10, now - 100)))).build());
      }
      t.flush(); // expired data, newer than everything else: rewritten alone, to nothing
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (t.metrics().sstableCount() != 1 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(t.metrics().sstableCount()).isEqualTo(1);
      assertThat(newest(t).stats().partitionCount()).isEqualTo(1);
      assertThat(t.read(b("live"), ReadQuery.all(now)).staticRow()).isNotNull();
    }
  }
}
