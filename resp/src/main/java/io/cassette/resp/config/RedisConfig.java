package io.cassette.resp.config;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.util.Glob;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The settings CONFIG GET shows and CONFIG SET may change. Values we report but do not honour
 * (save, maxmemory...) keep Redis's defaults so tools that read them behave. Thread-safe
 * (synchronized): CONFIG runs on the command thread, INFO/options may read from others.
 */
public final class RedisConfig {
  /** Settings CONFIG SET accepts and the server honours (or that need no action). */
  private static final Set<String> SETTABLE = Set.of("appendfsync", "requirepass",
      "protected-mode", "slowlog-log-slower-than", "slowlog-max-len",
      "latency-monitor-threshold", "timeout", "hz", "maxmemory", "maxmemory-policy", "save",
      "notify-keyspace-events", "client-output-buffer-limit", "maxclients", "appendonly",
      "lazyfree-lazy-user-del", "lazyfree-lazy-user-flush", "proto-max-bulk-len",
      "busy-reply-threshold", "lua-time-limit");

  private final Map<String, String> values = new LinkedHashMap<>();
  /** Settings whose value the server checks and normalises itself (may throw). */
  private final Map<String, java.util.function.UnaryOperator<String>> appliers =
      new java.util.concurrent.ConcurrentHashMap<>();
  /** Called after a successful CONFIG SET with (name, value). */
  private volatile BiConsumer<String, String> listener = (n, v) -> { };

  public RedisConfig() {
    values.put("bind", "127.0.0.1");
    values.put("port", "6379");
    values.put("requirepass", "");
    values.put("protected-mode", "yes");
    values.put("databases", "16");
    values.put("appendonly", "yes");
    values.put("appendfsync", "everysec");
    values.put("save", "");
    values.put("maxmemory", "0");
    values.put("maxmemory-policy", "noeviction");
    values.put("maxclients", "10000");
    values.put("timeout", "0");
    values.put("hz", "10");
    values.put("proto-max-bulk-len", Long.toString(512L << 20));
    values.put("slowlog-log-slower-than", "10000");
    values.put("slowlog-max-len", "128");
    values.put("latency-monitor-threshold", "0");
    values.put("notify-keyspace-events", "");
    values.put("client-output-buffer-limit", "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
    values.put("unixsocket", "");
    values.put("unixsocketperm", "0");
    values.put("io-threads", "1");
    values.put("lazyfree-lazy-user-del", "no");
    values.put("lazyfree-lazy-user-flush", "no");
    values.put("tcp-keepalive", "300");
    values.put("dir", "");
    // How long a script runs before other clients get BUSY (lua-time-limit is its old name).
    values.put("busy-reply-threshold", "5000");
    values.put("lua-time-limit", "5000");
    TypedSettings.defaults(values); // encoding thresholds and other typed Redis 7.0 settings
  }

  public void onSet(BiConsumer<String, String> listener) {
    this.listener = listener;
  }

  /**
   * Lets the server validate and normalise {@code name} on CONFIG SET: {@code apply} returns
   * the value CONFIG GET shows, or throws a {@link RedisException} with Redis's text.
   */
  public void applier(String name, java.util.function.UnaryOperator<String> apply) {
    appliers.put(name, apply);
  }

  public synchronized String get(String name) {
    return values.get(name);
  }

  /** A numeric setting's current value (the typed settings always hold a number). */
  public long number(String name) {
    String v = get(name);
    return v == null ? 0 : Long.parseLong(v);
  }

  /** Sets a value at start-up (not validated). */
  public synchronized void init(String name, String value) {
    values.put(name, value);
  }

  /** Settings whose names match {@code pattern}, in a stable order. */
  public synchronized Map<String, String> matching(byte[] pattern) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (Glob.matchesIgnoreCase(pattern, Args.bytes(e.getKey()))) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  /** CONFIG SET of one setting; throws with Redis's text when it is unknown or invalid. */
  public void set(String name, String value) {
    String n = name.toLowerCase();
    synchronized (this) {
      TypedSettings.Setting typed = TypedSettings.of(n);
      if (typed != null) {
        String v = TypedSettings.validate(typed, name, value);
        values.put(typed.name(), v);
        if (typed.alias() != null) {
          values.put(typed.alias(), v); // one setting, two names (7.0's listpack/ziplist)
        }
        n = typed.name();
        value = v;
      } else {
        setNamed(n, name, value);
      }
    }
    listener.accept(n, value);
  }

  private void setNamed(String n, String name, String value) {
    if (!values.containsKey(n) || !SETTABLE.contains(n)) {
      throw new RedisException(values.containsKey(n)
          ? "ERR CONFIG SET failed (possibly related to argument '" + name
              + "') - can't set immutable config"
          : "ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
    }
    String v = validate(n, value);
    var apply = appliers.get(n);
    if (apply != null) {
      v = apply.apply(v);
    }
    values.put(n, v);
    if (n.equals("busy-reply-threshold") || n.equals("lua-time-limit")) {
      values.put("busy-reply-threshold", v); // one setting, two names (Redis 7.0's alias)
      values.put("lua-time-limit", v);
    }
  }

  private static String validate(String name, String value) {
    String lower = value.toLowerCase();
    switch (name) {
      case "appendfsync" -> {
        if (!Set.of("always", "everysec", "no").contains(lower)) {
          throw invalid(name, "argument(s) must be one of the following: everysec, always, no");
        }
        return lower;
      }
      case "protected-mode", "appendonly", "lazyfree-lazy-user-del", "lazyfree-lazy-user-flush" -> {
        if (!lower.equals("yes") && !lower.equals("no")) {
          throw invalid(name, "argument must be 'yes' or 'no'");
        }
        return lower;
      }
      case "slowlog-log-slower-than", "slowlog-max-len", "latency-monitor-threshold", "timeout",
           "hz", "maxmemory", "busy-reply-threshold", "lua-time-limit" -> {
        try {
          Long.parseLong(value);
        } catch (NumberFormatException e) {
          throw invalid(name, "argument couldn't be parsed into an integer");
        }
        return value;
      }
      case "maxclients" -> {
        long n = MemoryUnits.parse(value);
        if (n < 0 || !value.chars().allMatch(Character::isDigit)) {
          throw invalid(name, "argument couldn't be parsed into an integer");
        }
        if (n < 1 || n > 4294967295L) {
          throw invalid(name, "argument must be between 1 and 4294967295 inclusive");
        }
        return Long.toString(n);
      }
      case "proto-max-bulk-len" -> {
        long n = MemoryUnits.parse(value);
        if (n < 0) {
          throw invalid(name, "argument must be a memory value");
        }
        if (n < 1048576) {
          throw invalid(name, "argument must be between 1048576 and 9223372036854775807 inclusive");
        }
        return Long.toString(n);
      }
      default -> {
        return value;
      }
    }
  }

  private static RedisException invalid(String name, String why) {
    return new RedisException("ERR CONFIG SET failed (possibly related to argument '" + name
        + "') - " + why);
  }
}
