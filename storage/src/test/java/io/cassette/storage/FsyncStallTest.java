package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.commitlog.CommitLogSegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stalled fsync must not stall periodic-mode writers until the backlog bound is reached. */
class FsyncStallTest {
  @TempDir
  Path dir;

  @AfterEach
  void noStall() {
    CommitLogSegment.simulatedSyncStallNanos = 0;
  }

  EngineOptions options(long backlogBytes) {
    EngineOptions d = EngineOptions.defaults(dir);
    return new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), CommitLogSync.PERIODIC,
        Duration.ofMillis(10), d.commitLogSegmentBytes(), backlogBytes, d.memtableBudgetBytes(), 0, 1);
  }

  static PartitionUpdate put(int i) {
    return PartitionUpdate.builder("ks", "t", ("k" + i).getBytes())
        .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", new byte[100], 1)))).build();
  }

  @Test
  void writersDoNotWaitForAStalledFsync() {
    try (Engine e = Engine.open(options(8L << 20))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (int i = 0; i < 2000; i++) {
        t.apply(put(i)); // warm up
      }
      CommitLogSegment.simulatedSyncStallNanos = Duration.ofMillis(500).toNanos();
      int n = 3000;
      long[] micros = new long[n];
      long end = System.nanoTime() + Duration.ofMillis(1200).toNanos();
      int done = 0;
      while (done < n && System.nanoTime() < end) {
        long t0 = System.nanoTime();
        t.apply(put(10_000 + done));
        micros[done++] = (System.nanoTime() - t0) / 1000;
        if (done % 100 == 0) {
          try {
            Thread.sleep(20); // spread the writes over several stalled fsyncs
          } catch (InterruptedException ex) {
            throw new AssertionError(ex);
          }
        }
      }
      long[] sorted = Arrays.copyOf(micros, done);
      Arrays.sort(sorted);
      long p99 = sorted[(int) (done * 0.99)];
      System.out.println("writes during 500 ms fsync stalls: " + done + ", p99 " + p99 + " µs, max " + sorted[done - 1] + " µs");
      assertThat(e.metrics().commitLogSyncMicrosMax()).as("an fsync did stall").isGreaterThan(400_000);
      assertThat(e.metrics().commitLogBackPressureWaits()).isZero();
      // far below the 500 ms stall (a generous bound for a shared, loaded test machine)
      assertThat(p99).as("p99 write latency in µs during 500 ms fsync stalls").isLessThan(50_000);
    }
  }

  @Test
  void aFullBacklogMakesWritersWaitVisibly() {
    try (Engine e = Engine.open(options(64 * 1024))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      CommitLogSegment.simulatedSyncStallNanos = Duration.ofMillis(200).toNanos();
      for (int i = 0; i < 3000; i++) {
        t.apply(put(i)); // ~450 KB against a 64 KB backlog
      }
      StorageMetrics m = e.metrics();
      assertThat(m.commitLogBackPressureWaits()).isPositive();
      assertThat(m.commitLogBackPressureMicros()).isGreaterThan(100_000);
    }
  }
}
