package io.cassette.cql.language.schema;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A table's WITH options with Cassandra 5.0's defaults, as system_schema.tables reports them.
 */
public record TableOptions(String comment, double bloomFilterFpChance, Map<String, String> caching,
                           Map<String, String> compaction, Map<String, String> compression,
                           double crcCheckChance, int defaultTimeToLive, int gcGraceSeconds,
                           int maxIndexInterval, int minIndexInterval,
                           int memtableFlushPeriodInMs, String speculativeRetry,
                           String additionalWritePolicy, String readRepair, boolean cdc,
                           Map<String, String> extensions) {

  public static final Map<String, String> DEFAULT_COMPACTION = Map.of(
      "class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy",
      "max_threshold", "32", "min_threshold", "4");
  public static final Map<String, String> DEFAULT_COMPRESSION = Map.of(
      "chunk_length_in_kb", "16", "class", "org.apache.cassandra.io.compress.LZ4Compressor");
  public static final Map<String, String> DEFAULT_CACHING = Map.of(
      "keys", "ALL", "rows_per_partition", "NONE");

  /** Compaction strategies Cassandra 5.0 ships (storage maps them to its own). */
  static final java.util.Set<String> KNOWN_COMPACTION = java.util.Set.of("SizeTieredCompactionStrategy",
      "LeveledCompactionStrategy", "TimeWindowCompactionStrategy", "UnifiedCompactionStrategy");
  /** Pure-Java codecs exist for all of Cassandra's compressors. */
  static final java.util.Set<String> KNOWN_COMPRESSION = java.util.Set.of("LZ4Compressor", "SnappyCompressor",
      "DeflateCompressor", "ZstdCompressor", "NoopCompressor");

  public TableOptions {
    caching = new TreeMap<>(caching);
    compaction = new TreeMap<>(compaction);
    compression = new TreeMap<>(compression);
    extensions = new TreeMap<>(extensions);
  }

  public static TableOptions defaults() {
    return new TableOptions("", 0.01, DEFAULT_CACHING, DEFAULT_COMPACTION, DEFAULT_COMPRESSION,
        1.0, 0, 864000, 2048, 128, 0, "99p", "99p", "BLOCKING", false, Map.of());
  }

  /** A copy with {@code props} (WITH options of CREATE/ALTER TABLE) applied; validates names. */
  public TableOptions with(Map<String, Object> props) {
    String comment = this.comment;
    double bf = bloomFilterFpChance;
    Map<String, String> caching = this.caching;
    Map<String, String> compaction = this.compaction;
    Map<String, String> compression = this.compression;
    double crc = crcCheckChance;
    int ttl = defaultTimeToLive;
    int gc = gcGraceSeconds;
    int maxIdx = maxIndexInterval;
    int minIdx = minIndexInterval;
    int flush = memtableFlushPeriodInMs;
    String spec = speculativeRetry;
    String awp = additionalWritePolicy;
    String rr = readRepair;
    boolean cdc = this.cdc;
    Map<String, String> ext = extensions;
    for (Map.Entry<String, Object> e : props.entrySet()) {
      Object v = e.getValue();
      switch (e.getKey()) {
        case "comment" -> comment = str(e.getKey(), v);
        case "bloom_filter_fp_chance" -> {
          bf = dbl(e.getKey(), v);
          if (bf <= 0 || bf > 1) {
            throw io.cassette.cql.language.Errors.config(
                "bloom_filter_fp_chance must be larger than 0 and less than or equal to 1.0 (got " + v + ")");
          }
        }
        case "caching" -> caching = merge(DEFAULT_CACHING, map(e.getKey(), v));
        case "compaction" -> compaction = compaction(map(e.getKey(), v));
        case "compression" -> compression = compression(map(e.getKey(), v));
        case "crc_check_chance" -> crc = dbl(e.getKey(), v);
        case "default_time_to_live" -> {
          ttl = integer(e.getKey(), v);
          if (ttl < 0) {
            throw io.cassette.cql.language.Errors.config("default_time_to_live must be greater than or equal to 0 (got " + ttl + ")");
          }
        }
        case "gc_grace_seconds" -> {
          gc = integer(e.getKey(), v);
          if (gc < 0) {
            throw io.cassette.cql.language.Errors.config("gc_grace_seconds must be greater than or equal to 0 (got " + gc + ")");
          }
        }
        case "max_index_interval" -> maxIdx = integer(e.getKey(), v);
        case "min_index_interval" -> minIdx = integer(e.getKey(), v);
        case "memtable_flush_period_in_ms" -> flush = integer(e.getKey(), v);
        case "speculative_retry" -> spec = str(e.getKey(), v);
        case "additional_write_policy" -> awp = str(e.getKey(), v);
        case "read_repair" -> rr = str(e.getKey(), v).toUpperCase();
        case "cdc" -> cdc = Boolean.parseBoolean(str(e.getKey(), v));
        case "extensions" -> ext = map(e.getKey(), v);
        case "id", "memtable", "allow_auto_snapshot", "incremental_backups" -> { }
        default -> throw io.cassette.cql.language.Errors.syntax("Unknown property '" + e.getKey() + "'");
      }
    }
    return new TableOptions(comment, bf, caching, compaction, compression, crc, ttl, gc, maxIdx,
        minIdx, flush, spec, awp, rr, cdc, ext);
  }

  private static Map<String, String> merge(Map<String, String> base, Map<String, String> over) {
    Map<String, String> m = new LinkedHashMap<>(base);
    m.putAll(over);
    return m;
  }

  private static Map<String, String> compaction(Map<String, String> m) {
    String cls = m.get("class");
    if (cls == null) {
      throw io.cassette.cql.language.Errors.config("Missing sub-option 'class' for the 'compaction' option.");
    }
    Map<String, String> out = new LinkedHashMap<>(m);
    String full = cls.contains(".") ? cls : "org.apache.cassandra.db.compaction." + cls;
    if (!KNOWN_COMPACTION.contains(full.substring(full.lastIndexOf('.') + 1))) {
      throw io.cassette.cql.language.Errors.config("Unable to find compaction strategy class '" + full + "'");
    }
    out.put("class", full);
    if (cls.endsWith("SizeTieredCompactionStrategy")) {
      out.putIfAbsent("max_threshold", "32");
      out.putIfAbsent("min_threshold", "4");
    }
    String scaling = out.get("scaling_parameters");
    if (cls.endsWith("UnifiedCompactionStrategy") && scaling != null
        && !scaling.trim().matches("(?i)(([TL]([2-9]|\\d{2,})|N|-?\\d+)\\s*(,\\s*|$))+")) {
      // storage runs UCS's levels: refuse here what it could not parse at table creation
      throw io.cassette.cql.language.Errors.config("Invalid scaling_parameters '" + scaling
          + "' (expected: a list of Tf, Lf or N with f >= 2, or integers)");
    }
    return out;
  }

  private static Map<String, String> compression(Map<String, String> m) {
    Map<String, String> out = new LinkedHashMap<>(m);
    if (m.isEmpty() || "false".equalsIgnoreCase(m.get("enabled"))) {
      return Map.of("enabled", "false");
    }
    String cls = out.get("class");
    if (cls == null && out.containsKey("sstable_compression")) {
      cls = out.remove("sstable_compression");
    }
    if (cls == null) {
      throw io.cassette.cql.language.Errors.config("Missing sub-option 'class' for the 'compression' option.");
    }
    String full = cls.contains(".") ? cls : "org.apache.cassandra.io.compress." + cls;
    if (!KNOWN_COMPRESSION.contains(full.substring(full.lastIndexOf('.') + 1))) {
      throw io.cassette.cql.language.Errors.config("Could not create Compression for type " + full);
    }
    out.put("class", full);
    if (out.containsKey("chunk_length_kb")) {
      out.put("chunk_length_in_kb", out.remove("chunk_length_kb"));
    }
    out.putIfAbsent("chunk_length_in_kb", "16");
    out.remove("enabled");
    return out;
  }

  private static String str(String name, Object v) {
    if (v instanceof String s) {
      return s;
    }
    throw io.cassette.cql.language.Errors.syntax("Invalid value for property '" + name
        + "'. It should be a string");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> map(String name, Object v) {
    if (v instanceof Map<?, ?> m) {
      return (Map<String, String>) m;
    }
    throw io.cassette.cql.language.Errors.syntax("Invalid value for property '" + name
        + "'. It should be a map.");
  }

  private static double dbl(String name, Object v) {
    try {
      return Double.parseDouble(str(name, v));
    } catch (NumberFormatException e) {
      throw io.cassette.cql.language.Errors.syntax("Invalid double value " + v + " for '" + name + "'");
    }
  }

  private static int integer(String name, Object v) {
    try {
      return Integer.parseInt(str(name, v));
    } catch (NumberFormatException e) {
      throw io.cassette.cql.language.Errors.syntax("Invalid integer value " + v + " for '" + name + "'");
    }
  }
}
