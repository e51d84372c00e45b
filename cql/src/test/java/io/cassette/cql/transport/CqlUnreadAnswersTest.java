package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.cassette.cql.transport.messages.Opcode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What clients that never read can make the CQL door hold, all connections together, and what
 * a paused connection reads (issue 13). Real sockets for the offenders; the Java driver as the
 * witness that must go on being served.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CqlUnreadAnswersTest {
  private static InetAddress loopback(int last) {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static CqlSession witness(InetSocketAddress a) {
    return CqlSession.builder().addContactPoint(a).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
            .build())
        .build();
  }

  /** Worst round trip of {@code n} witness queries, each of which must succeed. */
  private static long worstMillis(CqlSession session, int n) throws InterruptedException {
    long worst = 0;
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      String v = session.execute("ECHO " + i).one().getString(0);
      worst = Math.max(worst, (System.nanoTime() - t0) / 1_000_000);
      assertThat(v).isEqualTo(Integer.toString(i));
      Thread.sleep(20);
    }
    return worst;
  }

  @Test
  void slowReadersOnManyConnectionsHoldAtMostTheNodesBudgetAndWait() throws Exception {
    int readers = 60;
    int requests = 400;
    int answer = 256 * 1024;
    long budget = 4L << 20;
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0).withIdleTimeoutSeconds(0);
    // Each connection alone may hold 16 MiB (twice the message size): only the node's bound acts.
    CqlLimits limits = o.limits().withSizes(8 << 20, 8 << 20);
    try (CqlServer server = new CqlServer(o.withLimits(limits), new StubQueryHandler())
        .withUnreadAnswersBudget(budget)) {
      InetSocketAddress a = server.start();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int i = 0; i < requests; i++) {
        all.writeBytes(RawClient.frame(4, 0, 1 + i, Opcode.QUERY, RawClient.query("BIG " + answer, 4)));
      }
      byte[] frames = all.toByteArray(); // 100 MiB of answers asked for, per connection
      List<RawClient> slow = new ArrayList<>();
      try (CqlSession session = witness(a)) {
        worstMillis(session, 3);
        for (int r = 0; r < readers; r++) {
          RawClient c = new RawClient(a, loopback(3 + r % 4));
          slow.add(c);
          c.send(4, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
          assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
          c.sendRaw(frames);
        }
        long worst = worstMillis(session, 50);
        int open = server.openConnections();
        long peak = server.unreadAnswers().peakBytes();
        System.out.printf("%d slow readers: %d still connected, %d evicted, unread answers now %d, peak %d"
            + " (budget %d); witness worst %d ms%n", readers, open - 2, server.unreadAnswers().evictions(),
            server.unreadAnswers().bytes(), peak, budget, worst);
        assertThat(worst).as("witness round trip (ms) with %d slow readers", readers).isLessThan(5000);
        // Over the budget the slow readers wait; over twice the budget an answer of a request
        // that was already executing closes its connection; a connection with nothing unsent
        // (which, as far as the node can tell, reads) gets its answer queued, and if that takes
        // the node over twice its budget the connections holding the most are closed at once.
        // Before, every new slow reader's first answers went through: 10 MB against 8 MiB.
        assertThat(peak).as("unread answers, all connections").isLessThanOrEqualTo(
            2 * budget + 2L * (answer + 64));
        assertThat(server.unreadAnswers().bytes()).isLessThanOrEqualTo(2 * budget);
      } finally {
        for (RawClient c : slow) {
          c.close();
        }
      }
      long deadline = System.currentTimeMillis() + 10_000;
      while ((server.unreadAnswers().bytes() > 0 || server.budget().usedBytes() > 0)
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.unreadAnswers().bytes()).as("unread answers once the slow readers left").isZero();
      assertThat(server.budget().usedBytes()).as("request bytes once the slow readers left").isZero();
      try (CqlSession session = witness(a)) {
        worstMillis(session, 3);
      }
    }
  }

  @Test
  void aConnectionPausedForAdmissionDoesNotReadWhatItsClientKeepsSending() throws Exception {
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0).withMaxFrameBytes(1 << 20)
        .withIdleTimeoutSeconds(0);
    int announced = 768 * 1024;
    try (CqlServer server = new CqlServer(o.withLimits(o.limits().withSizes(1 << 20, 1 << 20)
        .withInFlight(1 << 20, 1 << 20, false)), new StubQueryHandler())) {
      InetSocketAddress a = server.start();
      ByteBuffer header = ByteBuffer.allocate(9);
      header.put((byte) 4).put((byte) 0).putShort((short) 1).put((byte) Opcode.QUERY).putInt(announced);
      try (RawClient holder = new RawClient(a, loopback(3));
           Socket trickler = new Socket()) {
        // The first client's request is admitted and holds most of the node's budget.
        holder.send(4, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
        assertThat(holder.read().opcode()).isEqualTo(Opcode.READY);
        holder.sendRaw(header.array());
        // The second one's does not fit: its connection waits for admission, and it keeps
        // sending the body it announced (and more).
        trickler.setSendBufferSize(64 * 1024);
        trickler.bind(new InetSocketAddress(loopback(4), 0));
        trickler.connect(a, 5000);
        trickler.setSoTimeout(5000);
        OutputStream out = trickler.getOutputStream();
        out.write(RawClient.frame(4, 0, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0"))));
        assertThat(trickler.getInputStream().readNBytes(9)).hasSize(9);
        out.write(header.array());
        out.flush();
        AtomicLong written = new AtomicLong();
        int total = 4 << 20;
        Thread writer = new Thread(() -> {
          byte[] chunk = new byte[16 * 1024];
          try {
            while (written.get() < total) {
              out.write(chunk);
              written.addAndGet(chunk.length);
            }
          } catch (IOException closed) {
            // the socket is closed below
          }
        }, "trickler");
        writer.setDaemon(true);
        writer.start();
        long last = -1;
        long deadline = System.currentTimeMillis() + 60_000;
        while (written.get() != last && written.get() < total && System.currentTimeMillis() < deadline) {
          last = written.get();
          Thread.sleep(2000); // the close probe reads 64 bytes every 500 ms: less than a chunk
        }
        System.out.printf("a paused connection let its client write %d of %d bytes%n", written.get(), total);
        // What the kernel buffers hold (the client's send buffer, the server's receive window),
        // not the server's memory: before, the server read everything, 64 bytes at a time.
        assertThat(written.get()).as("bytes the paused connection's client could send").isLessThan(total / 2);
        trickler.close();
        writer.join(5000);
      }
      long deadline = System.currentTimeMillis() + 5000;
      while (server.budget().usedBytes() > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.budget().usedBytes()).isZero();
    }
  }
}
