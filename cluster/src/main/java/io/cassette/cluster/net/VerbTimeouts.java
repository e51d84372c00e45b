package io.cassette.cluster.net;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * Per-kind request expiry in milliseconds (Cassandra's defaults unless set). Immutable; the
 * {@code with} methods return a copy, so a config can be built from yaml keys one at a time:
 * {@code VerbTimeouts.defaults().with("read_request_timeout", Duration.ofSeconds(3))}.
 */
public final class VerbTimeouts {
  private final EnumMap<TimeoutKind, Long> millis;

  private VerbTimeouts(EnumMap<TimeoutKind, Long> millis) {
    this.millis = millis;
  }

  public static VerbTimeouts defaults() {
    EnumMap<TimeoutKind, Long> m = new EnumMap<>(TimeoutKind.class);
    for (TimeoutKind k : TimeoutKind.values()) m.put(k, k.defaultMillis());
    return new VerbTimeouts(m);
  }

  public VerbTimeouts with(TimeoutKind kind, Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(kind.configKey() + ": " + timeout + " (expected: > 0)");
    }
    EnumMap<TimeoutKind, Long> m = new EnumMap<>(millis);
    m.put(kind, timeout.toMillis());
    return new VerbTimeouts(m);
  }

  /** By cassandra.yaml key; an unknown key is an error that names the known ones. */
  public VerbTimeouts with(String configKey, Duration timeout) {
    TimeoutKind kind = TimeoutKind.forConfigKey(configKey);
    if (kind == null) {
      StringBuilder known = new StringBuilder();
      for (TimeoutKind k : TimeoutKind.values()) known.append(known.length() == 0 ? "" : ", ").append(k.configKey());
      throw new IllegalArgumentException("unknown timeout key '" + configKey + "' (known: " + known + ")");
    }
    return with(kind, timeout);
  }

  public long millis(TimeoutKind kind) {
    return millis.get(kind);
  }

  public long millis(Verb verb) {
    return millis.get(verb.timeoutKind());
  }

  public Map<TimeoutKind, Long> asMap() {
    return Map.copyOf(millis);
  }

  @Override
  public String toString() {
    return millis.toString();
  }
}
