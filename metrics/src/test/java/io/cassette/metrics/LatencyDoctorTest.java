package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LatencyDoctorTest {
  private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
  private final LatencyMonitor monitor = new LatencyMonitor(100, clock::get);
  private Map<String, String> settings = Map.of("commitlog_sync", "batch", "commitlog_sync_period", "10000ms",
      "commitlog_directory", "/mnt/sd/commitlog", "compaction_throughput", "64MiB/s",
      "memtable_heap_space", "16MiB");
  private final LatencyDoctor doctor = new LatencyDoctor(monitor, () -> settings);

  /** Six fsync stalls ten seconds apart, 400 to 900 ms, as an SD card erasing blocks gives. */
  private void fsyncStalls() {
    for (int i = 0; i < 6; i++) {
      monitor.record(LatencyEvents.COMMITLOG_FSYNC, (400 + i * 100) * 1000L, "CommitLog-3-" + i + ".log");
      clock.addAndGet(10_000);
    }
  }

  @Test
  void slowFsyncsMakeTheDoctorNameTheCommitLogAndTheSetting() {
    fsyncStalls();
    String report = doctor.report();
    System.out.println(report);
    assertThat(report).contains(
        "1. commitlog-fsync: 6 latency spikes (average 650ms, mean deviation 150ms, period 10.00 sec)."
            + " Worst all time event 900ms (CommitLog-3-5.log).",
        "commitlog_sync is batch, so every write waits for these fsyncs",
        "set commitlog_sync: periodic",
        "commitlog_sync_period (now 10000ms)",
        "commitlog_directory (now /mnt/sd/commitlog)");
    LatencyDoctor.EventStats s = doctor.analyze().get(0);
    assertThat(s.samples()).isEqualTo(6);
    assertThat(s.minMicros()).isEqualTo(400_000);
    assertThat(s.maxMicros()).isEqualTo(900_000);
  }

  @Test
  void inPeriodicModeTheAdviceIsAboutThePeriodNotTheMode() {
    settings = Map.of("commitlog_sync", "periodic", "commitlog_sync_period", "10000ms");
    fsyncStalls();
    String report = doctor.report();
    assertThat(report).contains("With commitlog_sync: periodic requests do not wait for fsync",
        "Lower commitlog_sync_period (now 10000ms)");
    assertThat(report).doesNotContain("set commitlog_sync: periodic");
  }

  @Test
  void slowRequestsDuringFsyncStallsArePinnedOnTheStalls() {
    fsyncStalls();
    clock.set(1_700_000_000_000L + 20_000);
    monitor.record(LatencyEvents.REQUEST_RESP, 600_000, "SET");
    String report = doctor.report();
    assertThat(report).contains("request-resp: 1 Redis commands took at least the threshold, the worst 600ms (SET)",
        "SLOWLOG GET", "Slow requests came in the same seconds as 1 commitlog-fsync spikes: fix those first");
  }

  @Test
  void everyKnownEventGetsItsSetting() {
    monitor.record(LatencyEvents.COMPACTION, 2_000_000, "ks.events");
    monitor.record(LatencyEvents.GC_PAUSE, 300_000, "G1 Old Generation (Allocation Failure)");
    monitor.record(LatencyEvents.MEMTABLE_FLUSH, 500_000, "ks.events");
    monitor.record(LatencyEvents.DISK_FULL, 5_000_000, "/var/lib/cassette");
    monitor.record("something-new", 150_000, null);
    String report = doctor.report();
    assertThat(report).contains("Lower compaction_throughput (now 64MiB/s)", "--heap",
        "memtable_heap_space (now 16MiB)", "disk-full: writes were refused", "data_file_directories",
        "something-new: up to 150ms", "no specific advice");
    settings = Map.of("compaction_throughput", "0MiB/s");
    assertThat(doctor.report()).contains("compaction_throughput is 0MiB/s, which means unthrottled");
  }

  @Test
  void withoutSpikesOrWhenDisabledTheDoctorSaysSo() {
    assertThat(doctor.report()).startsWith("No latency spike was observed").contains("threshold 100ms");
    monitor.setThresholdMillis(0);
    assertThat(doctor.report()).startsWith("Latency monitoring is disabled").contains("latency_monitor_threshold");
  }
}
