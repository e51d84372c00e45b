package io.cassette.storage;

import static io.cassette.storage.EngineOperationsTest.b;
import static io.cassette.storage.EngineOperationsTest.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.storage.commitlog.CommitLogSegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit log when it cannot write (simulated disk full, fsync I/O error): writes are
 * refused at once with a clear error, acknowledged ones are kept, writes told "failed" are
 * never replayed, and writing resumes when the disk does. The real full disk (an ext4 image)
 * is server's FullDiskTest.
 */
class CommitLogFailureTest {
  @TempDir
  Path dir;

  @AfterEach
  void healDisk() {
    CommitLogSegment.simulateWriteFailure = false;
    CommitLogSegment.simulateSyncFailure = false;
  }

  private EngineOptions options(CommitLogSync sync) {
    EngineOptions d = EngineOptions.defaults(dir);
    return new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), sync, Duration.ofMillis(50),
        d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), d.memtableBudgetBytes(), 0, 1);
  }

  private static boolean present(Table t, String key) {
    return t.read(b(key), ReadQuery.all(0)).staticRow() != null;
  }

  /** Applies until one is accepted (space is back), at most 10 s; returns the accepted key. */
  private static String applyUntilAccepted(Table t, String prefix) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (int i = 0; System.nanoTime() < deadline; i++) {
      try {
        t.apply(put(prefix + i, 10));
        return prefix + i;
      } catch (StorageException refused) {
        Thread.sleep(20);
      }
    }
    throw new AssertionError("writes did not resume within 10 s");
  }

  @Test
  void periodicModeRefusesWritesAtOnceAndKeepsTheAcknowledgedOnes() throws Exception {
    List<String> acked = new ArrayList<>();
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (int i = 0; i < 20; i++) {
        t.apply(put("before" + i, 10));
        acked.add("before" + i);
      }
      CommitLogSegment.simulateWriteFailure = true;
      StorageException refused = null;
      long failedAt = System.nanoTime();
      for (int i = 0; i < 1000 && refused == null; i++) {
        try {
          t.apply(put("during" + i, 10));
          acked.add("during" + i);
        } catch (StorageException ex) {
          refused = ex;
        }
        Thread.sleep(1);
      }
      // Before: acknowledged into a 128 KiB buffer that nothing could write, for seconds.
      assertThat(refused).as("a write refused while the log cannot write").isNotNull();
      assertThat(System.nanoTime() - failedAt).isLessThan(TimeUnit.SECONDS.toNanos(1));
      assertThat(refused.getMessage())
          .contains("write refused", "No space left on device", "resume")
          .doesNotContain(dir.toString());
      assertThatThrownBy(() -> t.apply(put("still", 10))).isInstanceOf(StorageException.class);
      assertThat(present(t, "still")).isFalse();

      CommitLogSegment.simulateWriteFailure = false;
      acked.add(applyUntilAccepted(t, "after"));
      for (String k : acked) {
        assertThat(present(t, k)).as(k).isTrue();
      }
      ((StorageEngine) e).simulateCrash();
    }
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC))) {
      Table t = e.table("ks", "t").orElseThrow();
      for (String k : acked) {
        assertThat(present(t, k)).as("acknowledged " + k + " after restart").isTrue();
      }
    }
  }

  @Test
  void batchModeWriteToldFailedIsNeverReplayed() throws Exception {
    String resumed;
    try (Engine e = Engine.open(options(CommitLogSync.BATCH))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("k0", 10));
      CommitLogSegment.simulateSyncFailure = true; // the record reaches the file, its fsync fails
      assertThatThrownBy(() -> t.apply(put("k1", 10))).isInstanceOf(StorageException.class)
          .hasMessageContaining("commit log not synced").hasMessageContaining("not applied")
          .hasMessageNotContaining(dir.toString());
      assertThat(present(t, "k1")).isFalse();
      assertThatThrownBy(() -> t.apply(put("k2", 10))).hasMessageContaining("write refused");
      CommitLogSegment.simulateSyncFailure = false;
      resumed = applyUntilAccepted(t, "k3-");
      ((StorageEngine) e).simulateCrash();
    }
    try (Engine e = Engine.open(options(CommitLogSync.BATCH))) {
      Table t = e.table("ks", "t").orElseThrow();
      assertThat(present(t, "k0")).isTrue();
      assertThat(present(t, resumed)).isTrue();
      assertThat(present(t, "k1")).as("a write answered 'failed' must not come back").isFalse();
      assertThat(present(t, "k2")).isFalse();
    }
  }

  @Test
  void batchModeFailedSegmentWriteAppliesNothing() throws Exception {
    try (Engine e = Engine.open(options(CommitLogSync.BATCH))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("k0", 10));
      CommitLogSegment.simulateWriteFailure = true;
      assertThatThrownBy(() -> t.apply(put("k1", 10))).isInstanceOf(StorageException.class);
      CommitLogSegment.simulateWriteFailure = false;
      applyUntilAccepted(t, "k2-");
      ((StorageEngine) e).simulateCrash();
    }
    try (Engine e = Engine.open(options(CommitLogSync.BATCH))) {
      Table t = e.table("ks", "t").orElseThrow();
      assertThat(present(t, "k0")).isTrue();
      assertThat(present(t, "k1")).isFalse();
    }
  }

  @Test
  void theReserveIsKeptBesideTheSegmentsAndIgnoredByReplay() throws Exception {
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC))) {
      e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID())).apply(put("a", 10));
    }
    Path reserve = EngineOptions.defaults(dir).commitLogDirectory().resolve("CommitLog.reserve");
    assertThat(Files.size(reserve)).isEqualTo(1 << 20);
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC))) {
      assertThat(present(e.table("ks", "t").orElseThrow(), "a")).isTrue();
    }
  }

  @Test
  void drainedEngineRefusesWritesAndServesReads() throws Exception {
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("a", 10));
      e.drain();
      assertThat(e.isDrained()).isTrue();
      assertThatThrownBy(() -> t.apply(put("b", 10))).isInstanceOf(StorageException.class)
          .hasMessageContaining("drained");
      assertThatThrownBy(t::truncate).hasMessageContaining("drained");
      assertThat(present(t, "a")).isTrue();
      assertThat(t.metrics().memtableBytes()).isZero(); // flushed
    }
    try (Engine e = Engine.open(options(CommitLogSync.PERIODIC))) {
      assertThat(e.isDrained()).isFalse();
      e.table("ks", "t").orElseThrow().apply(put("b", 10));
    }
  }
}
