package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit-log mode switched on a running engine (Redis's CONFIG SET appendfsync). */
class CommitLogSyncSwitchTest {
  @TempDir Path dir;

  private static void write(Table t, int k) {
    t.apply(PartitionUpdate.builder("ks", "t", new byte[] {(byte) k})
        .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", new byte[] {1}, k + 1)))).build());
  }

  /**
   * Waits (at most 10 s) until every byte written to the log is fsynced. The sync thread counts
   * a sync before it marks its bytes synced, so after this the sync count is final.
   */
  private static void awaitNothingUnsynced(StorageEngine engine) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (engine.commitLogUnsyncedBytes() > 0) {
      assertThat(System.nanoTime() - deadline).as("commit log synced within 10 s").isNegative();
      Thread.sleep(1);
    }
  }

  @Test
  void batchAcknowledgesAfterFsyncAndPeriodicNoLongerWaitsOnceSwitchedBack() throws InterruptedException {
    EngineOptions hourly = new EngineOptions(dir.resolve("data"), dir.resolve("commitlog"),
        CommitLogSync.PERIODIC, Duration.ofHours(1), 1 << 20, 1 << 20, 8 << 20, 0, 1);
    try (Engine engine = Engine.open(hourly)) {
      Table t = engine.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      write(t, 0);
      long before = engine.metrics().commitLogSyncs();

      engine.setCommitLogSync(CommitLogSync.BATCH, Duration.ofHours(1));
      for (int k = 1; k <= 5; k++) {
        long syncs = engine.metrics().commitLogSyncs();
        write(t, k);
        // one writer: each acknowledgement waited for an fsync that covered it
        assertThat(engine.metrics().commitLogSyncs()).isGreaterThan(syncs);
      }
      assertThat(engine.metrics().commitLogSyncs()).isGreaterThanOrEqualTo(before + 5);

      engine.setCommitLogSync(CommitLogSync.PERIODIC, Duration.ofHours(1));
      awaitNothingUnsynced((StorageEngine) engine); // a sync the switch forces, if any, is counted
      long afterSwitch = engine.metrics().commitLogSyncs();
      for (int k = 6; k <= 20; k++) {
        write(t, k);
      }
      assertThat(engine.metrics().commitLogSyncs()).isLessThanOrEqualTo(afterSwitch + 1);
    }
  }
}
