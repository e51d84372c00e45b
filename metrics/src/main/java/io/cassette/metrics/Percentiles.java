package io.cassette.metrics;

/**
 * Latency percentiles of one window, in microseconds. When {@code count} is 0 every value is 0.
 * HdrHistogram keeps two significant digits, so each value is within 1% of the true one.
 */
public record Percentiles(long count, long p50, long p95, long p99, long p999, long max, double mean) {
  public static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0, 0, 0);
}
