package io.cassette.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.server.config.ConfigLoader.FlagValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  private Path yaml(String text) throws IOException {
    Path f = dir.resolve("cassette.yaml");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void defaultsWhenNothingIsGiven() {
    Config c = ConfigLoader.load(null, Map.of(), Map.of());
    assertThat(c.integer(ConfigKeys.NATIVE_TRANSPORT_PORT)).isEqualTo(9042);
    assertThat(c.integer(ConfigKeys.RESP_PORT)).isEqualTo(6379);
    assertThat(c.integer(ConfigKeys.HTTP_PORT)).isEqualTo(9180);
    assertThat(c.string(ConfigKeys.LISTEN_ADDRESS)).isEqualTo("127.0.0.1");
    assertThat(c.string(ConfigKeys.COMMITLOG_SYNC)).isEqualTo("periodic");
    assertThat(c.bool(ConfigKeys.DYNAMIC_DATA_MASKING_ENABLED)).isFalse(); // as Cassandra 5.0
    assertThat(c.duration(ConfigKeys.COMMITLOG_SYNC_PERIOD)).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.bytes(ConfigKeys.COMPACTION_THROUGHPUT)).isEqualTo(64L << 20);
    assertThat(c.dataDirectory()).isEqualTo(Path.of("./data"));
    assertThat(c.commitLogDirectory()).isEqualTo(Path.of("./data/commitlog"));
    assertThat(c.isSet(ConfigKeys.MEMTABLE_HEAP_SPACE)).isFalse();
    assertThat(c.source(ConfigKeys.RESP_PORT)).isEqualTo("default");
  }

  @Test
  void flagBeatsEnvironmentBeatsFileBeatsDefault() throws IOException {
    Path f = yaml("native_transport_port: 9100\nresp_port: 6400\nhttp_port: 9200\n");
    Map<String, String> env = Map.of("CASSETTE_NATIVE_TRANSPORT_PORT", "9101",
        "CASSETTE_RESP_PORT", "6401");
    Map<String, FlagValue> flags = Map.of("native_transport_port", new FlagValue("9102", "flag --cql-port"));

    Config c = ConfigLoader.load(f, env, flags);

    assertThat(c.integer(ConfigKeys.NATIVE_TRANSPORT_PORT)).isEqualTo(9102);
    assertThat(c.source(ConfigKeys.NATIVE_TRANSPORT_PORT)).isEqualTo("flag --cql-port");
    assertThat(c.integer(ConfigKeys.RESP_PORT)).isEqualTo(6401);
    assertThat(c.source(ConfigKeys.RESP_PORT)).isEqualTo("environment variable CASSETTE_RESP_PORT");
    assertThat(c.integer(ConfigKeys.HTTP_PORT)).isEqualTo(9200);
    assertThat(c.source(ConfigKeys.HTTP_PORT)).isEqualTo(f + " line 3");
    assertThat(c.string(ConfigKeys.CLUSTER_NAME)).isEqualTo("Test Cluster");
  }

  @Test
  void invalidFileValueNamesKeyValueFileLineAndWhatIsAllowed() throws IOException {
    Path f = yaml("cluster_name: x\n\ncommitlog_sync: sometimes\n");
    assertThatThrownBy(() -> ConfigLoader.load(f, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Invalid value for commitlog_sync: 'sometimes' in " + f
            + " line 3 (not one of periodic, batch, group); expected one of periodic, batch, group");
  }

  @Test
  void invalidUnitsAreRefusedWithTheAllowedForm() throws IOException {
    Path f = yaml("commitlog_sync_period: 10 seconds\n");
    assertThatThrownBy(() -> ConfigLoader.load(f, Map.of(), Map.of()))
        .hasMessageContaining("commitlog_sync_period: '10 seconds' in " + f + " line 1")
        .hasMessageContaining("expected a duration such as 500ms, 10s");
    Path g = yaml("compaction_throughput: 64MB\n");
    assertThatThrownBy(() -> ConfigLoader.load(g, Map.of(), Map.of()))
        .hasMessageContaining("compaction_throughput: '64MB'")
        .hasMessageContaining("a rate such as 64MiB/s");
  }

  @Test
  void invalidPortFromFlagOrEnvironmentNamesItsSource() {
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(),
        Map.of("resp_port", new FlagValue("70000", "flag --resp-port"))))
        .hasMessage("Invalid value for resp_port: '70000' in flag --resp-port (out of range);"
            + " expected a port number from 0 (disabled) to 65535");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("CASSETTE_HTTP_PORT", "web"), Map.of()))
        .hasMessageContaining("'web' in environment variable CASSETTE_HTTP_PORT (not an integer)");
  }

  @Test
  void unknownKeysAreWarningsThatNameThem() throws IOException {
    Path f = yaml("cluster_name: a\nconcurrent_writes: 32\n");
    Config c = ConfigLoader.load(f, Map.of("CASSETTE_BOGUS", "1"), Map.of());
    assertThat(c.warnings()).containsExactly(
        "Unknown key 'concurrent_writes' in " + f + " line 2: ignored",
        "Unknown environment variable CASSETTE_BOGUS: ignored");
  }

  @Test
  void unknownKeyGivenAsFlagIsAnError() {
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(),
        Map.of("no_such_key", new FlagValue("1", "flag --set no_such_key"))))
        .hasMessage("Unknown configuration key 'no_such_key' in flag --set no_such_key");
  }

  @Test
  void emptyValueKeepsDefaultAndListsReadAsCassandraWritesThem() throws IOException {
    Path f = yaml("resp_port:\ndata_file_directories:\n    - /srv/a\n    - /srv/b\nmemtable_heap_space: 32MiB\n");
    Config c = ConfigLoader.load(f, Map.of(), Map.of());
    assertThat(c.integer(ConfigKeys.RESP_PORT)).isEqualTo(6379);
    assertThat(c.list(ConfigKeys.DATA_FILE_DIRECTORIES)).isEqualTo(List.of("/srv/a", "/srv/b"));
    assertThat(c.dataFileDirectory()).isEqualTo(Path.of("/srv/a"));
    assertThat(c.bytes(ConfigKeys.MEMTABLE_HEAP_SPACE)).isEqualTo(32L << 20);
  }

  @Test
  void brokenYamlIsReportedWithItsLine() throws IOException {
    Path f = yaml("cluster_name: a\nresp_port: [1, 2\nhttp_port: 3\n");
    assertThatThrownBy(() -> ConfigLoader.load(f, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Cannot parse " + f + " line ");
  }

  @Test
  void structuredValueForScalarKeyIsRefused() throws IOException {
    Path f = yaml("native_transport_port:\n  - 1\n");
    assertThatThrownBy(() -> ConfigLoader.load(f, Map.of(), Map.of()))
        .hasMessage("Invalid value for native_transport_port in " + f
            + " line 1: expected a port number from 0 (disabled) to 65535, not a sequence");
  }

  @Test
  void shippedConfigurationFileLoadsWithoutWarnings() {
    Path shipped = Path.of("..", "conf", "cassette.yaml");
    Config c = ConfigLoader.load(shipped, Map.of(), Map.of());
    assertThat(c.warnings()).isEmpty();
    assertThat(c.duration(ConfigKeys.COMMITLOG_SYNC_PERIOD)).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.integer(ConfigKeys.NATIVE_TRANSPORT_PORT)).isEqualTo(9042);
  }
}
