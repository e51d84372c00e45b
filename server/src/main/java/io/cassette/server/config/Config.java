package io.cassette.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The resolved configuration of a node: one typed value per key, each with the place it came
 * from (a flag, an environment variable, a file line or the default). Immutable.
 */
public final class Config {
  private final Map<String, Object> values;
  private final Map<String, String> sources;
  private final List<String> warnings;

  Config(Map<String, Object> values, Map<String, String> sources, List<String> warnings) {
    this.values = Map.copyOf(values);
    this.sources = Map.copyOf(sources);
    this.warnings = List.copyOf(warnings);
  }

  /** True when the key has a value (keys with derived defaults may have none). */
  public boolean isSet(String key) {
    return values.containsKey(key);
  }

  public String string(String key) {
    return (String) require(key);
  }

  public int integer(String key) {
    return (Integer) require(key);
  }

  public boolean bool(String key) {
    return (Boolean) require(key);
  }

  public Duration duration(String key) {
    return (Duration) require(key);
  }

  /** A DATA_SIZE in bytes or a DATA_RATE in bytes per second. */
  public long bytes(String key) {
    return (Long) require(key);
  }

  @SuppressWarnings("unchecked")
  public List<String> list(String key) {
    return (List<String>) require(key);
  }

  /** Where the value of {@code key} came from, e.g. "flag --cql-port" or "conf/cassette.yaml line 12". */
  public String source(String key) {
    return sources.getOrDefault(key, "derived");
  }

  /** Unknown keys and other non-fatal findings, to be logged at start. */
  public List<String> warnings() {
    return warnings;
  }

  /** The base data directory ({@code --data-dir}). */
  public Path dataDirectory() {
    return Path.of(string(ConfigKeys.DATA_DIRECTORY));
  }

  /** SSTables: the first of {@code data_file_directories}, else {@code <data_directory>/data}. */
  public Path dataFileDirectory() {
    return isSet(ConfigKeys.DATA_FILE_DIRECTORIES)
        ? Path.of(list(ConfigKeys.DATA_FILE_DIRECTORIES).get(0))
        : dataDirectory().resolve("data");
  }

  public Path commitLogDirectory() {
    return isSet(ConfigKeys.COMMITLOG_DIRECTORY)
        ? Path.of(string(ConfigKeys.COMMITLOG_DIRECTORY))
        : dataDirectory().resolve("commitlog");
  }

  public Path logDirectory() {
    return dataDirectory().resolve("logs");
  }

  private Object require(String key) {
    Object v = values.get(key);
    if (v == null) {
      throw new IllegalStateException("no value for " + key);
    }
    return v;
  }
}
