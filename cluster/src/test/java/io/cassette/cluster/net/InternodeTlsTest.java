package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.tls.ReloadingTlsContext;
import io.cassette.tls.TlsSettings;
import io.cassette.tls.certs.HomeRingCertificates;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Internode TLS (server_encryption_options) between messaging services in one JVM on
 * 127.0.0.1 and 127.0.0.2: requests answered over TLS with client certificates required; a
 * peer whose certificate another CA signed gets nothing through; plain text is refused in
 * {@code all} mode; {@code dc} mode encrypts only towards another datacenter.
 */
class InternodeTlsTest {
  private static final String PASSWORD = "ring-pw";
  @TempDir Path dir;
  private final List<MessagingService> started = new ArrayList<>();

  @AfterEach
  void stop() {
    for (MessagingService ms : started) {
      ms.stop();
    }
  }

  private InternodeEncryption encryption(HomeRingCertificates.Issued node, Path ca,
                                         InternodeEncryption.Mode mode, boolean sameDc) {
    TlsSettings s = TlsSettings.keyStore(node.keyStore(), PASSWORD, ca, null)
        .withClientAuth(TlsSettings.ClientAuthMode.REQUIRE);
    return new InternodeEncryption(mode, ReloadingTlsContext.forServer("internode messaging", s),
        ReloadingTlsContext.forClient("internode messaging", s), false, peer -> sameDc);
  }

  /** Two services on 127.0.0.1/2 sharing a random port, each with its encryption. */
  private List<MessagingService> pair(InternodeEncryption first, InternodeEncryption second) {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 20; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(10_000, 32_000); // below the ephemeral range (32768+): a client socket cannot take it
      List<MessagingService> two = new ArrayList<>();
      try {
        InternodeEncryption[] enc = {first, second};
        for (int i = 0; i < 2; i++) {
          MessagingService ms = new MessagingService(MessagingConfig.builder(TestRing.address(i))
              .storagePort(port).reconnectDelays(Duration.ofMillis(20), Duration.ofMillis(200))
              .connectTimeout(Duration.ofSeconds(1)).build()).encryption(enc[i]);
          ms.start();
          two.add(ms);
          started.add(ms);
        }
        for (MessagingService ms : two) {
          ms.registerHandler(Verb.READ_REQ, m -> ms.respond(m, m.payload()));
        }
        return two;
      } catch (IllegalStateException e) {
        last = e;
        two.forEach(MessagingService::stop);
      }
    }
    throw last;
  }

  @Test
  void peersTalkOverTlsAndAPeerFromAnotherCaIsRefused() throws Exception {
    HomeRingCertificates ring = new HomeRingCertificates(dir.resolve("ring"), PASSWORD);
    ring.openOrCreateCa("Ring CA", Duration.ofDays(10));
    var n1 = ring.issue("node1", List.of("127.0.0.1"), Duration.ofDays(10));
    var n2 = ring.issue("node2", List.of("127.0.0.2"), Duration.ofDays(10));
    HomeRingCertificates other = new HomeRingCertificates(dir.resolve("other"), PASSWORD);
    other.openOrCreateCa("Intruder CA", Duration.ofDays(10));
    var intruder = other.issue("intruder", List.of("127.0.0.2"), Duration.ofDays(10));

    List<MessagingService> good = pair(encryption(n1, ring.caPem(), InternodeEncryption.Mode.ALL, false),
        encryption(n2, ring.caPem(), InternodeEncryption.Mode.ALL, false));
    Message answer = good.get(0).sendWithCallback(good.get(1).address(),
        Message.out(Verb.READ_REQ, "over tls".getBytes(StandardCharsets.UTF_8)))
        .get(10, TimeUnit.SECONDS);
    assertThat(new String(answer.payload(), StandardCharsets.UTF_8)).isEqualTo("over tls");
    Message back = good.get(1).sendWithCallback(good.get(0).address(),
        Message.out(Verb.READ_REQ, "and back".getBytes(StandardCharsets.UTF_8))).get(10, TimeUnit.SECONDS);
    assertThat(new String(back.payload(), StandardCharsets.UTF_8)).isEqualTo("and back");

    // Plain text to a node in "all" mode: the TLS handler takes no handshake from it.
    InetSocketAddress a = good.get(0).address();
    try (Socket plain = new Socket(a.getAddress(), a.getPort())) {
      plain.setSoTimeout(5000);
      plain.getOutputStream().write(new byte[64]);
      assertThat(plain.getInputStream().read()).isIn(-1, 0x15); // closed, or a TLS alert record
    }
    stop();
    started.clear();

    // node1 trusts the ring CA only; the intruder presents another CA's certificate.
    List<MessagingService> bad = pair(encryption(n1, ring.caPem(), InternodeEncryption.Mode.ALL, false),
        encryption(intruder, ring.caPem(), InternodeEncryption.Mode.ALL, false));
    assertThatThrownBy(() -> bad.get(1).sendWithCallback(bad.get(0).address(),
        Message.out(Verb.READ_REQ, "let me in".getBytes(StandardCharsets.UTF_8)).withTimeoutMillis(1500))
        .get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RequestTimeoutException.class);
    assertThatThrownBy(() -> bad.get(0).sendWithCallback(bad.get(1).address(),
        Message.out(Verb.READ_REQ, "who are you".getBytes(StandardCharsets.UTF_8)).withTimeoutMillis(1500))
        .get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RequestTimeoutException.class);
  }

  @Test
  void dcModeEncryptsOnlyAcrossDatacentersAndAcceptsBoth() throws Exception {
    HomeRingCertificates ring = new HomeRingCertificates(dir.resolve("ring"), PASSWORD);
    ring.openOrCreateCa("Ring CA", Duration.ofDays(10));
    var n1 = ring.issue("node1", List.of("127.0.0.1"), Duration.ofDays(10));
    var n2 = ring.issue("node2", List.of("127.0.0.2"), Duration.ofDays(10));
    // node1 sees node2 in its own datacenter (plain), node2 sees node1 in another (TLS).
    InternodeEncryption e1 = encryption(n1, ring.caPem(), InternodeEncryption.Mode.DC, true);
    InternodeEncryption e2 = encryption(n2, ring.caPem(), InternodeEncryption.Mode.DC, false);
    assertThat(e1.encryptsTo(new InetSocketAddress("127.0.0.2", 7000))).isFalse();
    assertThat(e2.encryptsTo(new InetSocketAddress("127.0.0.1", 7000))).isTrue();
    List<MessagingService> two = pair(e1, e2);
    for (int[] fromTo : new int[][] {{0, 1}, {1, 0}}) {
      Message m = two.get(fromTo[0]).sendWithCallback(two.get(fromTo[1]).address(),
          Message.out(Verb.READ_REQ, new byte[] {7})).get(10, TimeUnit.SECONDS);
      assertThat(m.payload()).containsExactly(7);
    }
  }
}
