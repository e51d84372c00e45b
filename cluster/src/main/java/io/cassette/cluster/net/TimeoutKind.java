package io.cassette.cluster.net;

/**
 * Which configured expiry a verb's requests get, under the key Cassandra's cassandra.yaml uses
 * for the same meaning. A request whose response has not arrived by then completes its future
 * with {@link RequestTimeoutException}; a receiver drops a request that waited longer than this
 * in its queue (nobody is waiting for the answer any more).
 */
public enum TimeoutKind {
  WRITE("write_request_timeout", 2_000),
  READ("read_request_timeout", 5_000),
  RANGE("range_request_timeout", 10_000),
  COUNTER_WRITE("counter_write_request_timeout", 5_000),
  CAS("cas_contention_timeout", 1_800),
  TRUNCATE("truncate_request_timeout", 60_000),
  /** Everything else (repair, metadata, pings): Cassandra's catch-all. */
  REQUEST("request_timeout", 10_000);

  private final String configKey;
  private final long defaultMillis;

  TimeoutKind(String configKey, long defaultMillis) {
    this.configKey = configKey;
    this.defaultMillis = defaultMillis;
  }

  /** The cassandra.yaml / cassette.yaml key, e.g. {@code write_request_timeout}. */
  public String configKey() {
    return configKey;
  }

  public long defaultMillis() {
    return defaultMillis;
  }

  /** The kind configured by {@code key}, or null when the key is not a timeout key. */
  public static TimeoutKind forConfigKey(String key) {
    for (TimeoutKind k : values()) {
      if (k.configKey.equals(key)) return k;
    }
    return null;
  }
}
