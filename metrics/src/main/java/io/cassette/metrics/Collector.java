package io.cassette.metrics;

/**
 * Metrics that something else already keeps and that are read only when scraped (per-table
 * storage statistics, for example). Called on the scraping thread; must be quick and must not
 * write a family name that the registry itself holds.
 */
@FunctionalInterface
public interface Collector {
  void collect(MetricsWriter out);
}
