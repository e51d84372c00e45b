package io.cassette.metrics;

import java.util.List;

/**
 * Where a registry or a {@link Collector} writes its metrics at scrape time: one
 * {@link #family} call, then that family's samples, then the next family. Samples of one family
 * must not be split, and a family name must not repeat (the Prometheus text format forbids both).
 */
public interface MetricsWriter {
  /** Starts a family; {@code name} is the base name (a summary's samples add {@code _sum}, {@code _count}). */
  void family(String name, MetricType type, String help);

  /**
   * One sample of the current family.
   *
   * @param name        the family name, or for a summary the family name plus {@code _sum} or {@code _count}
   * @param labelNames  parallel to {@code labelValues}
   */
  void sample(String name, List<String> labelNames, List<String> labelValues, double value);
}
