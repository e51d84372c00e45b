package io.cassette.server.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RingSettingsTest {
  @TempDir
  Path dir;

  @Test
  void noSeedsIsASingleNode() {
    RingSettings s = RingSettings.from(ConfigLoader.load(null, Map.of(), Map.of()), null);
    assertThat(s.isRing()).isFalse();
    assertThat(s.storagePort()).isEqualTo(7000);
    assertThat(s.metadataPort()).isEqualTo(7001);
    assertThat(s.numTokens()).isEqualTo(16);
    assertThat(s.allocateTokensForRf()).isEqualTo(3);
    assertThat(s.phiConvictThreshold()).isEqualTo(8.0);
    assertThat(s.dataCenter()).isEqualTo("datacenter1");
    assertThat(s.rack()).isEqualTo("rack1");
  }

  @Test
  void seedsFromTheFlagBeatTheEnvironmentAndDefineTheMetadataService() throws Exception {
    Config c = ConfigLoader.load(null, Map.of("CASSETTE_SEEDS", "10.9.9.9"),
        Map.of("seed_provider", new FlagValue("127.0.0.1:7000, 127.0.0.2,127.0.0.3,127.0.0.4", "flag --seeds"),
            "listen_address", new FlagValue("127.0.0.2", "flag --listen")));
    RingSettings s = RingSettings.from(c, null);
    assertThat(s.isRing()).isTrue();
    assertThat(s.seeds()).containsExactly(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("127.0.0.2"),
        InetAddress.getByName("127.0.0.3"), InetAddress.getByName("127.0.0.4"));
    assertThat(s.members()).containsExactly("127.0.0.1:7001", "127.0.0.2:7001", "127.0.0.3:7001");
  }

  @Test
  void seedsFromTheEnvironment() {
    RingSettings s = RingSettings.from(ConfigLoader.load(null, Map.of("CASSETTE_SEEDS", "127.0.0.1"), Map.of()), null);
    assertThat(s.members()).containsExactly("127.0.0.1:7001");
    assertThat(ConfigLoader.load(null, Map.of("CASSETTE_SEEDS", "127.0.0.1"), Map.of()).warnings()).isEmpty();
  }

  @Test
  void cassandrasNestedSeedProviderAndTheRackDcFile() throws IOException {
    Path yaml = dir.resolve("cassette.yaml");
    Files.writeString(yaml, """
        seed_provider:
            - class_name: org.apache.cassandra.locator.SimpleSeedProvider
              parameters:
                  - seeds: "127.0.0.1:7000,127.0.0.2:7000"
        metadata_port: 7101
        metadata_service_members: [127.0.0.2, "127.0.0.3:7201"]
        """);
    Files.writeString(dir.resolve(RingSettings.RACKDC_FILE), "dc=east\nrack=shelf2\n");
    RingSettings s = RingSettings.from(ConfigLoader.load(yaml, Map.of(), Map.of()), dir);
    assertThat(s.seeds()).hasSize(2);
    assertThat(s.members()).isEqualTo(List.of("127.0.0.2:7101", "127.0.0.3:7201"));
    assertThat(s.dataCenter()).isEqualTo("east");
    assertThat(s.rack()).isEqualTo("shelf2");
    // The keys win over the file.
    RingSettings keys = RingSettings.from(ConfigLoader.load(yaml, Map.of("CASSETTE_DC", "west"), Map.of()), dir);
    assertThat(keys.dataCenter()).isEqualTo("west");
    assertThat(keys.rack()).isEqualTo("shelf2");
  }

  @Test
  void portsAreStrippedFromSeedsButNotFromIpv6() {
    assertThat(RingSettings.stripPort("10.0.0.1:7000")).isEqualTo("10.0.0.1");
    assertThat(RingSettings.stripPort("board1")).isEqualTo("board1");
    assertThat(RingSettings.stripPort("[::1]:7000")).isEqualTo("::1");
    assertThat(RingSettings.stripPort("fe80::1")).isEqualTo("fe80::1");
  }
}
