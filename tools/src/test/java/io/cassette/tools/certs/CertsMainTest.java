package io.cassette.tools.certs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cassette certs}: a CA, node certificates with their addresses, reuse of the CA, bad usage. */
class CertsMainTest {
  @TempDir Path dir;

  private String run(int expected, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = CertsMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text).isEqualTo(expected);
    return text;
  }

  @Test
  void makesACaAndNodeCertificatesThenReusesTheCa() throws Exception {
    Path certs = dir.resolve("certs");
    assertThat(run(0, "--dir", certs.toString(), "node1=127.0.0.1,board1.local", "node2=127.0.0.2"))
        .contains("created CA").contains("issued node1 for node1, 127.0.0.1, board1.local");
    String password = Files.readString(certs.resolve("password")).trim();
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(certs.resolve("node1-key.pem")))).isEqualTo("rw-------");
    KeyStore node1 = KeyStore.getInstance(certs.resolve("node1.p12").toFile(), password.toCharArray());
    X509Certificate cert = (X509Certificate) node1.getCertificate("node1");
    assertThat(cert.getSubjectAlternativeNames().stream().map(l -> String.valueOf(l.get(1))).toList())
        .containsExactly("node1", "127.0.0.1", "board1.local");
    X509Certificate ca = (X509Certificate) KeyStore.getInstance(certs.resolve("truststore.p12").toFile(),
        password.toCharArray()).getCertificate("ca");
    cert.verify(ca.getPublicKey());
    assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(Files.readString(certs.resolve("node1.pem"))).startsWith("-----BEGIN CERTIFICATE-----");
    assertThat(Files.readString(certs.resolve("node1-key.pem"))).startsWith("-----BEGIN PRIVATE KEY-----");

    assertThat(run(0, "--dir", certs.toString(), "app")).contains("using CA");
    X509Certificate app = (X509Certificate) KeyStore.getInstance(certs.resolve("app.p12").toFile(),
        password.toCharArray()).getCertificate("app");
    app.verify(ca.getPublicKey());
    assertThat(app.getExtendedKeyUsage()).containsExactlyInAnyOrderElementsOf(
        List.of("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"));
  }

  @Test
  void badUsage() {
    assertThat(run(2, "--dir", dir.toString())).contains("name at least one");
    assertThat(run(2, "--days", "0", "n")).contains("--days must be a positive number");
    assertThat(run(2, "--bogus")).contains("unknown option --bogus");
    assertThat(run(1, "--dir", dir.toString(), "bad/name")).contains("a certificate name is");
  }
}
