package io.cassette.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.tls.certs.HomeRingCertificates;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A door with TLS, seen by a JDK client over a real socket on 127.0.0.1: trusted, untrusted,
 * expired, client certificates required, optional TLS, and a certificate renewed on disk
 * served to the next connection without a restart.
 */
class TlsDoorTest {
  private static final String PASSWORD = "secret-pw";
  @TempDir Path dir;
  private HomeRingCertificates certs;
  private EventLoopGroup group;
  private Channel server;

  @BeforeEach
  void setUp() throws Exception {
    certs = new HomeRingCertificates(dir.resolve("ring"), PASSWORD);
    certs.openOrCreateCa("Test Ring CA", Duration.ofDays(30));
    group = new NioEventLoopGroup(1);
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.close().syncUninterruptibly();
    }
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** An echo door on an ephemeral port with {@code acceptor} first in every pipeline. */
  private InetSocketAddress start(TlsAcceptor acceptor) {
    server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            acceptor.addTo(ch);
            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.writeAndFlush(((ByteBuf) msg));
              }

              @Override
              public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close();
              }
            });
          }
        }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
    return (InetSocketAddress) server.localAddress();
  }

  private static SSLContext clientContext(Path trustStore, Path keyStore) throws Exception {
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

  /** Connects, sends "ping", returns the peer's certificate subject after the echo came back. */
  private static String echo(SSLContext ctx, InetSocketAddress a) throws Exception {
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(a.getAddress(), a.getPort())) {
      s.setSoTimeout(5000);
      s.startHandshake();
      OutputStream out = s.getOutputStream();
      out.write("ping".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      byte[] back = s.getInputStream().readNBytes(4);
      assertThat(new String(back, StandardCharsets.US_ASCII)).isEqualTo("ping");
      return ((X509Certificate) s.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }
  }

  @Test
  void pemAndKeyStoreServersAreTrustedThroughTheRingCa() throws Exception {
    var node = certs.issue("node1", List.of("127.0.0.1", "localhost"), Duration.ofDays(5));
    InetSocketAddress pem = start(new TlsAcceptor(ReloadingTlsContext.forServer("test door",
        TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), null)), false));
    assertThat(echo(clientContext(certs.trustStore(), null), pem)).contains("CN=node1");
    server.close().syncUninterruptibly();
    InetSocketAddress p12 = start(new TlsAcceptor(ReloadingTlsContext.forServer("test door",
        TlsSettings.keyStore(node.keyStore(), PASSWORD, null, null)), false));
    assertThat(echo(clientContext(certs.trustStore(), null), p12)).contains("CN=node1");
  }

  @Test
  void aServerFromAnotherCaIsRefused() throws Exception {
    HomeRingCertificates other = new HomeRingCertificates(dir.resolve("other"), PASSWORD);
    other.openOrCreateCa("Someone Else", Duration.ofDays(30));
    var stranger = other.issue("stranger", List.of("127.0.0.1"), Duration.ofDays(5));
    InetSocketAddress a = start(new TlsAcceptor(ReloadingTlsContext.forServer("test door",
        TlsSettings.pem(stranger.certificatePem(), stranger.privateKeyPem(), null)), false));
    assertThatThrownBy(() -> echo(clientContext(certs.trustStore(), null), a))
        .isInstanceOf(SSLException.class).hasMessageContaining("PKIX");
  }

  @Test
  void anExpiredServerCertificateIsRefused() throws Exception {
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    var old = certs.issue("old", List.of("127.0.0.1"), now.minusDays(10), now.minusDays(1));
    InetSocketAddress a = start(new TlsAcceptor(ReloadingTlsContext.forServer("test door",
        TlsSettings.pem(old.certificatePem(), old.privateKeyPem(), null)), false));
    assertThatThrownBy(() -> echo(clientContext(certs.trustStore(), null), a))
        .isInstanceOf(SSLException.class).hasStackTraceContaining("CertificateExpiredException");
  }

  @Test
  void requiredClientCertificates() throws Exception {
    var node = certs.issue("node1", List.of("127.0.0.1"), Duration.ofDays(5));
    var client = certs.issue("app", List.of(), Duration.ofDays(5));
    InetSocketAddress a = start(new TlsAcceptor(ReloadingTlsContext.forServer("test door",
        TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), certs.caPem())
            .withClientAuth(TlsSettings.ClientAuthMode.REQUIRE)), false));
    assertThat(echo(clientContext(certs.trustStore(), client.keyStore()), a)).contains("CN=node1");
    // TLS 1.3: the refusal of a missing certificate arrives as an alert after the client's
    // handshake finished, so it shows on the first read.
    assertThatThrownBy(() -> echo(clientContext(certs.trustStore(), null), a))
        .isInstanceOf(java.io.IOException.class);
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    var expiredClient = certs.issue("late", List.of(), now.minusDays(10), now.minusDays(1));
    assertThatThrownBy(() -> echo(clientContext(certs.trustStore(), expiredClient.keyStore()), a))
        .isInstanceOf(java.io.IOException.class);
  }

  @Test
  void optionalTlsServesPlainTextOnTheSamePort() throws Exception {
    var node = certs.issue("node1", List.of("127.0.0.1"), Duration.ofDays(5));
    InetSocketAddress a = start(new TlsAcceptor(ReloadingTlsContext.forServer("test door",
        TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), null)), true));
    assertThat(echo(clientContext(certs.trustStore(), null), a)).contains("CN=node1");
    try (Socket s = new Socket(a.getAddress(), a.getPort())) {
      s.setSoTimeout(5000);
      s.getOutputStream().write("plain".getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      assertThat(new String(in.readNBytes(5), StandardCharsets.US_ASCII)).isEqualTo("plain");
    }
  }

  @Test
  void aRenewedCertificateServesTheNextConnectionWithoutRestart() throws Exception {
    var node = certs.issue("node1", List.of("127.0.0.1"), Duration.ofDays(5));
    ReloadingTlsContext ctx = ReloadingTlsContext.forServer("test door",
        TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), null));
    InetSocketAddress a = start(new TlsAcceptor(ctx, false));
    SSLContext client = clientContext(certs.trustStore(), null);
    X509Certificate first = serverCertificate(client, a);
    certs.issue("node1", List.of("127.0.0.1"), Duration.ofDays(50)); // same files, new certificate
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    X509Certificate next = first;
    while (next.getSerialNumber().equals(first.getSerialNumber()) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      next = serverCertificate(client, a);
    }
    assertThat(next.getSerialNumber()).isNotEqualTo(first.getSerialNumber());
    assertThat(next.getNotAfter()).isAfter(first.getNotAfter());
    assertThat(ctx.reloads()).isEqualTo(1);
  }

  @Test
  void unusableFilesKeepThePreviousCertificate() throws Exception {
    var node = certs.issue("node1", List.of("127.0.0.1"), Duration.ofDays(5));
    ReloadingTlsContext ctx = ReloadingTlsContext.forServer("test door",
        TlsSettings.pem(node.certificatePem(), node.privateKeyPem(), null));
    java.nio.file.Files.writeString(node.privateKeyPem(), "-----BEGIN PRIVATE KEY-----\nbroken\n");
    assertThat(ctx.reloadIfChanged()).isFalse();
    assertThat(ctx.current()).isNotNull();
    assertThatThrownBy(() -> ReloadingTlsContext.forServer("test door",
        TlsSettings.keyStore(node.keyStore(), "wrong", null, null)))
        .isInstanceOf(TlsConfigException.class).hasMessageContaining(node.keyStore().toString());
  }

  private static X509Certificate serverCertificate(SSLContext ctx, InetSocketAddress a) throws Exception {
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(a.getAddress(), a.getPort())) {
      s.setSoTimeout(5000);
      s.startHandshake();
      return (X509Certificate) s.getSession().getPeerCertificates()[0];
    }
  }
}
