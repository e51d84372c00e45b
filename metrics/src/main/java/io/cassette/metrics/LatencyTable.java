package io.cassette.metrics;

import java.time.Instant;
import java.util.List;

/**
 * The latency monitor as aligned text, for {@code nodetool latency} and logs: one line per event
 * ({@link #latest}) or per sample of one event ({@link #history}).
 */
public final class LatencyTable {
  private LatencyTable() {}

  /** Columns: event, time of the latest spike (UTC), its duration, the all-time worst, spike count. */
  public static String latest(LatencyMonitor monitor) {
    List<LatencyMonitor.Latest> rows = monitor.latest();
    if (rows.isEmpty()) {
      return monitor.enabled() ? "No latency events above " + monitor.thresholdMillis() + "ms.\n"
          : "Latency monitoring is disabled (latency_monitor_threshold: 0).\n";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%-18s %-20s %12s %12s %8s  %s%n", "Event", "Latest (UTC)", "Latest (ms)",
        "Max (ms)", "Spikes", "Worst in"));
    for (LatencyMonitor.Latest l : rows) {
      sb.append(String.format("%-18s %-20s %12d %12d %8d  %s%n", l.event(),
          Instant.ofEpochSecond(l.epochSecond()).toString(), l.latestMillis(), l.maxMillis(), l.events(),
          l.maxContext() == null ? "" : l.maxContext()));
    }
    return sb.toString();
  }

  /** Columns: time (UTC), duration, context; oldest first. */
  public static String history(LatencyMonitor monitor, String event) {
    List<LatencyMonitor.Sample> samples = monitor.history(event);
    if (samples.isEmpty()) {
      return "No samples for " + event + ".\n";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%-20s %12s  %s%n", "Time (UTC)", "Latency (ms)", "Context"));
    for (LatencyMonitor.Sample s : samples) {
      sb.append(String.format("%-20s %12d  %s%n", Instant.ofEpochSecond(s.epochSecond()).toString(),
          s.millis(), s.context() == null ? "" : s.context()));
    }
    return sb.toString();
  }
}
