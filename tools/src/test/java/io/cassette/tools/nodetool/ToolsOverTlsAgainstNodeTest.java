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
 * The tools against a node whose CQL door and admin port speak TLS only
 * ({@code client_encryption_options}, {@code http_encryption_options}), with a certificate from
 * {@code cassette certs}' CA and PasswordAuthenticator: nodetool {@code --ssl} (the CA as PEM or
 * as a trust store, the credential over TLS) and {@code cqlsh -u -p --ssl} (Cassandra cqlsh's
 * SSL_CERTFILE / SSL_VALIDATE), and the refusals a wrong setup gets.
 */
class ToolsOverTlsAgainstNodeTest {
  @TempDir Path dir;

  @Test
  void nodetoolAndCqlshTalkTlsToANodeWithTlsOnly() throws Exception {
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
        "http_encryption_options.keystore_password", "storepw",
        "client_encryption_options.enabled", "true",
        "client_encryption_options.keystore", node1.keyStore().toString(),
        "client_encryption_options.keystore_password", "storepw"))) {
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

      // cqlsh -u -p --ssl, as an operator runs it (its own JVM: the CA file comes from the environment).
      String port = Integer.toString(node.cql);
      Run cqlsh = cqlsh(Map.of("SSL_CERTFILE", ca), "-u", "cassandra", "-p", "s3cret", "--ssl", "-e",
          "SELECT release_version FROM system.local", "127.0.0.1", port);
      assertThat(cqlsh.exit()).as(cqlsh.err()).isZero();
      assertThat(cqlsh.out()).contains("5.0.4");
      Run wrongCa = cqlsh(Map.of("SSL_CERTFILE", other.caPem().toString()), "-u", "cassandra", "-p", "s3cret",
          "--ssl", "-e", "SELECT release_version FROM system.local", "127.0.0.1", port);
      assertThat(wrongCa.exit()).isNotZero();
      Run noValidation = cqlsh(Map.of("SSL_VALIDATE", "false"), "-u", "cassandra", "-p", "s3cret", "--ssl", "-e",
          "SELECT release_version FROM system.local", "127.0.0.1", port);
      assertThat(noValidation.exit()).as(noValidation.err()).isZero();
      Run noCaFile = cqlsh(Map.of(), "-u", "cassandra", "-p", "s3cret", "--ssl", "-e", "SELECT 1", "127.0.0.1", port);
      assertThat(noCaFile.err()).contains("Validation is enabled; SSL transport factory requires a valid certfile");
      Run plainText = cqlsh(Map.of(), "-u", "cassandra", "-p", "s3cret", "-e", "SELECT release_version FROM system.local",
          "127.0.0.1", port);
      assertThat(plainText.exit()).isNotZero();
    }
  }

  /** cqlsh in a JVM of its own with {@code env} added, as bin/cassette cqlsh runs it; bounded at 120 s. */
  private Run cqlsh(Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
        "-cp", System.getProperty("java.class.path"), "io.cassette.tools.cqlsh.CqlshMain"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("cqlsh.out").toFile())
        .redirectError(dir.resolve("cqlsh.err").toFile()).redirectInput(ProcessBuilder.Redirect.from(
            java.nio.file.Files.writeString(dir.resolve("cqlsh.in"), "").toFile()));
    pb.environment().remove("SSL_CERTFILE");
    pb.environment().remove("SSL_VALIDATE");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("cqlsh did not finish within 120 s: " + String.join(" ", args));
    }
    return new Run(p.exitValue(), java.nio.file.Files.readString(dir.resolve("cqlsh.out")),
        java.nio.file.Files.readString(dir.resolve("cqlsh.err")));
  }
}
