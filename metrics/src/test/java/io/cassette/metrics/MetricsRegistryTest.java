package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MetricsRegistryTest {
  private final MetricsRegistry registry = new MetricsRegistry();

  @Test
  void countersAndGaugesHoldWhatWasDone() {
    Counter c = registry.counter("cassette_things_total", "things");
    Gauge g = registry.gauge("cassette_open", "open");
    for (int i = 0; i < 5; i++) {
      c.inc();
    }
    c.add(10);
    g.add(3);
    g.add(-1);
    assertThat(c.value()).isEqualTo(15);
    assertThat(g.value()).isEqualTo(2.0);
    g.set(7.5);
    assertThat(g.value()).isEqualTo(7.5);
    assertThatThrownBy(() -> c.add(-1)).hasMessageContaining("-1 (expected: >= 0)");
  }

  @Test
  void countsFromManyThreadsAreExact() throws Exception {
    Counter c = registry.counter("cassette_hits_total", "hits");
    LatencyHistogram h = registry.latency("cassette_op_seconds", "op");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    for (int t = 0; t < 4; t++) {
      pool.submit(() -> {
        for (int i = 0; i < 25_000; i++) {
          c.inc();
          h.record(i % 1000);
        }
      });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
    assertThat(c.value()).isEqualTo(100_000);
    LatencySnapshot s = h.snapshot();
    assertThat(s.count()).isEqualTo(100_000);
    assertThat(s.allTime().count()).isEqualTo(100_000);
    assertThat(s.sumMicros()).isEqualTo(4L * 25 * (999 * 1000 / 2));
  }

  @Test
  void registeringAgainReturnsTheSameFamilyAndAConflictIsRefused() {
    MetricFamily<Counter> a = registry.counterFamily("cassette_req_total", "r", "door");
    MetricFamily<Counter> b = registry.counterFamily("cassette_req_total", "r", "door");
    assertThat(b).isSameAs(a);
    assertThat(a.labels("cql")).isSameAs(b.labels("cql"));
    assertThatThrownBy(() -> registry.gaugeFamily("cassette_req_total", "r", "door"))
        .hasMessageContaining("already registered as COUNTER");
    assertThatThrownBy(() -> registry.counterFamily("cassette_req_total", "r", "door", "type"))
        .hasMessageContaining("with labels [door]");
  }

  @Test
  void samplesAsRowsCarryLabelsAndValues() {
    registry.counterFamily("cassette_req_total", "r", "door").labels("cql").add(7);
    registry.gauge("cassette_open", "o").set(2);
    assertThat(MetricSample.all(registry)).containsExactly(
        new MetricSample("cassette_open", MetricType.GAUGE, java.util.Map.of(), 2),
        new MetricSample("cassette_req_total", MetricType.COUNTER, java.util.Map.of("door", "cql"), 7));
  }

  @Test
  void badNamesAreRefusedWithTheName() {
    assertThatThrownBy(() -> registry.gauge("9lives", "x")).hasMessageContaining("'9lives'");
    assertThatThrownBy(() -> registry.counter("cassette_things", "x")).hasMessageContaining("ending in _total");
    assertThatThrownBy(() -> registry.gaugeFamily("cassette_g", "x", "__reserved"))
        .hasMessageContaining("'__reserved'");
    assertThatThrownBy(() -> registry.gaugeFamily("cassette_h", "x", "quantile"))
        .hasMessageContaining("'quantile'");
    assertThatThrownBy(() -> registry.gaugeFamily("cassette_i", "x", "a").labels("1", "2"))
        .hasMessageContaining("2 label values for labels [a]");
  }

  @Test
  void aFamilyRefusesUnboundedChildren() {
    MetricFamily<Counter> f = registry.counterFamily("cassette_by_key_total", "k", "key");
    for (int i = 0; i < MetricFamily.MAX_CHILDREN; i++) {
      f.labels("k" + i);
    }
    assertThat(f.labels("k0")).isNotNull();
    assertThatThrownBy(() -> f.labels("one-more")).hasMessageContaining("(expected: <= 1024)");
  }

  @Test
  void requestMetricsShareOneFamilyAcrossDoorsAndCapTypes() {
    NodeMetrics m = new NodeMetrics(new LatencyMonitor(0, System::currentTimeMillis));
    m.requests("cql").record("QUERY", 100);
    m.requests("cql").record("QUERY", 300);
    m.requests("resp").record("GET", 50);
    m.requests("resp").error("GET");
    m.requests("resp").connectionOpened();
    m.requests("resp").connectionOpened();
    m.requests("resp").connectionClosed();
    MetricFamily<?> f = m.registry().find("cassette_request_latency_seconds");
    assertThat(f.children().keySet()).containsExactlyInAnyOrder(List.of("cql", "QUERY"), List.of("resp", "GET"));
    assertThat(m.requests("cql").latencyByType().get("QUERY").snapshot().sumMicros()).isEqualTo(400);
    assertThat(m.requests("resp").errorsByType().get("GET").value()).isEqualTo(1);
    assertThat(m.requests("resp").openConnections()).isEqualTo(1);
    for (int i = 0; i < RequestMetrics.MAX_TYPES + 10; i++) {
      m.requests("resp").record("CMD" + i, 1);
    }
    assertThat(m.requests("resp").latencyByType()).hasSize(RequestMetrics.MAX_TYPES + 1);
    assertThat(m.requests("resp").latencyByType().get(RequestMetrics.OTHER).count()).isEqualTo(11);
    // The door's latency of all types: every request once, read from the door or from the registry.
    m.requests("cql").record("EXECUTE", 600);
    LatencySnapshot door = m.requests("cql").latency().snapshot();
    assertThat(door.count()).isEqualTo(3);
    assertThat(door.sumMicros()).isEqualTo(1_000);
    assertThat(door.allTime().max()).isEqualTo(600);
    assertThat(m.requests("resp").latency().count()).isEqualTo(1 + RequestMetrics.MAX_TYPES + 10);
    assertThat(((LatencyHistogram) m.registry().find("cassette_door_latency_seconds").children().get(List.of("resp")))
        .snapshot().sumMicros()).isEqualTo(50 + RequestMetrics.MAX_TYPES + 10);
  }
}
