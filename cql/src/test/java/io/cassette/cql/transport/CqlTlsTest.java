package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import io.cassette.cql.DriverScript;
import io.cassette.tls.ReloadingTlsContext;
import io.cassette.tls.TlsAcceptor;
import io.cassette.tls.TlsSettings;
import io.cassette.tls.certs.HomeRingCertificates;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * client_encryption_options on the CQL door with the Java driver 4.19 (SSL context) and the
 * Python driver (ssl_context) and the Node.js driver (sslOptions): a trusted server works; an untrusted or expired server
 * certificate is refused by the driver; with require_client_auth a driver without a client
 * certificate is refused, with one it works; optional TLS also serves plain-text drivers.
 */
class CqlTlsTest {
  private static final String PASSWORD = "cql-store-pw";
  @TempDir static Path dir;
  static HomeRingCertificates certs;
  static HomeRingCertificates.Issued node;
  static HomeRingCertificates.Issued client;
  private CqlServer server;

  @BeforeAll
  static void makeCertificates() throws Exception {
    certs = new HomeRingCertificates(dir.resolve("certs"), PASSWORD);
    certs.openOrCreateCa("CQL Test CA", Duration.ofDays(10));
    node = certs.issue("node1", List.of("127.0.0.1", "localhost"), Duration.ofDays(10));
    client = certs.issue("app", List.of(), Duration.ofDays(10));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private InetSocketAddress start(TlsSettings settings, boolean optional) {
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), new StubQueryHandler())
        .tls(new TlsAcceptor(ReloadingTlsContext.forServer("CQL door", settings), optional));
    return server.start();
  }

  static SSLContext sslContext(Path trustStore, Path keyStore) throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(KeyStore.getInstance(trustStore.toFile(), PASSWORD.toCharArray()));
    KeyManagerFactory kmf = null;
    if (keyStore != null) {
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(KeyStore.getInstance(keyStore.toFile(), PASSWORD.toCharArray()), PASSWORD.toCharArray());
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return ctx;
  }

  private static CqlSessionBuilder driver(InetSocketAddress a) {
    return CqlSession.builder().addContactPoint(a).withLocalDatacenter("datacenter1");
  }

  private static String releaseVersion(CqlSession s) {
    return s.execute("SELECT release_version FROM system.local").one().getString("release_version");
  }

  @Test
  void javaDriverWithATrustedServer() throws Exception {
    InetSocketAddress a = start(TlsSettings.keyStore(node.keyStore(), PASSWORD, null, null), false);
    try (CqlSession s = driver(a).withSslContext(sslContext(certs.trustStore(), null)).build()) {
      assertThat(releaseVersion(s)).isEqualTo("5.0.4");
    }
    // A driver speaking plain text to a TLS-only door does not get in.
    assertThatThrownBy(() -> driver(a).build()).isInstanceOf(AllNodesFailedException.class);
  }

  @Test
  void javaDriverRefusesAnUntrustedOrExpiredServerCertificate() throws Exception {
    HomeRingCertificates other = new HomeRingCertificates(dir.resolve("other"), PASSWORD);
    other.openOrCreateCa("Someone Else", Duration.ofDays(10));
    var stranger = other.issue("stranger", List.of("127.0.0.1"), Duration.ofDays(10));
    InetSocketAddress a = start(TlsSettings.pem(stranger.certificatePem(), stranger.privateKeyPem(), null), false);
    assertThatThrownBy(() -> driver(a).withSslContext(sslContext(certs.trustStore(), null)).build())
        .isInstanceOf(AllNodesFailedException.class)
        .hasStackTraceContaining("unable to find valid certification path");
    server.close();
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    var expired = certs.issue("expired", List.of("127.0.0.1"), now.minusDays(30), now.minusDays(1));
    InetSocketAddress b = start(TlsSettings.pem(expired.certificatePem(), expired.privateKeyPem(), null), false);
    assertThatThrownBy(() -> driver(b).withSslContext(sslContext(certs.trustStore(), null)).build())
        .isInstanceOf(AllNodesFailedException.class)
        .hasStackTraceContaining("CertificateExpiredException");
  }

  @Test
  void requireClientAuthRefusesADriverWithoutACertificate() throws Exception {
    InetSocketAddress a = start(TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), certs.caPem())
        .withClientAuth(TlsSettings.ClientAuthMode.REQUIRE), false);
    assertThatThrownBy(() -> driver(a).withSslContext(sslContext(certs.trustStore(), null)).build())
        .isInstanceOf(AllNodesFailedException.class);
    try (CqlSession s = driver(a).withSslContext(sslContext(certs.trustStore(), client.keyStore())).build()) {
      assertThat(releaseVersion(s)).isEqualTo("5.0.4");
    }
  }

  @Test
  void optionalTlsServesBothOnOnePort() throws Exception {
    InetSocketAddress a = start(TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), null), true);
    try (CqlSession tls = driver(a).withSslContext(sslContext(certs.trustStore(), null)).build();
         CqlSession plain = driver(a).build()) {
      assertThat(releaseVersion(tls)).isEqualTo("5.0.4");
      assertThat(releaseVersion(plain)).isEqualTo("5.0.4");
    }
  }

  @Test
  void pythonDriverWithSslContext() throws Exception {
    DriverScript.assumePythonDriver();
    InetSocketAddress a = start(TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), certs.caPem())
        .withClientAuth(TlsSettings.ClientAuthMode.OPTIONAL), false);
    assertThat(python(a, certs.caPem().toString())).contains("OK 5");
    assertThat(python(a, certs.caPem().toString(), client.certificatePem().toString(),
        client.privateKeyPem().toString())).contains("OK 5");
  }

  /** require_client_auth: true with the Python driver: refused without a certificate, served with one. */
  @Test
  void pythonDriverWhereAClientCertificateIsRequired() throws Exception {
    DriverScript.assumePythonDriver();
    InetSocketAddress a = start(TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), certs.caPem())
        .withClientAuth(TlsSettings.ClientAuthMode.REQUIRE), false);
    String refused = pythonExpectingFailure(a, certs.caPem().toString());
    assertThat(refused).doesNotContain("OK ").contains("NoHostAvailable");
    assertThat(python(a, certs.caPem().toString(), client.certificatePem().toString(),
        client.privateKeyPem().toString())).contains("OK 5");
  }

  /**
   * The Node.js driver's sslOptions: trusted CA, then a client certificate where one is
   * required, and another CA refused. Runs when NODE_PATH holds cassandra-driver (CI installs
   * it with npm); skipped otherwise, like NodeDriverTest.
   */
  @Test
  void nodeDriverWithSslOptions() throws Exception {
    String nodePath = System.getenv("NODE_PATH");
    assumeTrue(nodePath != null && new java.io.File(nodePath, "cassandra-driver").isDirectory(),
        "NODE_PATH does not hold cassandra-driver (npm install cassandra-driver; NODE_PATH=DIR/node_modules)");
    InetSocketAddress a = start(TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), certs.caPem())
        .withClientAuth(TlsSettings.ClientAuthMode.REQUIRE), false);
    assertThat(node(a, 1, certs.caPem().toString())).contains("FAILED");
    assertThat(node(a, 0, certs.caPem().toString(), client.certificatePem().toString(),
        client.privateKeyPem().toString())).contains("OK 5.0.4");
    HomeRingCertificates other = new HomeRingCertificates(dir.resolve("other-node-js"), PASSWORD);
    other.openOrCreateCa("Someone Else", Duration.ofDays(10));
    assertThat(node(a, 1, other.caPem().toString(), client.certificatePem().toString(),
        client.privateKeyPem().toString())).contains("FAILED");
  }

  private static String node(InetSocketAddress a, int expectedExit, String... tlsArgs) throws Exception {
    DriverScript.Run r = script("node", "node_tls_check.js", a, tlsArgs);
    assertThat(r.exitCode()).as("node driver output: %s", r.output()).isEqualTo(expectedExit);
    return r.output();
  }

  /** The Python check where the connection must fail: its output (exit code not zero). */
  private static String pythonExpectingFailure(InetSocketAddress a, String... tlsArgs) throws Exception {
    DriverScript.Run r = script(DriverScript.PYTHON, "python_tls_check.py", a, tlsArgs);
    assertThat(r.exitCode()).as("python driver output: %s", r.output()).isNotZero();
    return r.output();
  }

  private static String python(InetSocketAddress a, String... tlsArgs) throws Exception {
    DriverScript.Run r = script(DriverScript.PYTHON, "python_tls_check.py", a, tlsArgs);
    assertThat(r.exitCode()).as("python driver output: %s", r.output()).isZero();
    return r.output();
  }

  /** Resource {@code name} run by {@code interpreter} with the node's host, port and the TLS arguments. */
  private static DriverScript.Run script(String interpreter, String name, InetSocketAddress a, String... tlsArgs)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(interpreter, DriverScript.copy(CqlTlsTest.class, name, dir).toString(),
        "127.0.0.1", String.valueOf(a.getPort())));
    cmd.addAll(List.of(tlsArgs));
    return DriverScript.run(60, cmd);
  }
}
