package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StorageIoMetricsTest {
  private final LatencyMonitor monitor = new LatencyMonitor(100, System::currentTimeMillis);
  private final NodeMetrics m = new NodeMetrics(monitor);

  @Test
  void flashWearIsDeviceBytesPerUserByte() {
    assertThat(m.flashWear().ratio()).isNaN();
    for (int i = 0; i < 10; i++) {
      m.storage().commitLogAppended(100);
    }
    m.storage().memtableFlushed("ks.t", 1_000, 800);
    m.storage().compacted("ks.t", 2_000, 1_600, 700);
    assertThat(m.flashWear().userBytes()).isEqualTo(1000);
    assertThat(m.flashWear().deviceBytes()).isEqualTo(1000 + 800 + 700);
    assertThat(m.flashWear().deviceBytes(FlashWear.Source.COMPACTION)).isEqualTo(700);
    assertThat(m.flashWear().ratio()).isEqualTo(2.5);
    assertThat(m.storage().commitLogAppends()).isEqualTo(10);
    assertThat(m.storage().compactionBytesWritten()).isEqualTo(700);
  }

  @Test
  void flashWearReadsExternalTotalsUntilFedDirectly() {
    m.flashWear().readFrom(() -> 1_000, () -> 4_000);
    assertThat(m.flashWear().ratio()).isEqualTo(4.0);
    m.storage().commitLogAppended(100);
    assertThat(m.flashWear().ratio()).isEqualTo(1.0);
  }

  @Test
  void slowStorageWorkBecomesLatencyEventsAndFastWorkDoesNot() {
    m.storage().commitLogSynced(3_000, "CommitLog-1.log");
    m.storage().commitLogSynced(450_000, "CommitLog-2.log");
    m.storage().memtableFlushed("ks.t", 99_000, 10);
    m.storage().compacted("ks.t", 1_200_000, 10, 10);
    m.storage().diskFullEnded(30_000_000, "/data");
    m.requests("cql").record("EXECUTE", 250_000);
    assertThat(monitor.latest()).extracting(LatencyMonitor.Latest::event)
        .containsExactly("commitlog-fsync", "compaction", "disk-full", "request-cql");
    assertThat(monitor.history("commitlog-fsync")).singleElement()
        .extracting(LatencyMonitor.Sample::context).isEqualTo("CommitLog-2.log");
    assertThat(m.storage().fsyncCount()).isEqualTo(2);
    assertThat(m.storage().fsyncLatency().snapshot().sumMicros()).isEqualTo(453_000);
    m.storage().commitLogBacklog(4096);
    assertThat(m.storage().backlogBytes()).isEqualTo(4096);
  }
}
