package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LatencyMonitorTest {
  private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
  private final LatencyMonitor monitor = new LatencyMonitor(100, clock::get);

  @Test
  void eventsAtOrAboveTheThresholdAreRecordedAndOthersAreNot() {
    assertThat(monitor.record(LatencyEvents.COMMITLOG_FSYNC, 99_999, "seg-1")).isFalse();
    assertThat(monitor.latest()).isEmpty();
    assertThat(monitor.record(LatencyEvents.COMMITLOG_FSYNC, 100_000, "seg-2")).isTrue();
    clock.addAndGet(1000);
    assertThat(monitor.record(LatencyEvents.COMMITLOG_FSYNC, 250_000, "seg-3")).isTrue();
    List<LatencyMonitor.Latest> latest = monitor.latest();
    assertThat(latest).hasSize(1);
    LatencyMonitor.Latest l = latest.get(0);
    assertThat(l.event()).isEqualTo("commitlog-fsync");
    assertThat(l.epochSecond()).isEqualTo(1_700_000_001L);
    assertThat(l.latestMillis()).isEqualTo(250);
    assertThat(l.maxMillis()).isEqualTo(250);
    assertThat(l.maxContext()).isEqualTo("seg-3");
    assertThat(monitor.history("commitlog-fsync")).extracting(LatencyMonitor.Sample::millis).containsExactly(100L, 250L);
  }

  @Test
  void eventsInTheSameSecondShareOneSampleHoldingTheWorst() {
    monitor.record("gc-pause", 150_000, "a");
    monitor.record("gc-pause", 400_000, "b");
    monitor.record("gc-pause", 120_000, "c");
    assertThat(monitor.history("gc-pause")).containsExactly(new LatencyMonitor.Sample(1_700_000_000L, 400_000, "b"));
    assertThat(monitor.latest().get(0).events()).isEqualTo(3);
  }

  @Test
  void historyKeepsTheLast160SamplesButTheAllTimeMaximumSurvives() {
    monitor.record("compaction", 9_000_000, "first");
    for (int i = 1; i <= 200; i++) {
      clock.addAndGet(1000);
      monitor.record("compaction", 100_000 + i * 1000, "s" + i);
    }
    List<LatencyMonitor.Sample> h = monitor.history("compaction");
    assertThat(h).hasSize(LatencyMonitor.HISTORY_LENGTH);
    assertThat(h.get(0).context()).isEqualTo("s41");
    assertThat(h.get(159).context()).isEqualTo("s200");
    assertThat(monitor.latest().get(0).maxMillis()).isEqualTo(9_000);
    assertThat(monitor.latest().get(0).maxContext()).isEqualTo("first");
  }

  @Test
  void resetForgetsNamedEventsOrAllAndCountsThem() {
    monitor.record("a", 200_000, null);
    monitor.record("b", 200_000, null);
    monitor.record("c", 200_000, null);
    assertThat(monitor.reset("a", "nope")).isEqualTo(1);
    assertThat(monitor.latest()).extracting(LatencyMonitor.Latest::event).containsExactly("b", "c");
    assertThat(monitor.reset()).isEqualTo(2);
    assertThat(monitor.latest()).isEmpty();
    assertThat(monitor.history("b")).isEmpty();
  }

  @Test
  void zeroDisablesTheMonitor() {
    monitor.setThresholdMillis(0);
    assertThat(monitor.enabled()).isFalse();
    assertThat(monitor.record("gc-pause", 10_000_000, null)).isFalse();
    assertThat(monitor.latest()).isEmpty();
    assertThatThrownBy(() -> monitor.setThresholdMillis(-1)).hasMessageContaining("-1 (expected: >= 0 ms)");
  }

  @Test
  void theTablesShowEveryEvent() {
    monitor.record("commitlog-fsync", 812_000, "CommitLog-7.log");
    String latest = LatencyTable.latest(monitor);
    assertThat(latest).contains("commitlog-fsync", "2023-11-14T22:13:20Z", "812", "CommitLog-7.log");
    assertThat(LatencyTable.history(monitor, "commitlog-fsync")).contains("812  CommitLog-7.log");
    assertThat(LatencyTable.history(monitor, "other")).isEqualTo("No samples for other.\n");
  }
}
