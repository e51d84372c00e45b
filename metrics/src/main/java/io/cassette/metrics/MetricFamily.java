package io.cassette.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One named metric and its children, one per combination of label values (e.g.
 * {@code cassette_request_latency_seconds{door="cql",type="QUERY"}}). Thread-safe.
 *
 * <p>{@link #labels} builds a key, so callers on a hot path look a child up once and keep it.
 *
 * @param <T> {@link Counter}, {@link Gauge} or {@link LatencyHistogram}
 */
public final class MetricFamily<T> {
  /** Children past this are refused: an unbounded label (a client-chosen name) must not eat the heap. */
  public static final int MAX_CHILDREN = 1024;

  private final String name;
  private final MetricType type;
  private final String help;
  private final List<String> labelNames;
  private final Supplier<T> factory;
  private final Map<List<String>, T> children = new ConcurrentHashMap<>();

  MetricFamily(String name, MetricType type, String help, List<String> labelNames, Supplier<T> factory) {
    this.name = name;
    this.type = type;
    this.help = help;
    this.labelNames = List.copyOf(labelNames);
    this.factory = factory;
  }

  /**
   * The child for these label values, created on first use.
   *
   * @throws IllegalArgumentException when the number of values differs from the label names, or
   *     when {@link #MAX_CHILDREN} children exist already
   */
  public T labels(String... values) {
    if (values.length != labelNames.size()) {
      throw new IllegalArgumentException(name + ": " + values.length + " label values for labels "
          + labelNames);
    }
    List<String> key = List.of(values);
    T child = children.get(key);
    if (child != null) {
      return child;
    }
    if (children.size() >= MAX_CHILDREN) {
      throw new IllegalArgumentException(name + ": children: " + children.size() + " (expected: <= "
          + MAX_CHILDREN + ")");
    }
    return children.computeIfAbsent(key, k -> factory.get());
  }

  public String name() {
    return name;
  }

  public MetricType type() {
    return type;
  }

  public String help() {
    return help;
  }

  public List<String> labelNames() {
    return labelNames;
  }

  /** A live view of the children, keyed by label values. */
  public Map<List<String>, T> children() {
    return java.util.Collections.unmodifiableMap(children);
  }
}
