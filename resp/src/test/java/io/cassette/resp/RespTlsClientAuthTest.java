package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.TestServer;
import io.cassette.tls.ReloadingTlsContext;
import io.cassette.tls.TlsAcceptor;
import io.cassette.tls.TlsSettings;
import io.cassette.tls.certs.HomeRingCertificates;
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * tls-auth-clients yes (Redis's default once tls-port is on): a client certificate signed by
 * tls-ca-cert-file is required. Jedis and redis-cli without one are refused by the handshake,
 * with one they are served; a certificate from another CA is refused too.
 */
class RespTlsClientAuthTest {
  private static final String PASSWORD = "store-pw";
  @TempDir static Path dir;
  static HomeRingCertificates certs;
  static HomeRingCertificates.Issued app;
  static TestServer server;
  static InetSocketAddress tls;

  @BeforeAll
  static void start() throws Exception {
    certs = new HomeRingCertificates(dir.resolve("certs"), PASSWORD);
    certs.openOrCreateCa("Redis Client Auth CA", Duration.ofDays(10));
    var node = certs.issue("node1", List.of("127.0.0.1", "localhost"), Duration.ofDays(10));
    app = certs.issue("app", List.of(), Duration.ofDays(10));
    TlsAcceptor acceptor = new TlsAcceptor(ReloadingTlsContext.forServer("Redis door",
        TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), certs.caPem())
            .withClientAuth(TlsSettings.ClientAuthMode.REQUIRE)), false);
    server = TestServer.start(dir.resolve("data"), o -> o, r -> r.tls(acceptor, 0, false));
    tls = server.server.tlsAddress();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static SSLSocketFactory factory(Path keyStore) throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(KeyStore.getInstance(certs.trustStore().toFile(), PASSWORD.toCharArray()));
    KeyManagerFactory kmf = null;
    if (keyStore != null) {
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(KeyStore.getInstance(keyStore.toFile(), PASSWORD.toCharArray()), PASSWORD.toCharArray());
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return ctx.getSocketFactory();
  }

  static Jedis jedis(SSLSocketFactory factory) {
    return new Jedis(new HostAndPort("127.0.0.1", tls.getPort()),
        DefaultJedisClientConfig.builder().ssl(true).sslSocketFactory(factory).timeoutMillis(5000).build());
  }

  @Test
  void jedisNeedsAClientCertificate() throws Exception {
    assertThatThrownBy(() -> {
      try (Jedis j = jedis(factory(null))) {
        j.ping();
      }
    }).isInstanceOf(redis.clients.jedis.exceptions.JedisConnectionException.class);
    try (Jedis j = jedis(factory(app.keyStore()))) {
      assertThat(j.set("auth:k", "with a certificate")).isEqualTo("OK");
      assertThat(j.get("auth:k")).isEqualTo("with a certificate");
    }
    HomeRingCertificates other = new HomeRingCertificates(dir.resolve("other"), PASSWORD);
    other.openOrCreateCa("Other CA", Duration.ofDays(10));
    var stranger = other.issue("stranger", List.of(), Duration.ofDays(10));
    assertThatThrownBy(() -> {
      try (Jedis j = jedis(factory(stranger.keyStore()))) {
        j.ping();
      }
    }).isInstanceOf(redis.clients.jedis.exceptions.JedisConnectionException.class);
  }

  @Test
  void redisCliNeedsACertificate() throws Exception {
    assumeTrue(new File("/usr/bin/redis-cli").canExecute(), "redis-cli not installed");
    assertThat(cli("--tls", "--cacert", certs.caPem().toString(), "PING")).doesNotContain("PONG");
    assertThat(cli("--tls", "--cacert", certs.caPem().toString(), "--cert", app.certificatePem().toString(),
        "--key", app.privateKeyPem().toString(), "PING")).contains("PONG");
  }

  private static String cli(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/redis-cli", "-h", "127.0.0.1", "-p",
        Integer.toString(tls.getPort())));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getOutputStream().close();
    boolean finished = p.waitFor(20, TimeUnit.SECONDS);
    if (!finished) {
      p.destroyForcibly();
    }
    assertThat(finished).as("redis-cli finished").isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }
}
