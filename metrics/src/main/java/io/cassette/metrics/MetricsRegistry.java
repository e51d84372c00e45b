package io.cassette.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The node's metrics by name: counters, gauges and latency summaries, each a family with
 * optional labels, plus collectors read at scrape time. Registration is idempotent: asking for
 * an existing name with the same type and labels returns the existing family, so two callers
 * can share one (both front doors register {@code cassette_request_latency_seconds}).
 * Thread-safe. Families are written in name order.
 *
 * <p>Names follow Prometheus: {@code [a-zA-Z_:][a-zA-Z0-9_:]*}; counters end in {@code _total};
 * durations are exposed in seconds and bytes in bytes, whatever unit the code records in.
 */
public final class MetricsRegistry {
  static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  /** Quantiles every summary exposes, with their label text. */
  static final double[] QUANTILES = {0.5, 0.95, 0.99, 0.999};
  private static final String[] QUANTILE_LABELS = {"0.5", "0.95", "0.99", "0.999"};
  private static final double MICROS_PER_SECOND = 1_000_000.0;

  private final Map<String, MetricFamily<?>> families = new ConcurrentSkipListMap<>();
  private final Map<String, Collector> collectors = new ConcurrentSkipListMap<>();

  public MetricFamily<Counter> counterFamily(String name, String help, String... labelNames) {
    return family(name, MetricType.COUNTER, help, labelNames, Counter::new);
  }

  public MetricFamily<Gauge> gaugeFamily(String name, String help, String... labelNames) {
    return family(name, MetricType.GAUGE, help, labelNames, Gauge::new);
  }

  /** A family of latency summaries; record microseconds, exposed in seconds. */
  public MetricFamily<LatencyHistogram> latencyFamily(String name, String help, String... labelNames) {
    return family(name, MetricType.SUMMARY, help, labelNames, LatencyHistogram::new);
  }

  public Counter counter(String name, String help) {
    return counterFamily(name, help).labels();
  }

  public Gauge gauge(String name, String help) {
    return gaugeFamily(name, help).labels();
  }

  public LatencyHistogram latency(String name, String help) {
    return latencyFamily(name, help).labels();
  }

  /** A gauge read from {@code supplier} whenever it is scraped. */
  public Gauge gauge(String name, String help, DoubleSupplier supplier) {
    return family(name, MetricType.GAUGE, help, new String[0], () -> new Gauge(supplier)).labels();
  }

  /** Adds a collector under {@code key}, replacing the one registered under it before. */
  public void setCollector(String key, Collector collector) {
    collectors.put(key, collector);
  }

  /** The family registered under {@code name}, or null. */
  public MetricFamily<?> find(String name) {
    return families.get(name);
  }

  /** Writes every family, then every collector's. */
  public void writeTo(MetricsWriter out) {
    for (MetricFamily<?> f : families.values()) {
      write(f, out);
    }
    for (Collector c : collectors.values()) {
      c.collect(out);
    }
  }

  private static void write(MetricFamily<?> f, MetricsWriter out) {
    out.family(f.name(), f.type(), f.help());
    List<String> names = f.labelNames();
    for (Map.Entry<List<String>, ?> e : f.children().entrySet()) {
      List<String> values = e.getKey();
      Object child = e.getValue();
      if (child instanceof Counter c) {
        out.sample(f.name(), names, values, c.value());
      } else if (child instanceof Gauge g) {
        out.sample(f.name(), names, values, g.value());
      } else {
        LatencySnapshot s = ((LatencyHistogram) child).snapshot();
        List<String> qNames = with(names, "quantile");
        Percentiles r = s.recent();
        long[] q = {r.p50(), r.p95(), r.p99(), r.p999()};
        for (int i = 0; i < QUANTILES.length; i++) {
          out.sample(f.name(), qNames, with(values, QUANTILE_LABELS[i]),
              r.count() == 0 ? Double.NaN : q[i] / MICROS_PER_SECOND);
        }
        out.sample(f.name() + "_sum", names, values, s.sumMicros() / MICROS_PER_SECOND);
        out.sample(f.name() + "_count", names, values, s.count());
      }
    }
  }

  private static List<String> with(List<String> list, String last) {
    List<String> out = new ArrayList<>(list.size() + 1);
    out.addAll(list);
    out.add(last);
    return out;
  }

  private <T> MetricFamily<T> family(String name, MetricType type, String help, String[] labelNames,
                                     Supplier<T> factory) {
    if (!METRIC_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("metric name: '" + name + "' (expected: [a-zA-Z_:][a-zA-Z0-9_:]*)");
    }
    if (type == MetricType.COUNTER && !name.endsWith("_total")) {
      throw new IllegalArgumentException("counter name: '" + name + "' (expected: ending in _total)");
    }
    for (String l : labelNames) {
      if (!LABEL_NAME.matcher(l).matches() || l.startsWith("__") || l.equals("quantile")) {
        throw new IllegalArgumentException(name + ": label name: '" + l
            + "' (expected: [a-zA-Z_][a-zA-Z0-9_]*, not reserved)");
      }
    }
    MetricFamily<?> f = families.computeIfAbsent(name,
        n -> new MetricFamily<>(n, type, help, List.of(labelNames), factory));
    if (f.type() != type || !f.labelNames().equals(List.of(labelNames))) {
      throw new IllegalArgumentException("metric " + name + " is already registered as " + f.type()
          + " with labels " + f.labelNames() + "; asked for " + type + " with " + List.of(labelNames));
    }
    @SuppressWarnings("unchecked")
    MetricFamily<T> typed = (MetricFamily<T>) f;
    return typed;
  }
}
