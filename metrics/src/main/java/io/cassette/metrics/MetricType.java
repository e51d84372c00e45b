package io.cassette.metrics;

/** The kinds of metric Cassette exposes, named as Prometheus's text format names them. */
public enum MetricType {
  /** Only goes up (until the node restarts); named {@code ..._total}. */
  COUNTER("counter"),
  /** Goes up and down: bytes in use, connections. */
  GAUGE("gauge"),
  /** Quantiles over a recent window plus a cumulative {@code _sum} and {@code _count}. */
  SUMMARY("summary");

  private final String prometheusName;

  MetricType(String prometheusName) {
    this.prometheusName = prometheusName;
  }

  /** The word after {@code # TYPE name}. */
  public String prometheusName() {
    return prometheusName;
  }
}
