package io.cassette.tools.ring;

import static io.cassette.tools.ring.RingProcesses.START_TIMEOUT;
import static io.cassette.tools.ring.RingProcesses.countState;
import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.tls.certs.HomeRingCertificates;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three real node processes with {@code internode_encryption: all} and
 * {@code require_client_auth: true}, all three seeds and so all three metadata (Raft) members:
 * they elect and form one ring over TLS on both storage_port and metadata_port. A plain-text
 * client to the metadata port gets nothing readable, and a fourth node whose certificate another
 * CA signed (it trusts the ring's CA) cannot join. Real processes: -Pslow.
 */
@Tag("slow")
class MetadataTlsRingTest {
  private static final String PASSWORD = "ring-store-pw";
  private static final Duration TLS_START_TIMEOUT = Duration.ofSeconds(300);
  @RegisterExtension
  final RingProcesses ring = new RingProcesses(6);

  private static String[] tlsFlags(HomeRingCertificates.Issued id, Path trustStore) {
    List<String> flags = new ArrayList<>();
    for (String kv : List.of("internode_encryption=all", "keystore=" + id.keyStore(), "keystore_password=" + PASSWORD,
        "truststore=" + trustStore, "truststore_password=" + PASSWORD, "require_client_auth=true")) {
      flags.add("--set");
      flags.add("server_encryption_options." + kv);
    }
    return flags.toArray(new String[0]);
  }

  @Test
  void aTlsRingFormsAndStrangersStayOut() throws Exception {
    HomeRingCertificates ca = new HomeRingCertificates(ring.dir().resolve("certs"), PASSWORD);
    ca.openOrCreateCa("Ring CA", Duration.ofDays(2));
    HomeRingCertificates other = new HomeRingCertificates(ring.dir().resolve("other"), PASSWORD);
    other.openOrCreateCa("Other CA", Duration.ofDays(2));
    List<String> addresses = List.of("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4");

    ring.pickPorts(false).seeds("127.0.0.1,127.0.0.2,127.0.0.3");
    for (int i = 1; i <= 3; i++) {
      ring.start(i, tlsFlags(ca.issue("node" + i, addresses, Duration.ofDays(1)), ca.trustStore()));
    }
    // Raft's cold start alone took 37-49 s per node at load average 45 here, before any TLS
    // handshake: a longer bound than the plain ring tests' START_TIMEOUT.
    for (int i = 1; i <= 3; i++) {
      Path log = ring.dir().resolve("n" + i + ".log");
      int node = i;
      ring.await("node " + i + " ready", TLS_START_TIMEOUT, () -> {
        assertThat(ring.process(node).isAlive()).as("node %d alive", node).isTrue();
        try {
          return Files.readString(log, StandardCharsets.ISO_8859_1).contains("ready in");
        } catch (java.io.IOException e) {
          return false;
        }
      });
    }
    ring.awaitUp(1, 3);
    for (int i = 1; i <= 3; i++) {
      assertThat(Files.readString(ring.dir().resolve("n" + i + ".log"), StandardCharsets.ISO_8859_1))
          .contains("metadata service member started with TLS");
    }

    // Plain text to a member's metadata port: at most a TLS alert (content type 21), then closed.
    byte[] answer = plainText(new InetSocketAddress("127.0.0.1", ring.metadataPort));
    assertThat(answer.length == 0 || answer[0] == 21).as("answer %s", java.util.Arrays.toString(answer)).isTrue();

    // A node signed by another CA (trusting the ring's CA) cannot join: it never shows in status.
    ring.start(4, tlsFlags(other.issue("intruder", addresses, Duration.ofDays(1)), ca.trustStore()));
    long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
    while (System.nanoTime() < deadline) {
      String status = ring.status(1);
      assertThat(status).as("status while the intruder tries").doesNotContain("127.0.0.4");
      assertThat(countState(status, "UN")).isEqualTo(3);
      Thread.sleep(2000);
    }
    String intruderLog = Files.readString(ring.dir().resolve("n4.log"), StandardCharsets.ISO_8859_1);
    assertThat(intruderLog).doesNotContain("ready in");
  }

  private static byte[] plainText(InetSocketAddress address) throws Exception {
    try (Socket s = new Socket()) {
      s.connect(address, 5000);
      s.setSoTimeout(15_000);
      s.getOutputStream().write(new byte[] {12, 10, 10, 8, 'a', 'p', 'p', 'e', 'n', 'd', 0, 0, 0});
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[512];
      try {
        for (int n; got.size() < 4096 && (n = in.read(buf)) >= 0; ) {
          got.write(buf, 0, n);
        }
      } catch (java.net.SocketException e) {
        // reset after the alert
      }
      return got.toByteArray();
    }
  }
}
