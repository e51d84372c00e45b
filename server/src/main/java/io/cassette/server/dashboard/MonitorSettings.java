package io.cassette.server.dashboard;

import io.cassette.metrics.NodeMetrics;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Carries the configuration into the metrics: the latency monitor's threshold and the slow logs'
 * limits when cassette.yaml sets them, and the settings the latency doctor quotes in its advice,
 * written as an operator writes them in cassette.yaml.
 */
final class MonitorSettings {
  /** A duration; 0ms disables the latency monitor (Redis's latency-monitor-threshold). */
  static final String LATENCY_MONITOR_THRESHOLD = ConfigKeys.LATENCY_MONITOR_THRESHOLD;
  /** Microseconds; negative disables, 0 logs everything (Redis's slowlog-log-slower-than). */
  static final String SLOWLOG_LOG_SLOWER_THAN = ConfigKeys.SLOWLOG_LOG_SLOWER_THAN;
  /** Entries kept per front door (Redis's slowlog-max-len). */
  static final String SLOWLOG_MAX_LEN = ConfigKeys.SLOWLOG_MAX_LEN;

  private MonitorSettings() {}

  static void apply(Config config, NodeMetrics metrics) {
    if (config.isSet(LATENCY_MONITOR_THRESHOLD)) {
      metrics.latencyMonitor().setThresholdMillis(number(config, LATENCY_MONITOR_THRESHOLD, 1_000_000));
    }
    if (config.isSet(SLOWLOG_LOG_SLOWER_THAN)) {
      long micros = number(config, SLOWLOG_LOG_SLOWER_THAN, 1000);
      metrics.cqlSlowLog().setSlowerThanMicros(micros);
      metrics.respSlowLog().setSlowerThanMicros(micros);
    }
    if (config.isSet(SLOWLOG_MAX_LEN)) {
      int len = (int) number(config, SLOWLOG_MAX_LEN, 1);
      metrics.cqlSlowLog().setMaxLen(len);
      metrics.respSlowLog().setMaxLen(len);
    }
    metrics.describeSettings(describe(config));
  }

  /** The settings the doctor quotes, keyed by their cassette.yaml names. */
  static Map<String, String> describe(Config config) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(ConfigKeys.COMMITLOG_SYNC, config.string(ConfigKeys.COMMITLOG_SYNC));
    s.put(ConfigKeys.COMMITLOG_SYNC_PERIOD, config.duration(ConfigKeys.COMMITLOG_SYNC_PERIOD).toMillis() + "ms");
    s.put(ConfigKeys.COMMITLOG_DIRECTORY, config.commitLogDirectory().toString());
    s.put(ConfigKeys.DATA_FILE_DIRECTORIES, config.dataFileDirectory().toString());
    s.put(ConfigKeys.COMPACTION_THROUGHPUT, rate(config.bytes(ConfigKeys.COMPACTION_THROUGHPUT)));
    s.put(ConfigKeys.MEMTABLE_HEAP_SPACE, config.isSet(ConfigKeys.MEMTABLE_HEAP_SPACE)
        ? size(config.bytes(ConfigKeys.MEMTABLE_HEAP_SPACE)) : "derived from the heap");
    s.put("heap", size(Runtime.getRuntime().maxMemory()));
    return s;
  }

  /** A whole number from an INT key, or from a DURATION key in {@code unitNanos} units. */
  private static long number(Config config, String key, long unitNanos) {
    try {
      return config.integer(key);
    } catch (ClassCastException notAnInt) {
      Duration d = config.duration(key);
      return d.toNanos() / unitNanos;
    }
  }

  static String rate(long bytesPerSecond) {
    return size(bytesPerSecond) + "/s";
  }

  static String size(long bytes) {
    if (bytes != 0 && bytes % (1L << 30) == 0) {
      return (bytes >> 30) + "GiB";
    }
    if (bytes % (1L << 20) == 0) {
      return (bytes >> 20) + "MiB";
    }
    if (bytes % (1L << 10) == 0) {
      return (bytes >> 10) + "KiB";
    }
    return bytes + "B";
  }
}
