package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit-log mode switched on a running engine (Redis's CONFIG SET appendfsync). */
class CommitLogSyncSwitchTest {
  @TempDir Path dir;

  private static void write(Table t, int k) {
    t.apply(PartitionUpdate.builder("ks", "t", new byte[] {(byte) k})
        .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", new byte[] {1}, k + 1)))).build());
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
      Thread.sleep(200); // a sync the switch forces (only if anything is unsynced) finishes
      long afterSwitch = engine.metrics().commitLogSyncs();
      for (int k = 6; k <= 20; k++) {
        write(t, k);
      }
      assertThat(engine.metrics().commitLogSyncs()).isLessThanOrEqualTo(afterSwitch + 1);
    }
  }
}
