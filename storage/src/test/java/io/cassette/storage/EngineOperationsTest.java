package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshots, metrics, write stalls, commit-log recycling, group commit. */
class EngineOperationsTest {
  @TempDir
  Path dir;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static PartitionUpdate put(String pk, int valueBytes) {
    return PartitionUpdate.builder("ks", "t", b(pk))
        .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", new byte[valueBytes], 1)))).build();
  }

  EngineOptions options(CommitLogSync sync, Duration period, long segmentBytes, long budget) {
    EngineOptions d = EngineOptions.defaults(dir);
    return new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), sync, period, segmentBytes,
        d.commitLogBacklogBytes(), budget, 0, 1);
  }

  static long count(Path p, String suffix) throws Exception {
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(f -> f.getFileName().toString().endsWith(suffix)).count();
    }
  }

  @Test
  void snapshotHardLinksSurviveCompaction() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("a", 10));
      t.flush();
      t.apply(put("b", 10));
      t.snapshot("before");
      Path snap = ((LocalTable) t).directory().resolve("snapshots").resolve("before");
      assertThat(count(snap, "-Data.db")).isEqualTo(2);
      t.compact();
      assertThat(count(((LocalTable) t).directory(), "-Data.db")).isEqualTo(3); // 1 live + 2 in the snapshot
      try (Stream<Path> s = Files.list(snap)) {
        for (Path f : (Iterable<Path>) s::iterator) {
          assertThat(Files.size(f)).isPositive();
        }
      }
    }
  }

  @Test
  void metricsCountReadsWritesAndFiles() {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (int i = 0; i < 10; i++) {
        t.apply(put("k" + i, 100));
      }
      assertThat(t.metrics().memtableBytes()).isGreaterThan(1000);
      t.read(b("k1"), ReadQuery.all(0));
      t.read(b("nope"), ReadQuery.all(0));
      t.flush();
      TableMetrics m = t.metrics();
      assertThat(m.writes()).isEqualTo(10);
      assertThat(m.reads()).isEqualTo(2);
      assertThat(m.sstableCount()).isEqualTo(1);
      assertThat(m.bytesOnDisk()).isPositive();
      assertThat(m.bytesWritten()).isEqualTo(m.bytesOnDisk());
      assertThat(m.memtableBytes()).isZero();
      StorageMetrics s = e.metrics();
      assertThat(s.flushes()).isEqualTo(1);
      assertThat(s.commitLogBytes()).isPositive();
    }
  }

  @Test
  void writersStallVisiblyWhenMemtablesFillTheBudgetAndNothingIsLost() throws Exception {
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC, Duration.ofSeconds(10), 1 << 20, 64 * 1024))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int id = w;
        Thread th = new Thread(() -> {
          for (int i = 0; i < 500; i++) {
            t.apply(put("w" + id + "-" + i, 1000));
          }
        });
        writers.add(th);
        th.start();
      }
      for (Thread th : writers) {
        th.join();
      }
      StorageMetrics m = e.metrics();
      assertThat(m.writeStalls()).isPositive();
      assertThat(m.flushes()).isGreaterThan(10);
      assertThat(m.memtableBytes()).isLessThanOrEqualTo(64 * 1024 + 4 * 2000);
      for (int w = 0; w < 4; w++) {
        for (int i = 0; i < 500; i++) {
          assertThat(t.read(b("w" + w + "-" + i), ReadQuery.all(0)).staticRow()).isNotNull();
        }
      }
    }
  }

  @Test
  void commitLogSegmentsAreDeletedOnceFlushed() throws Exception {
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC, Duration.ofMillis(20), 64 * 1024, 16 << 20))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      long most = 0;
      for (int i = 0; i < 600; i++) {
        t.apply(put("k" + i, 1000));
        most = Math.max(most, e.metrics().commitLogSegments());
      }
      assertThat(most).as("the log grew past one 64 KB segment").isGreaterThan(1);
      // more than MAX_SEGMENTS_BEFORE_FORCED_FLUSH segments force the table to flush by itself
      long waitUntil = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (e.metrics().flushes() == 0 && System.nanoTime() < waitUntil) {
        Thread.sleep(10);
      }
      assertThat(e.metrics().flushes()).isPositive();
      t.flush();
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (count(dir.resolve("commitlog"), ".log") > 1 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(count(dir.resolve("commitlog"), ".log")).isEqualTo(1);
    }
  }

  @Test
  void batchModeSharesFsyncsBetweenConcurrentWriters() throws Exception {
    try (Engine e = Engine.open(options(CommitLogSync.BATCH, Duration.ofMillis(10), 1 << 20, 16 << 20))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 8; w++) {
        int id = w;
        Thread th = new Thread(() -> {
          for (int i = 0; i < 50; i++) {
            t.apply(put("w" + id + "-" + i, 10));
          }
        });
        writers.add(th);
        th.start();
      }
      for (Thread th : writers) {
        th.join();
      }
      long syncs = e.metrics().commitLogSyncs();
      assertThat(syncs).isPositive().isLessThan(400); // 400 acknowledged writes, fewer fsyncs
    }
  }

  @Test
  void periodicModeSyncsEarlyWhenHalfTheBacklogIsUnsynced() throws Exception {
    EngineOptions d = EngineOptions.defaults(dir);
    EngineOptions o = new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), CommitLogSync.PERIODIC,
        Duration.ofHours(1), 1 << 20, 256 * 1024, 16 << 20, 0, 1);
    try (Engine e = Engine.open(o)) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (int i = 0; i < 600; i++) {
        t.apply(put("k" + i, 1000));
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (e.metrics().commitLogSyncs() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(e.metrics().commitLogSyncs()).isPositive();
    }
  }

  @Test
  void aFailedFlushKeepsDataReadableAndIsRetried() throws Exception {
    try {
      Engine e = Engine.open(EngineOptions.defaults(dir));
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("k1", 10));
      io.cassette.storage.sstable.SSTableWriter.simulateWriteFailure = true;
      org.assertj.core.api.Assertions.assertThatThrownBy(t::flush).hasRootCauseInstanceOf(StorageException.class)
          .hasStackTraceContaining("No space left on device");
      assertThat(t.read(b("k1"), ReadQuery.all(0)).staticRow()).isNotNull();
      t.apply(put("k2", 10));
      io.cassette.storage.sstable.SSTableWriter.simulateWriteFailure = false; // space is back
      t.flush();
      assertThat(t.metrics().sstableCount()).isEqualTo(2);
      ((StorageEngine) e).simulateCrash();
    } finally {
      io.cassette.storage.sstable.SSTableWriter.simulateWriteFailure = false;
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      assertThat(t.read(b("k1"), ReadQuery.all(0)).staticRow()).isNotNull();
      assertThat(t.read(b("k2"), ReadQuery.all(0)).staticRow()).isNotNull();
      // everything is in SSTables: nothing was replayed into the memtable
      assertThat(t.metrics().memtableBytes()).isZero();
    }
  }
}
