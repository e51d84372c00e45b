package io.cassette.coordinator.ring.hints;

import io.cassette.metrics.Counter;
import io.cassette.metrics.MetricFamily;
import io.cassette.metrics.MetricsRegistry;

/**
 * Hinted handoff's counters under {@code cassette_hints_*} (Cassandra: TotalHints,
 * HintsSucceeded, HintsFailed): stored, replayed (acknowledged by the node), dropped by reason
 * (disabled, window, full, removed_node, truncated; on delivery: expired past gc_grace_seconds,
 * unknown_table at the node) and failed delivery attempts. Thread-safe.
 */
public final class HintsMetrics {
  final Counter stored;
  final Counter replayed;
  final Counter replayFailures;
  private final MetricFamily<Counter> dropped;

  /** @param registry where the counters live; null for a private registry (tests) */
  public HintsMetrics(MetricsRegistry registry) {
    MetricsRegistry r = registry == null ? new MetricsRegistry() : registry;
    stored = r.counter("cassette_hints_stored_total", "Hints written to disk for a replica that could not take a write");
    replayed = r.counter("cassette_hints_replayed_total", "Hints delivered to their node and acknowledged");
    replayFailures = r.counter("cassette_hints_replay_failures_total",
        "Hint deliveries stopped by a timeout or failure (the hints are kept)");
    dropped = r.counterFamily("cassette_hints_dropped_total", "Hints not stored or deleted undelivered", "reason");
  }

  void dropped(String reason, long count) {
    dropped.labels(reason).add(count);
  }

  public long stored() {
    return stored.value();
  }

  public long replayed() {
    return replayed.value();
  }

  public long dropped(String reason) {
    return dropped.labels(reason).value();
  }
}
