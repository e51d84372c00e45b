package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JvmMetricsTest {
  @Test
  void aRealCollectionIsCountedAsAPause() throws Exception {
    NodeMetrics m = new NodeMetrics(new LatencyMonitor(100, System::currentTimeMillis));
    try (JvmMetrics jvm = m.startJvmMetrics()) {
      long before = jvm.pauses().count();
      System.gc();
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (jvm.pauses().count() == before && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(jvm.pauses().count()).isGreaterThan(before);
      assertThat(m.startJvmMetrics()).isSameAs(jvm);
    }
  }

  @Test
  void longPausesBecomeEventsAndConcurrentCyclesAreNotPauses() {
    LatencyMonitor monitor = new LatencyMonitor(100, System::currentTimeMillis);
    NodeMetrics m = new NodeMetrics(monitor);
    try (JvmMetrics jvm = m.startJvmMetrics()) {
      long before = jvm.pauses().count();
      jvm.onCollection("G1 Old Generation", "end of major GC", "Allocation Failure", 350);
      jvm.onCollection("G1 Young Generation", "end of minor GC", "G1 Evacuation Pause", 5);
      jvm.onCollection("ZGC Cycles", "end of GC cycle", "Proactive", 5000);
      assertThat(jvm.pauses().count()).isEqualTo(before + 2);
      assertThat(monitor.latest()).singleElement().satisfies(l -> {
        assertThat(l.event()).isEqualTo("gc-pause");
        assertThat(l.maxMillis()).isEqualTo(350);
        assertThat(l.maxContext()).isEqualTo("G1 Old Generation (Allocation Failure)");
      });
    }
    assertThat(JvmMetrics.isPause("ZGC Pauses", "end of GC pause")).isTrue();
    assertThat(JvmMetrics.isPause("G1 Concurrent GC", "end of concurrent GC pause")).isFalse();
  }
}
