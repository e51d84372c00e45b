package io.cassette.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One exposed value as a row, for places that show metrics as a table rather than as Prometheus
 * text (a CQL virtual table in {@code system_views}, a log line).
 *
 * @param name   the sample name, e.g. {@code cassette_request_latency_seconds_count}
 * @param type   the family's type
 * @param labels label names to values, in the family's order (may include {@code quantile})
 */
public record MetricSample(String name, MetricType type, Map<String, String> labels, double value) {

  /** Every sample the registry (and its collectors) would expose, in exposition order. */
  public static List<MetricSample> all(MetricsRegistry registry) {
    List<MetricSample> out = new ArrayList<>();
    registry.writeTo(new MetricsWriter() {
      private MetricType type;

      @Override
      public void family(String name, MetricType type, String help) {
        this.type = type;
      }

      @Override
      public void sample(String name, List<String> labelNames, List<String> labelValues, double value) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < labelNames.size(); i++) {
          labels.put(labelNames.get(i), labelValues.get(i));
        }
        out.add(new MetricSample(name, type, labels, value));
      }
    });
    return out;
  }
}
