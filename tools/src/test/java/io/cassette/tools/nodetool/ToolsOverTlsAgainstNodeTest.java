package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.tls.certs.HomeRingCertificates;
import io.cassette.tools.nodetool.NodetoolMainTest.Run;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nodetool {@code --ssl} against a node whose admin port serves https only
 * ({@code http_encryption_options}), with a certificate from {@code cassette certs}' CA and
 * PasswordAuthenticator: the CA given as PEM or as a trust store, the credential over TLS, and
 * the refusals a wrong setup gets.
 */
class NodetoolSslAgainstNodeTest {
  @TempDir Path dir;

  @Test
  void nodetoolTalksHttpsWhenTheAdminPortHasTls() throws Exception {
    HomeRingCertificates certs = new HomeRingCertificates(dir.resolve("certs"), "storepw");
    certs.openOrCreateCa("Test CA", Duration.ofDays(1));
    HomeRingCertificates.Issued node1 = certs.issue("node1", List.of("127.0.0.1", "localhost"), Duration.ofDays(1));
    HomeRingCertificates other = new HomeRingCertificates(dir.resolve("other"), "otherpw");
    other.openOrCreateCa("Another CA", Duration.ofDays(1));

    try (TestNode node = TestNode.start(dir.resolve("data"), Map.of(
        "authenticator", "PasswordAuthenticator",
        "authorizer", "CassandraAuthorizer",
        "auth_initial_superuser_password", "s3cret",
        "http_encryption_options.enabled", "true",
        "http_encryption_options.keystore", node1.keyStore().toString(),
        "http_encryption_options.keystore_password", "storepw"))) {
      String ca = certs.caPem().toString();
      Run status = node.nodetool("-h", "127.0.0.1", "--ssl", "--truststore", ca, "status");
      assertThat(status.exit()).as(status.err()).isZero();
      assertThat(status.out()).contains("UN  127.0.0.1");
      Run viaStore = node.nodetool("-h", "127.0.0.1", "--ssl", "--truststore", certs.trustStore().toString(),
          "--truststore-password", "storepw", "-u", "cassandra", "-pw", "s3cret", "flush");
      assertThat(viaStore.exit()).as(viaStore.err()).isZero();
      Run noCredential = node.nodetool("-h", "127.0.0.1", "--ssl", "--truststore", ca, "flush");
      assertThat(noCredential.exit()).isEqualTo(1);
      assertThat(noCredential.err()).contains("authentication required");

      // Plain http to the https port: refused, with the hint.
      Run plain = node.nodetool("-h", "127.0.0.1", "status");
      assertThat(plain.exit()).isEqualTo(1);
      assertThat(plain.err()).startsWith("nodetool: Failed to talk to '127.0.0.1:" + node.http + "'");
      // A CA that did not sign the node's certificate, and the JDK's own CAs: the handshake fails.
      Run untrusted = node.nodetool("-h", "127.0.0.1", "--ssl", "--truststore", other.caPem().toString(), "status");
      assertThat(untrusted.exit()).isEqualTo(1);
      assertThat(untrusted.err()).contains("TLS with '127.0.0.1:" + node.http + "' failed");
      Run jdkTrust = node.nodetool("-h", "127.0.0.1", "--ssl", "status");
      assertThat(jdkTrust.exit()).isEqualTo(1);
      assertThat(jdkTrust.err()).contains("TLS with '127.0.0.1:" + node.http + "' failed");
      // Usage errors.
      Run noSsl = node.nodetool("--truststore", ca, "status");
      assertThat(noSsl.exit()).isEqualTo(NodetoolMain.EXIT_USAGE);
      assertThat(noSsl.err()).contains("--truststore and --keystore need --ssl");
      Run missing = node.nodetool("--ssl", "--truststore", dir.resolve("nope.pem").toString(), "status");
      assertThat(missing.err()).contains("--truststore " + dir.resolve("nope.pem") + ": no such readable file");
    }
  }
}
