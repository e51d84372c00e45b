package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What another client sees while slow readers come and go (issue 13: bench/hostile's RESP
 * witness once waited more than 10 s just as 100 slow readers left). A slow reader must only
 * ever hurt itself: not while it holds replies, not when it leaves with a long pipeline unrun.
 */
@Tag("slow") // 34 s: 30 readers fill their buffers first; HostileClientsTest keeps a slow reader in the default suite
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SlowReadersLeavingTest {
  private static final int READERS = 30;
  private static final int PIPELINED = 1000;
  private static final int VALUE_BYTES = 1 << 20;
  /** Generous for a loaded 2-core CI machine; the old code stalled the witness for seconds. */
  private static final long WITNESS_BOUND_MILLIS = 1500;

  @TempDir
  Path dir;

  @Test
  void slowReadersThatLeaveDoNotStallAnotherClient() throws Exception {
    try (TestServer server = TestServer.start(dir)) {
      try (RawClient c = new RawClient(server.address)) {
        c.command("SET", "big", "x".repeat(VALUE_BYTES));
        assertThat(c.reply()).isEqualTo("+OK\r\n");
      }
      StringBuilder pipeline = new StringBuilder();
      for (int i = 0; i < PIPELINED; i++) { // 1000 MiB of replies each
        pipeline.append("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n");
      }
      byte[] gets = pipeline.toString().getBytes(StandardCharsets.US_ASCII);
      List<Socket> readers = new ArrayList<>();
      Witness witness = new Witness(server);
      try {
        for (int i = 0; i < READERS; i++) {
          Socket s = new Socket();
          s.setReceiveBufferSize(4096);
          s.connect(server.address, 2000);
          readers.add(s);
          OutputStream out = s.getOutputStream();
          out.write(gets);
          out.flush();
        }
        long paused = awaitQuiet(server); // every reader holds its first replies, paused
        assertThat(paused).isLessThan((long) READERS * 10);
        witness.start();
        Thread.sleep(500);
        long witnessBefore = witness.commands.get();
        long before = commandsProcessed(server);
        for (Socket s : readers) {
          s.close(); // leaves with ~1000 GETs of 1 MiB queued
        }
        Thread.sleep(3000);
        witness.stop();
        assertThat(witness.failure.get())
            .as("witness SET+GET while the slow readers left (3 s read timeout)").isNull();
        assertThat(witness.maxMillis.get())
            .as("worst witness SET+GET while the slow readers left (ms)")
            .isLessThan(WITNESS_BOUND_MILLIS);
        long ranAfterLeaving =
            commandsProcessed(server) - before - (witness.commands.get() - witnessBefore) - 1;
        System.out.printf("readers paused after %d commands; after they left: %d of theirs ran,"
            + " witness worst %d ms over %d commands%n", paused, ranAfterLeaving,
            witness.maxMillis.get(), witness.commands.get());
        // the commands a departed client left behind are dropped, not run for nobody
        assertThat(ranAfterLeaving).isLessThan(READERS * 2L);
      } finally {
        witness.stop();
        for (Socket s : readers) {
          s.close();
        }
      }
    }
  }

  /** Waits until the server stops running commands (the readers are all paused). */
  private static long awaitQuiet(TestServer server) throws Exception {
    long last = -1;
    long deadline = System.currentTimeMillis() + 30_000;
    while (System.currentTimeMillis() < deadline) {
      long now;
      try {
        now = commandsProcessed(server);
      } catch (java.net.SocketTimeoutException busy) {
        continue; // the readers' first replies are still being produced
      }
      if (now == last) {
        return now;
      }
      last = now;
      Thread.sleep(500);
    }
    return last;
  }

  static long commandsProcessed(TestServer server) throws IOException {
    try (RawClient c = new RawClient(server.address)) {
      c.command("INFO", "stats");
      for (String line : c.reply().split("\r\n")) {
        if (line.startsWith("total_commands_processed:")) {
          return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        }
      }
    }
    throw new AssertionError("no total_commands_processed in INFO stats");
  }

  /** SET+GET every 10 ms on its own connection; records the worst round trip. */
  private static final class Witness implements Runnable {
    final AtomicLong maxMillis = new AtomicLong();
    final AtomicLong commands = new AtomicLong();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final TestServer server;
    private Thread thread;

    Witness(TestServer server) {
      this.server = server;
    }

    void start() {
      thread = new Thread(this, "witness");
      thread.start();
    }

    void stop() throws InterruptedException {
      stop.set(true);
      if (thread != null) {
        thread.join(20_000);
      }
    }

    @Override
    public void run() {
      try (RawClient c = new RawClient(server.address)) {
        for (int i = 0; !stop.get(); i++) {
          long t0 = System.nanoTime();
          c.command("SET", "witness", Integer.toString(i));
          String set = c.reply();
          c.command("GET", "witness");
          String get = c.reply();
          long ms = (System.nanoTime() - t0) / 1_000_000;
          commands.addAndGet(2);
          maxMillis.accumulateAndGet(ms, Math::max);
          if (!set.equals("+OK\r\n") || !get.contains(Integer.toString(i))) {
            throw new AssertionError("witness answered " + set + " / " + get);
          }
          Thread.sleep(10);
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    }
  }
}
