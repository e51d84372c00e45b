package io.cassette.metrics;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Renders metrics in the Prometheus text exposition format, version 0.0.4:
 *
 * <pre>
 * # HELP name help text, with \\ and \n escaped
 * # TYPE name counter|gauge|summary
 * name{label="value",...} 1234
 * </pre>
 *
 * Label values escape {@code \\}, {@code "} and newline; values are integers when exact, else
 * Java doubles (which Prometheus's float parser reads), or {@code NaN}, {@code +Inf}, {@code -Inf}.
 * Refuses a repeated family name or a sample outside its family, the two mistakes that make a
 * scrape fail. Not thread-safe: one writer per scrape.
 */
public final class PrometheusTextWriter implements MetricsWriter {
  /** The Content-Type a scrape answer carries. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  /** Doubles below this are written as integers when they are whole. */
  private static final double EXACT_LONG_LIMIT = 1L << 53;

  private final StringBuilder out;
  private final Set<String> seen = new HashSet<>();
  private String family;
  private MetricType familyType;

  public PrometheusTextWriter(StringBuilder out) {
    this.out = out;
  }

  /** The whole registry as one scrape answer. */
  public static String render(MetricsRegistry registry) {
    StringBuilder sb = new StringBuilder(16 << 10);
    registry.writeTo(new PrometheusTextWriter(sb));
    return sb.toString();
  }

  @Override
  public void family(String name, MetricType type, String help) {
    if (!MetricsRegistry.METRIC_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("metric name: '" + name + "'");
    }
    if (!seen.add(name)) {
      throw new IllegalStateException("metric family written twice: " + name);
    }
    family = name;
    familyType = type;
    out.append("# HELP ").append(name).append(' ');
    escape(help, false);
    out.append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type.prometheusName()).append('\n');
  }

  @Override
  public void sample(String name, List<String> labelNames, List<String> labelValues, double value) {
    if (family == null || !(name.equals(family) || (familyType == MetricType.SUMMARY
        && (name.equals(family + "_sum") || name.equals(family + "_count"))))) {
      throw new IllegalStateException("sample " + name + " outside its family (current: " + family + ")");
    }
    if (labelNames.size() != labelValues.size()) {
      throw new IllegalArgumentException(name + ": labels " + labelNames + " but values " + labelValues);
    }
    out.append(name);
    if (!labelNames.isEmpty()) {
      out.append('{');
      for (int i = 0; i < labelNames.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labelNames.get(i)).append("=\"");
        escape(labelValues.get(i), true);
        out.append('"');
      }
      out.append('}');
    }
    out.append(' ');
    appendValue(value);
    out.append('\n');
  }

  private void appendValue(double v) {
    if (Double.isNaN(v)) {
      out.append("NaN");
    } else if (v == Double.POSITIVE_INFINITY) {
      out.append("+Inf");
    } else if (v == Double.NEGATIVE_INFINITY) {
      out.append("-Inf");
    } else if (v == Math.rint(v) && Math.abs(v) < EXACT_LONG_LIMIT) {
      out.append((long) v);
    } else {
      out.append(v);
    }
  }

  private void escape(String s, boolean quote) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '"' && quote) {
        out.append("\\\"");
      } else {
        out.append(c);
      }
    }
  }
}
