package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.transport.messages.Opcode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CQL door under hostile clients, over real sockets: a connection flood above the limits,
 * values and frames at and over their limits, thousands of frame headers announcing bodies that
 * never come, and clients that send requests for large results and never read. Each time the
 * offender gets Cassandra's answer (or is cut off) and a witness client on another address
 * (127.0.0.2) is still served.
 */
class CqlDoorLimitsTest {
  private static final InetAddress WITNESS_ADDRESS = loopback(2);

  private static InetAddress loopback(int last) {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static RawClient ready(InetSocketAddress a, InetAddress from) throws IOException {
    RawClient c = new RawClient(a, from);
    c.send(4, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
    assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
    return c;
  }

  private static void assertServed(RawClient witness, int stream) throws IOException {
    witness.send(4, stream, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
    RawClient.Frame f = witness.read();
    assertThat(f.stream()).isEqualTo(stream);
    assertThat(f.opcode()).isEqualTo(Opcode.RESULT);
  }

  /** A QUERY "echo v" with one bound value of {@code valueBytes}. */
  private static byte[] queryWithValue(int valueBytes) {
    byte[] text = "ECHO v".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ByteBuffer body = ByteBuffer.allocate(4 + text.length + 2 + 1 + 2 + 4 + valueBytes);
    body.putInt(text.length).put(text).putShort((short) 1).put((byte) 0x01).putShort((short) 1)
        .putInt(valueBytes).put(new byte[valueBytes]);
    return body.array();
  }

  @Test
  void connectionFloodAboveTheLimitsIsRefusedAndTheNodeKeepsServing() throws Exception {
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0);
    int max = 20;
    int perIp = 15;
    try (CqlServer server = new CqlServer(o.withLimits(o.limits().withConnections(max, perIp)), new StubQueryHandler())) {
      InetSocketAddress a = server.start();
      List<RawClient> admitted = new ArrayList<>();
      try (RawClient witness = ready(a, WITNESS_ADDRESS)) {
        for (int i = 0; i < perIp; i++) {
          admitted.add(ready(a, null));
        }
        // Per address: the 16th from 127.0.0.1 is closed at once, as Cassandra does.
        try (RawClient over = new RawClient(a, null)) {
          assertThat(over.isClosedByServer()).as("16th connection from one address").isTrue();
        }
        // Node-wide: 127.0.0.3 may open the remaining 4, then the flood is refused.
        for (int i = 0; i < max - perIp - 1; i++) {
          admitted.add(ready(a, loopback(3)));
        }
        long t0 = System.nanoTime();
        int refused = 0;
        for (int i = 0; i < 2000; i++) {
          try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(loopback(4 + i % 200), 0));
            s.connect(a, 2000);
            s.setSoTimeout(2000);
            if (s.getInputStream().read() < 0) {
              refused++;
            }
          } catch (IOException e) {
            refused++; // reset or refused: closed either way
          }
        }
        assertThat(refused).isEqualTo(2000);
        assertThat(System.nanoTime() - t0).as("flood handled promptly").isLessThan(60_000_000_000L);
        assertServed(witness, 1);
        for (RawClient c : admitted) {
          assertServed(c, 2);
        }
        // Freed slots are reusable.
        admitted.remove(0).close();
        long deadline = System.currentTimeMillis() + 5000;
        boolean reconnected = false;
        while (!reconnected && System.currentTimeMillis() < deadline) {
          try {
            admitted.add(ready(a, null));
            reconnected = true;
          } catch (IOException | AssertionError e) {
            Thread.sleep(50);
          }
        }
        assertThat(reconnected).isTrue();
      } finally {
        for (RawClient c : admitted) {
          c.close();
        }
      }
    }
  }

  @Test
  void valuesAndFramesAtTheirLimitsWorkAndOverThemGetCassandrasError() throws Exception {
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0).withMaxFrameBytes(64 * 1024);
    int maxValue = 32 * 1024;
    try (CqlServer server = new CqlServer(o.withLimits(o.limits().withSizes(64 * 1024, maxValue)),
        new StubQueryHandler())) {
      InetSocketAddress a = server.start();
      try (RawClient c = ready(a, null)) {
        c.send(4, 1, Opcode.QUERY, queryWithValue(maxValue));
        assertThat(c.read().opcode()).isEqualTo(Opcode.RESULT);
        c.send(4, 2, Opcode.QUERY, queryWithValue(maxValue + 1));
        RawClient.Frame f = c.read();
        assertThat(f.stream()).isEqualTo(2);
        assertThat(f.errorCode()).isEqualTo(0x2200);
        assertThat(f.errorMessage()).isEqualTo("Value of 32769 bytes for value 0 exceeds max_value_size of 32768 bytes");
        byte[] atLimit = queryWithValue(64 * 1024 - 9 - 19);
        assertThat(atLimit.length + 9).isEqualTo(64 * 1024);
        c.send(4, 3, Opcode.QUERY, atLimit);
        assertThat(c.read().errorMessage()).startsWith("Value of 65508 bytes"); // the frame itself passed
        byte[] over = queryWithValue(64 * 1024 - 9 - 19 + 1);
        c.send(4, 4, Opcode.QUERY, over);
        f = c.read();
        assertThat(f.errorCode()).isEqualTo(0x2200);
        assertThat(f.errorMessage()).isEqualTo("Request is too big: length 65537 exceeds maximum allowed length 65536.");
        assertServed(c, 5);
      }
    }
  }

  @Test
  void frameHeadersAnnouncingBodiesThatNeverComeDoNotStarveOthers() throws Exception {
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0).withMaxFrameBytes(1 << 20)
        .withIdleTimeoutSeconds(0);
    long inFlight = 1 << 20;
    long perIp = 256 * 1024;
    int clients = 1000;
    int announced = 512 * 1024;
    try (CqlServer server = new CqlServer(o.withLimits(o.limits().withSizes(1 << 20, 1 << 20)
        .withInFlight(inFlight, perIp, false)), new StubQueryHandler())) {
      InetSocketAddress a = server.start();
      List<Socket> attackers = new ArrayList<>();
      try (RawClient witness = ready(a, WITNESS_ADDRESS)) {
        byte[] startup = RawClient.frame(4, 0, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
        ByteBuffer header = ByteBuffer.allocate(9 + 10);
        header.put((byte) 4).put((byte) 0).putShort((short) 1).put((byte) Opcode.QUERY).putInt(announced);
        for (int i = 0; i < clients; i++) {
          Socket s = new Socket();
          attackers.add(s);
          s.connect(a, 5000);
          OutputStream out = s.getOutputStream();
          out.write(startup);
          out.write(header.array()); // and 10 bytes of a 512 KiB body, then nothing
          out.flush();
          if (i % 100 == 0) {
            assertServed(witness, 1 + i / 100);
          }
        }
        assertServed(witness, 100);
        // One address holds at most its own limit or one request: the rest wait unread.
        // (The attackers' address alone: the witness's own small request may be in flight too.)
        assertThat(server.budget().usedBytes(InetAddress.getLoopbackAddress()))
            .isLessThanOrEqualTo(Math.max(perIp, announced + 9));
      } finally {
        for (Socket s : attackers) {
          s.close();
        }
      }
      // Until every connection is closed on the server's side, a frame already in a closed
      // socket's buffer may still be decoded (and reserved) once before its close is handled:
      // a clean-clone run read 0, then 31; another read zero twice 100 ms apart, then 524,297
      // (one attacker's frame), while 1,000 closes were handled on a loaded machine. Once no
      // connection is open, reservations can only go down.
      long deadline = System.currentTimeMillis() + 10_000;
      while ((server.openConnections() > 0 || server.budget().usedBytes() > 0)
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.openConnections()).as("connections open once every client left").isZero();
      assertThat(server.budget().usedBytes()).as("reservations released when the attackers leave").isZero();
    }
  }

  @Test
  void headerOnlyClientsThatLeaveGiveBackTheirConnectionSlots() throws Exception {
    // The first client's request is admitted and holds most of the in-flight budget; each other
    // one sends STARTUP and a header in one packet, so reading pauses in the read that answered
    // STARTUP. They then close (a FIN: READY was read). With a 90 s idle timeout only seeing the
    // close frees their slots.
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0).withMaxFrameBytes(1 << 20)
        .withIdleTimeoutSeconds(90);
    int clients = 50;
    int announced = 768 * 1024;
    try (CqlServer server = new CqlServer(o.withLimits(o.limits().withSizes(1 << 20, 1 << 20)
        .withInFlight(1 << 20, 1 << 20, false).withConnections(clients + 10, -1)), new StubQueryHandler())) {
      InetSocketAddress a = server.start();
      byte[] startup = RawClient.frame(4, 0, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
      ByteBuffer packet = ByteBuffer.allocate(startup.length + 9 + 10);
      packet.put(startup).put((byte) 4).put((byte) 0).putShort((short) 1).put((byte) Opcode.QUERY).putInt(announced);
      List<Socket> attackers = new ArrayList<>();
      try {
        for (int i = 0; i < clients; i++) {
          Socket s = new Socket();
          attackers.add(s);
          s.connect(a, 5000);
          s.setSoTimeout(5000);
          s.getOutputStream().write(packet.array());
          s.getOutputStream().flush();
          // READY read, so that the close below is a FIN (unread data would make it a reset,
          // which the selector reports even to a channel that is not reading).
          assertThat(s.getInputStream().readNBytes(9)).hasSize(9);
        }
        assertThat(server.openConnections()).isEqualTo(clients);
        for (Socket s : attackers.subList(1, clients)) {
          s.close();
        }
        long deadline = System.currentTimeMillis() + 5000;
        while (server.openConnections() > 1 && System.currentTimeMillis() < deadline) {
          Thread.sleep(20);
        }
        assertThat(server.openConnections()).as("slots of clients gone while paused").isEqualTo(1);
      } finally {
        for (Socket s : attackers) {
          s.close();
        }
      }
      long deadline = System.currentTimeMillis() + 5000;
      while (server.budget().usedBytes() > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.budget().usedBytes()).isZero();
      try (RawClient witness = ready(a, WITNESS_ADDRESS)) {
        assertServed(witness, 1);
      }
    }
  }

  @Test
  void clientsThatNeverReadTheirResultsOnlyHurtThemselves() throws Exception {
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0).withIdleTimeoutSeconds(0);
    CqlLimits limits = o.limits().withSizes(256 * 1024, 256 * 1024);
    int readers = 100;
    int requests = 200;
    int resultBytes = 100_000;
    try (CqlServer server = new CqlServer(o.withLimits(limits), new StubQueryHandler())) {
      InetSocketAddress a = server.start();
      List<RawClient> slow = new ArrayList<>();
      Runtime rt = Runtime.getRuntime();
      try (RawClient witness = ready(a, WITNESS_ADDRESS)) {
        byte[] frames;
        {
          java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
          for (int i = 0; i < requests; i++) {
            all.writeBytes(RawClient.frame(4, 0, 1 + i, Opcode.QUERY, RawClient.query("BIG " + resultBytes, 4)));
          }
          frames = all.toByteArray();
        }
        for (int r = 0; r < readers; r++) {
          RawClient c = ready(a, null);
          slow.add(c);
          c.sendRaw(frames); // 20 MB of answers asked for, none read
        }
        for (int i = 0; i < 20; i++) {
          long t0 = System.nanoTime();
          assertServed(witness, 1 + i);
          assertThat(System.nanoTime() - t0).as("witness answer time").isLessThan(5_000_000_000L);
        }
        // Each slow reader either waits with its TCP window full or was cut off past its output
        // limit; none holds more than that limit (the server would otherwise hold 2 GB here).
        long deadline = System.currentTimeMillis() + 10_000;
        while (server.openConnections() > readers && System.currentTimeMillis() < deadline) {
          Thread.sleep(50);
        }
        int cut = readers + 1 - server.openConnections();
        assertThat(cut).as("slow readers disconnected past the output limit").isGreaterThan(0);
        System.gc();
        long used = rt.totalMemory() - rt.freeMemory();
        assertThat(used).as("heap in use with %d slow readers", readers).isLessThan(512L << 20);
        assertServed(witness, 50);
      } finally {
        for (RawClient c : slow) {
          c.close();
        }
      }
    }
  }
}
