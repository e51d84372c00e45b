package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PrometheusTextWriterTest {
  /** A node's registry after known operations, with the awkward cases: escapes, NaN, a collector. */
  private static NodeMetrics sampleNode() {
    NodeMetrics m = new NodeMetrics(new LatencyMonitor(10, System::currentTimeMillis));
    m.startJvmMetrics();
    for (int i = 1; i <= 100; i++) {
      m.requests("cql").record("QUERY", i * 10);
    }
    m.requests("cql").error("QUERY");
    m.requests("resp").record("SET", 40);
    m.storage().commitLogAppended(1000);
    m.storage().commitLogSynced(2_500, "CommitLog-1.log");
    m.storage().memtableFlushed("ks.t", 30_000, 1500);
    m.registry().gaugeFamily("cassette_test_label_escapes", "help with \\ backslash\nand newline", "v")
        .labels("quote \" backslash \\ newline \n end").set(1);
    m.registry().setCollector("tables", out -> {
      out.family("cassette_table_reads_total", MetricType.COUNTER, "reads per table");
      out.sample("cassette_table_reads_total", List.of("keyspace", "table"), List.of("ks", "t"), 42);
    });
    return m;
  }

  @Test
  void theWholeRegistryParsesStrictlyAndHoldsTheRecordedValues() {
    NodeMetrics m = sampleNode();
    String text = PrometheusTextWriter.render(m.registry());
    Map<String, Double> s = PrometheusTextParser.parse(text);
    assertThat(s.get("cassette_request_latency_seconds_count{door=cql, type=QUERY}")).isEqualTo(100.0);
    assertThat(s.get("cassette_request_latency_seconds_sum{door=cql, type=QUERY}")).isEqualTo(0.0505);
    assertThat(s.get("cassette_request_errors_total{door=cql, type=QUERY}")).isEqualTo(1.0);
    assertThat(s.get("cassette_commitlog_appends_total{}")).isEqualTo(1.0);
    assertThat(s.get("cassette_commitlog_fsync_seconds_count{}")).isEqualTo(1.0);
    assertThat(s.get("cassette_user_bytes_written_total{}")).isEqualTo(1000.0);
    assertThat(s.get("cassette_disk_bytes_written_total{source=flush}")).isEqualTo(1500.0);
    assertThat(s.get("cassette_flash_wear_ratio{}")).isEqualTo(2.5);
    assertThat(s.get("cassette_table_reads_total{keyspace=ks, table=t}")).isEqualTo(42.0);
    assertThat(s.get("cassette_test_label_escapes{v=quote \" backslash \\ newline \n end}")).isEqualTo(1.0);
    assertThat(s.get("cassette_jvm_heap_used_bytes{}")).isPositive();
    assertThat(s.get("cassette_jvm_threads{}")).isGreaterThanOrEqualTo(1.0);
    // No window has completed yet: the summary's quantiles are NaN, as Prometheus expects.
    assertThat(s.get("cassette_request_latency_seconds{door=cql, quantile=0.99, type=QUERY}")).isNaN();
    assertThat(text).contains("# TYPE cassette_request_latency_seconds summary\n");
  }

  @Test
  void promtoolAcceptsTheOutput() throws Exception {
    File promtool = new File("/usr/bin/promtool");
    assumeThat(promtool.canExecute()).as("promtool installed (Debian package prometheus)").isTrue();
    String text = PrometheusTextWriter.render(sampleNode().registry());
    Process p = new ProcessBuilder(promtool.getPath(), "check", "metrics").redirectErrorStream(true).start();
    p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(out).isEmpty();
    assertThat(p.exitValue()).isZero();
  }

  @Test
  void theParserRejectsWhatPrometheusRejects() {
    assertThatThrownBy(() -> PrometheusTextParser.parse("a 1\nb 2\na 3\n")).hasMessageContaining("split");
    assertThatThrownBy(() -> PrometheusTextParser.parse("a{x=\"\\t\"} 1\n")).hasMessageContaining("bad escape");
    assertThatThrownBy(() -> PrometheusTextParser.parse("a 1.0E\n")).hasMessageContaining("not a float");
    assertThatThrownBy(() -> PrometheusTextParser.parse("# TYPE a summary\na 1\n")).hasMessageContaining("quantile");
  }

  @Test
  void aFamilyWrittenTwiceOrASampleOutsideItsFamilyIsRefused() {
    PrometheusTextWriter w = new PrometheusTextWriter(new StringBuilder());
    w.family("cassette_x", MetricType.GAUGE, "x");
    assertThatThrownBy(() -> w.sample("cassette_y", List.of(), List.of(), 1)).hasMessageContaining("outside");
    assertThatThrownBy(() -> w.family("cassette_x", MetricType.GAUGE, "x")).hasMessageContaining("twice");
  }

  @Test
  void valuesAreWrittenAsPrometheusReadsThem() {
    StringBuilder sb = new StringBuilder();
    PrometheusTextWriter w = new PrometheusTextWriter(sb);
    w.family("cassette_v", MetricType.GAUGE, "v");
    w.sample("cassette_v", List.of("k"), List.of("int"), 3.0);
    w.sample("cassette_v", List.of("k"), List.of("frac"), 0.25);
    w.sample("cassette_v", List.of("k"), List.of("big"), 1e300);
    w.sample("cassette_v", List.of("k"), List.of("inf"), Double.POSITIVE_INFINITY);
    w.sample("cassette_v", List.of("k"), List.of("nan"), Double.NaN);
    assertThat(sb.toString()).contains("cassette_v{k=\"int\"} 3\n", "cassette_v{k=\"frac\"} 0.25\n",
        "cassette_v{k=\"big\"} 1.0E300\n", "cassette_v{k=\"inf\"} +Inf\n", "cassette_v{k=\"nan\"} NaN\n");
    assertThat(PrometheusTextParser.parse(sb.toString())).hasSize(5);
  }
}
