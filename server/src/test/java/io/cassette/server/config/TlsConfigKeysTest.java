package io.cassette.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cassandra's nested encryption sections and Redis's tls_* keys from YAML, environment and flags. */
class TlsConfigKeysTest {
  @TempDir Path dir;

  @Test
  void nestedSectionsBecomeDottedKeys() throws Exception {
    Path yaml = dir.resolve("cassette.yaml");
    Files.writeString(yaml, """
        client_encryption_options:
          enabled: true
          optional: true
          keystore: conf/node.p12
          keystore_password: secret
          require_client_auth: optional
          accepted_protocols: [TLSv1.3]
        server_encryption_options:
          internode_encryption: dc
        tls_port: 6380
        tls_auth_clients: "no"
        """);
    Config c = ConfigLoader.load(yaml, Map.of("CASSETTE_HTTP_ENCRYPTION_OPTIONS__ENABLED", "true"),
        Map.of("tls_cert_file", new ConfigLoader.FlagValue("n.pem", "flag --set")));
    assertThat(c.bool("client_encryption_options.enabled")).isTrue();
    assertThat(c.bool("client_encryption_options.optional")).isTrue();
    assertThat(c.string("client_encryption_options.keystore")).isEqualTo("conf/node.p12");
    assertThat(c.string("client_encryption_options.require_client_auth")).isEqualTo("optional");
    assertThat(c.list("client_encryption_options.accepted_protocols")).isEqualTo(List.of("TLSv1.3"));
    assertThat(c.source("client_encryption_options.keystore")).contains("line 4");
    assertThat(c.string("server_encryption_options.internode_encryption")).isEqualTo("dc");
    assertThat(c.bool("http_encryption_options.enabled")).isTrue();
    assertThat(c.integer("tls_port")).isEqualTo(6380);
    assertThat(c.string("tls_auth_clients")).isEqualTo("no");
    assertThat(c.string("tls_cert_file")).isEqualTo("n.pem");
    assertThat(c.warnings()).isEmpty();
  }

  @Test
  void theShippedConfigurationLoadsWithoutWarnings() {
    Config c = ConfigLoader.load(Path.of("../conf/cassette.yaml"), Map.of(), Map.of());
    assertThat(c.warnings()).isEmpty();
    assertThat(c.bool("client_encryption_options.enabled")).isFalse();
    assertThat(c.string("server_encryption_options.internode_encryption")).isEqualTo("none");
  }
}
