package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.TestServer;
import io.cassette.tls.ReloadingTlsContext;
import io.cassette.tls.TlsAcceptor;
import io.cassette.tls.TlsSettings;
import io.cassette.tls.certs.HomeRingCertificates;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * The Redis door's tls-port with a plain port 0 (TLS only), tls-auth-clients no, a password
 * user: Jedis, Lettuce and redis-cli --tls connect; an untrusted CA and plain text are refused.
 */
class RespTlsTest {
  private static final String PASSWORD = "store-pw";
  @TempDir static Path dir;
  static HomeRingCertificates certs;
  static TestServer server;
  static InetSocketAddress tls;

  @BeforeAll
  static void start() throws Exception {
    certs = new HomeRingCertificates(dir.resolve("certs"), PASSWORD);
    certs.openOrCreateCa("Redis Test CA", Duration.ofDays(10));
    var node = certs.issue("node1", List.of("127.0.0.1", "localhost"), Duration.ofDays(10));
    TlsAcceptor acceptor = new TlsAcceptor(ReloadingTlsContext.forServer("Redis door",
        TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), certs.caPem())
            .withClientAuth(TlsSettings.ClientAuthMode.OPTIONAL)), false);
    server = TestServer.start(dir.resolve("data"), o -> o, r -> r.tls(acceptor, 0, false));
    tls = server.server.tlsAddress();
    try (Jedis admin = jedis(trusting(certs.trustStore()), "default", null)) {
      admin.aclSetUser("app", "on", ">app-pw", "~*", "+@all");
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static SSLSocketFactory trusting(Path trustStore) throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(KeyStore.getInstance(trustStore.toFile(), PASSWORD.toCharArray()));
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx.getSocketFactory();
  }

  static Jedis jedis(SSLSocketFactory factory, String user, String password) {
    var b = DefaultJedisClientConfig.builder().ssl(true).sslSocketFactory(factory).timeoutMillis(5000);
    if (password != null) {
      b.user(user).password(password);
    }
    return new Jedis(new HostAndPort("127.0.0.1", tls.getPort()), b.build());
  }

  @Test
  void jedisOverTlsWithAUser() throws Exception {
    try (Jedis app = jedis(trusting(certs.trustStore()), "app", "app-pw")) {
      assertThat(app.set("tls:k", "v")).isEqualTo("OK");
      assertThat(app.get("tls:k")).isEqualTo("v");
      assertThat(app.aclWhoAmI()).isEqualTo("app");
    }
  }

  @Test
  void anUntrustedCaOrPlainTextIsRefused() throws Exception {
    HomeRingCertificates other = new HomeRingCertificates(dir.resolve("other"), PASSWORD);
    other.openOrCreateCa("Other CA", Duration.ofDays(10));
    SSLSocketFactory wrong = trusting(other.trustStore());
    assertThatThrownBy(() -> jedis(wrong, "app", "app-pw").ping())
        .hasStackTraceContaining("unable to find valid certification path");
    try (Socket plain = new Socket("127.0.0.1", tls.getPort())) {
      plain.setSoTimeout(5000);
      plain.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      // Not a TLS record: the handshake fails and the door closes without a PONG.
      byte[] answer = plain.getInputStream().readNBytes(64);
      assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("PONG");
    }
  }

  @Test
  void lettuceOverTls() {
    RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1")
        .withPort(tls.getPort()).withSsl(true).withAuthentication("app", "app-pw")
        .withTimeout(Duration.ofSeconds(10)).build());
    client.setOptions(ClientOptions.builder().sslOptions(SslOptions.builder().jdkSslProvider()
        .trustManager(certs.caPem().toFile()).build()).build());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      assertThat(c.sync().set("lettuce:k", "1")).isEqualTo("OK");
      assertThat(c.sync().incr("lettuce:k")).isEqualTo(2);
      assertThat(c.sync().aclWhoami()).isEqualTo("app");
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void redisCliWithTlsUserAndPassword() throws Exception {
    assumeTrue(new File("/usr/bin/redis-cli").canExecute(), "redis-cli not installed");
    assertThat(cli("--tls", "--cacert", certs.caPem().toString(), "--user", "app", "--pass",
        "app-pw", "SET", "cli:k", "over tls")).contains("OK");
    assertThat(cli("--tls", "--cacert", certs.caPem().toString(), "--user", "app", "--pass",
        "app-pw", "GET", "cli:k")).contains("over tls");
    // With a client certificate too (tls-auth-clients optional accepts it).
    var client = certs.issue("cli-client", List.of(), Duration.ofDays(1));
    assertThat(cli("--tls", "--cacert", certs.caPem().toString(), "--cert",
        client.certificatePem().toString(), "--key", client.privateKeyPem().toString(), "--user",
        "app", "--pass", "app-pw", "ACL", "WHOAMI")).contains("app");
    assertThat(cli("--tls", "--cacert", certs.caPem().toString(), "--user", "app", "--pass",
        "nope", "PING")).contains("WRONGPASS");
    // An expired client certificate is refused by the handshake.
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    var expired = certs.issue("cli-expired", List.of(), now.minusDays(5), now.minusDays(1));
    assertThat(cli("--tls", "--cacert", certs.caPem().toString(), "--cert",
        expired.certificatePem().toString(), "--key", expired.privateKeyPem().toString(), "PING"))
        .doesNotContain("PONG");
  }

  private static String cli(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/redis-cli", "-h", "127.0.0.1", "-p",
        Integer.toString(tls.getPort())));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getOutputStream().close();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }
}
