package io.cassette.metrics;

import java.util.Map;

/**
 * Everything a node measures, in one place: the registry, the latency monitor and its doctor,
 * the two slow logs, the front doors' request metrics, storage's instruments and flash wear.
 *
 * <p>{@link #global()} is the node's instance, so any layer reaches its instruments without
 * having them passed down: storage calls {@code NodeMetrics.global().storage().commitLogSynced(...)},
 * a front door keeps {@code NodeMetrics.global().requests("cql")} in a field. Tests build their
 * own instance. Thread-safe.
 */
public final class NodeMetrics {
  /** CQL statements are kept whole up to this many bytes in the slow log (Redis keeps 128 per argument). */
  public static final int CQL_SLOWLOG_MAX_STATEMENT_BYTES = 1024;

  private static final NodeMetrics GLOBAL = new NodeMetrics(new LatencyMonitor());

  private final MetricsRegistry registry = new MetricsRegistry();
  private final LatencyMonitor monitor;
  private final FlashWear flashWear;
  private final StorageIoMetrics storage;
  private final RequestMetrics cql;
  private final RequestMetrics resp;
  private final SlowLog cqlSlowLog = new SlowLog(CQL_SLOWLOG_MAX_STATEMENT_BYTES, System::currentTimeMillis);
  private final SlowLog respSlowLog = new SlowLog();
  private volatile Map<String, String> settings = Map.of();
  private final LatencyDoctor doctor;
  private JvmMetrics jvm; // guarded by this

  public NodeMetrics(LatencyMonitor monitor) {
    this.monitor = monitor;
    flashWear = new FlashWear(registry);
    storage = new StorageIoMetrics(registry, monitor, flashWear);
    cql = new RequestMetrics("cql", registry, monitor);
    resp = new RequestMetrics("resp", registry, monitor);
    doctor = new LatencyDoctor(monitor, () -> settings);
    registry.gauge("cassette_latency_monitor_threshold_seconds",
        "latency_monitor_threshold: events at least this long are recorded (0: disabled)",
        () -> monitor.thresholdMillis() / 1000.0);
  }

  /** The running node's metrics. */
  public static NodeMetrics global() {
    return GLOBAL;
  }

  public MetricsRegistry registry() {
    return registry;
  }

  public LatencyMonitor latencyMonitor() {
    return monitor;
  }

  public LatencyDoctor latencyDoctor() {
    return doctor;
  }

  public FlashWear flashWear() {
    return flashWear;
  }

  public StorageIoMetrics storage() {
    return storage;
  }

  /** {@code "cql"} or {@code "resp"}. */
  public RequestMetrics requests(String door) {
    return switch (door) {
      case "cql" -> cql;
      case "resp" -> resp;
      default -> throw new IllegalArgumentException("front door: '" + door + "' (expected: cql or resp)");
    };
  }

  public SlowLog cqlSlowLog() {
    return cqlSlowLog;
  }

  public SlowLog respSlowLog() {
    return respSlowLog;
  }

  /**
   * The settings the doctor quotes in its advice, as the operator writes them
   * ({@code commitlog_sync -> periodic}, {@code compaction_throughput -> 64MiB/s}, ...).
   */
  public void describeSettings(Map<String, String> settings) {
    this.settings = Map.copyOf(settings);
  }

  /** Starts the JVM's gauges and GC-pause events; later calls return the same instance. */
  public synchronized JvmMetrics startJvmMetrics() {
    if (jvm == null) {
      jvm = new JvmMetrics(registry, monitor);
    }
    return jvm;
  }
}
