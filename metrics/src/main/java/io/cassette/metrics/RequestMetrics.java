package io.cassette.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The instruments of one front door ({@code cql} or {@code resp}): latency per request type,
 * errors per type, open connections. A request at or above the latency threshold is also a
 * {@code request-<door>} event for the {@link LatencyMonitor}.
 *
 * <p>{@link #record} and {@link #error} look the type up in a map keyed by the string the door
 * passes: pass constant strings (the opcode's or command's name) and nothing is allocated.
 * At most {@link #MAX_TYPES} types are kept; later ones count under {@link #OTHER}. Thread-safe.
 */
public final class RequestMetrics {
  /** A bound on request types, so that a client inventing command names cannot grow the heap. */
  public static final int MAX_TYPES = 200;
  /** The type under which requests past {@link #MAX_TYPES} are counted. */
  public static final String OTHER = "other";

  private final String door;
  private final String event;
  private final LatencyMonitor monitor;
  private final MetricFamily<LatencyHistogram> latencies;
  private final MetricFamily<Counter> errors;
  private final Map<String, LatencyHistogram> latencyByType = new ConcurrentHashMap<>();
  private final Map<String, Counter> errorsByType = new ConcurrentHashMap<>();
  private final LatencyHistogram all;
  private final Gauge connections;
  private final Counter connectionsOpened;

  RequestMetrics(String door, MetricsRegistry registry, LatencyMonitor monitor) {
    this.door = door;
    this.event = LatencyEvents.request(door);
    this.monitor = monitor;
    latencies = registry.latencyFamily("cassette_request_latency_seconds",
        "Request latency by front door and request type, from decoded to answered", "door", "type");
    errors = registry.counterFamily("cassette_request_errors_total",
        "Requests answered with an error, by front door and request type", "door", "type");
    all = registry.latencyFamily("cassette_door_latency_seconds",
        "Request latency of all types together, by front door", "door").labels(door);
    connections = registry.gaugeFamily("cassette_connections", "Open client connections by front door",
        "door").labels(door);
    connectionsOpened = registry.counterFamily("cassette_connections_opened_total",
        "Client connections accepted since start, by front door", "door").labels(door);
  }

  public String door() {
    return door;
  }

  /** One request of {@code type} took {@code micros}, from decoded to answered. */
  public void record(String type, long micros) {
    LatencyHistogram h = latencyByType.get(type);
    if (h == null) {
      h = latencyByType.computeIfAbsent(bounded(type, latencyByType.size()), t -> {
        LatencyHistogram byType = latencies.labels(door, t);
        all.addPart(byType);
        return byType;
      });
    }
    h.record(micros); // once: the door's histogram is the sum of its types' (read time)
    monitor.record(event, micros, type);
  }

  /** One request of {@code type} was answered with an error (record its latency as well). */
  public void error(String type) {
    Counter c = errorsByType.get(type);
    if (c == null) {
      c = errorsByType.computeIfAbsent(bounded(type, errorsByType.size()), t -> errors.labels(door, t));
    }
    c.inc();
  }

  public void connectionOpened() {
    connections.add(1);
    connectionsOpened.inc();
  }

  public void connectionClosed() {
    connections.add(-1);
  }

  public long openConnections() {
    return (long) connections.value();
  }

  /** Latency of every request of this door, whatever its type. */
  public LatencyHistogram latency() {
    return all;
  }

  /** Errors of all types together. */
  public long errors() {
    long n = 0;
    for (Counter c : errorsByType.values()) {
      n += c.value();
    }
    return n;
  }

  /** Latency per type seen so far (a live view). */
  public Map<String, LatencyHistogram> latencyByType() {
    return java.util.Collections.unmodifiableMap(latencyByType);
  }

  /** Errors per type seen so far (a live view). */
  public Map<String, Counter> errorsByType() {
    return java.util.Collections.unmodifiableMap(errorsByType);
  }

  private static String bounded(String type, int size) {
    return size >= MAX_TYPES ? OTHER : type;
  }
}
