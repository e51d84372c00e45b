package io.cassette.resp.config;

import io.cassette.resp.command.RedisException;
import java.util.HashMap;
import java.util.Map;

/**
 * Redis 7.0 parameters that CONFIG SET accepts with Redis's own types, ranges and aliases
 * (config.c), beyond the ones {@link RedisConfig} handles by name. Some are honoured (the
 * encoding thresholds OBJECT ENCODING reads, hll-sparse-max-bytes, stream-node-max-*), the
 * others are kept so that tools and Redis's own test suite, which set them, go on.
 * Defaults are redis-server 7.0.15's compiled-in values (what CONFIG GET answers without a
 * redis.conf). Immutable.
 */
final class TypedSettings {
  private TypedSettings() {}

  enum Kind { INT, SIZE, LONG, MEMORY, BOOL }

  record Setting(String name, String alias, Kind kind, long min, long max, String dflt) {}

  private static final long INT_MIN = Integer.MIN_VALUE;
  private static final long INT_MAX = Integer.MAX_VALUE;
  private static final long LL_MAX = Long.MAX_VALUE;

  private static final Setting[] ALL = {
      new Setting("hash-max-listpack-entries", "hash-max-ziplist-entries", Kind.SIZE, 0, LL_MAX, "512"),
      new Setting("hash-max-listpack-value", "hash-max-ziplist-value", Kind.MEMORY, 0, LL_MAX, "64"),
      new Setting("set-max-intset-entries", null, Kind.SIZE, 0, LL_MAX, "512"),
      new Setting("zset-max-listpack-entries", "zset-max-ziplist-entries", Kind.SIZE, 0, LL_MAX, "128"),
      new Setting("zset-max-listpack-value", "zset-max-ziplist-value", Kind.MEMORY, 0, LL_MAX, "64"),
      new Setting("list-max-listpack-size", "list-max-ziplist-size", Kind.INT, INT_MIN, INT_MAX, "-2"),
      new Setting("list-compress-depth", null, Kind.INT, 0, INT_MAX, "0"),
      new Setting("hll-sparse-max-bytes", null, Kind.MEMORY, 0, LL_MAX, "3000"),
      new Setting("stream-node-max-bytes", null, Kind.MEMORY, 0, LL_MAX, "4096"),
      new Setting("stream-node-max-entries", null, Kind.LONG, 0, LL_MAX, "100"),
      new Setting("client-query-buffer-limit", null, Kind.MEMORY, 1048576, LL_MAX, "1073741824"),
      new Setting("min-replicas-to-write", "min-slaves-to-write", Kind.INT, 0, INT_MAX, "0"),
      new Setting("min-replicas-max-lag", "min-slaves-max-lag", Kind.INT, 0, INT_MAX, "10"),
      new Setting("rdb-key-save-delay", null, Kind.INT, INT_MIN, INT_MAX, "0"),
      new Setting("maxmemory-samples", null, Kind.INT, 1, INT_MAX, "5"),
      new Setting("lfu-log-factor", null, Kind.INT, 0, INT_MAX, "10"),
      new Setting("lfu-decay-time", null, Kind.INT, 0, INT_MAX, "1"),
      new Setting("active-expire-effort", null, Kind.INT, 1, 10, "1"),
      new Setting("tracking-table-max-keys", null, Kind.SIZE, 0, LL_MAX, "1000000"),
      new Setting("aof-use-rdb-preamble", null, Kind.BOOL, 0, 0, "yes"),
      new Setting("replica-serve-stale-data", "slave-serve-stale-data", Kind.BOOL, 0, 0, "yes"),
      new Setting("replica-read-only", "slave-read-only", Kind.BOOL, 0, 0, "yes"),
      new Setting("lazyfree-lazy-eviction", null, Kind.BOOL, 0, 0, "no"),
      new Setting("lazyfree-lazy-expire", null, Kind.BOOL, 0, 0, "no"),
      new Setting("lazyfree-lazy-server-del", null, Kind.BOOL, 0, 0, "no"),
      new Setting("activerehashing", null, Kind.BOOL, 0, 0, "yes"),
      new Setting("activedefrag", null, Kind.BOOL, 0, 0, "no"),
  };

  private static final Map<String, Setting> BY_NAME = new HashMap<>();

  static {
    for (Setting s : ALL) {
      BY_NAME.put(s.name, s);
      if (s.alias != null) {
        BY_NAME.put(s.alias, s);
      }
    }
  }

  /** Puts every setting (and alias) with its default into {@code values}. */
  static void defaults(Map<String, String> values) {
    for (Setting s : ALL) {
      values.put(s.name, s.dflt);
      if (s.alias != null) {
        values.put(s.alias, s.dflt);
      }
    }
  }

  static Setting of(String lowerName) {
    return BY_NAME.get(lowerName);
  }

  /** The value CONFIG GET will show, or Redis's error for {@code value}. */
  static String validate(Setting s, String name, String value) {
    if (s.kind == Kind.BOOL) {
      String v = value.toLowerCase();
      if (!v.equals("yes") && !v.equals("no")) {
        throw invalid(name, "argument must be 'yes' or 'no'");
      }
      return v;
    }
    long n;
    if (s.kind == Kind.MEMORY) {
      n = MemoryUnits.parse(value);
      if (n < 0 && value.matches("[0-9]+")) {
        throw range(name, s); // too large for a long: Redis's range error
      }
      if (n < 0) {
        throw invalid(name, "argument must be a memory value");
      }
    } else {
      try {
        n = Long.parseLong(value);
      } catch (NumberFormatException e) {
        if (s.kind == Kind.SIZE && value.matches("-?[0-9]+")) {
          n = value.startsWith("-") ? -1 : Long.MAX_VALUE; // out of range either way
          if (n > 0) {
            throw range(name, s);
          }
        } else {
          throw invalid(name, "argument couldn't be parsed into an integer");
        }
      }
    }
    if (n < s.min || n > s.max) {
      throw range(name, s);
    }
    return Long.toString(n);
  }

  private static RedisException range(String name, Setting s) {
    return invalid(name, "argument must be between " + s.min + " and " + s.max + " inclusive");
  }

  private static RedisException invalid(String name, String why) {
    return new RedisException("ERR CONFIG SET failed (possibly related to argument '" + name
        + "') - " + why);
  }
}
