package io.cassette.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.TableSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Epochs, persistence across restarts and storage effects of the single-node metadata log. */
class LocalMetadataLogTest {
  @TempDir
  Path dir;

  static final Map<String, String> RF1 = Map.of("class", "SimpleStrategy", "replication_factor", "1");

  private static KeyspaceDefinition ks(String name, TableSpec... tables) {
    return new KeyspaceDefinition(name, RF1, List.of(tables), ("def of " + name).getBytes());
  }

  private static TableSpec table(String ks, String name) {
    return TableSpec.withDefaults(ks, name, UUID.randomUUID());
  }

  @Test
  void epochsIncreaseSurviveRestartAndChangesReachStorage() {
    TableSpec a = table("app", "a");
    TableSpec b = table("app", "b");
    List<Long> heard = new ArrayList<>();
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      MetadataLog log = LocalCoordinator.open(engine, null).metadata();
      assertThat(log.current().epoch()).isZero();
      log.listen((entry, after) -> heard.add(entry.epoch()));
      assertThat(log.commit(MetadataChange.put(ks("app", a))).epoch()).isEqualTo(1);
      assertThat(engine.table("app", "a")).isPresent();
      assertThat(log.commit(MetadataChange.put(ks("app", a, b))).epoch()).isEqualTo(2);
      assertThat(log.commit(MetadataChange.put(ks("other", table("other", "x")))).epoch()).isEqualTo(3);
      assertThat(log.commit(MetadataChange.drop("other")).epoch()).isEqualTo(4);
      assertThat(engine.table("other", "x")).isEmpty();
      assertThat(log.commit(MetadataChange.put(ks("app", b))).epoch()).isEqualTo(5);
      assertThat(engine.table("app", "a")).isEmpty();
      assertThat(heard).containsExactly(1L, 2L, 3L, 4L, 5L);
    }
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      MetadataLog log = LocalCoordinator.open(engine, null).metadata();
      assertThat(log.current().epoch()).isEqualTo(5);
      assertThat(log.current().keyspaces()).containsOnlyKeys("app");
      assertThat(log.current().keyspace("app").definition()).isEqualTo("def of app".getBytes());
      assertThat(log.current().table("app", "b")).contains(b);
      assertThat(log.commit(MetadataChange.put(ks("app", b, a))).epoch()).isEqualTo(6);
    }
  }

  @Test
  void storageThatRefusesAChangeLeavesTheLogUnchanged() {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      MetadataLog log = LocalCoordinator.open(engine, null).metadata();
      log.commit(MetadataChange.put(ks("app", table("app", "a"))));
      TableSpec bad = new TableSpec("app", "bad", UUID.randomUUID(), Map.of("class", "NoSuchCompressor"),
          Map.of("class", "SizeTieredCompactionStrategy"), 864000, 0.01, 0);
      assertThatThrownBy(() -> log.commit(MetadataChange.put(ks("app", bad))))
          .isInstanceOf(RuntimeException.class);
      assertThat(log.current().epoch()).isEqualTo(1);
    }
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      assertThat(LocalCoordinator.open(engine, null).metadata().current().epoch()).isEqualTo(1);
    }
  }

  @Test
  void entriesRoundTripThroughTheirBytes() {
    TableSpec t = new TableSpec("k", "t", UUID.randomUUID(), Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "16"),
        Map.of("class", "TimeWindowCompactionStrategy", "compaction_window_unit", "DAYS"), 10, 0.1, 60);
    MetadataEntry e = new MetadataEntry(42, new MetadataChange(
        List.of(new KeyspaceDefinition("k", Map.of("class", "NetworkTopologyStrategy", "datacenter1", "3"),
            List.of(t), null), ks("j")), List.of("gone")));
    MetadataEntry back = MetadataEntryCodec.decode(MetadataEntryCodec.encode(e), "test");
    assertThat(back).isEqualTo(e);
    byte[] bytes = MetadataEntryCodec.encode(e);
    bytes[0] = 9;
    assertThatThrownBy(() -> MetadataEntryCodec.decode(bytes, "test")).hasMessageContaining("format 9");
    assertThatThrownBy(() -> MetadataEntryCodec.decode(java.util.Arrays.copyOf(bytes, 20), "x"))
        .hasMessageContaining("format");
  }
}
