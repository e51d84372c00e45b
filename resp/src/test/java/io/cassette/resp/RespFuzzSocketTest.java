package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.RespFuzzer;
import io.cassette.resp.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzed inputs over real sockets to a real node (with and without a password): after each
 * batch another client still gets PONG, and no request bytes stay held once the fuzzing
 * connections are gone. Short form here; {@code -Pslow} sends 10,000 inputs per door mode.
 */
class RespFuzzSocketTest {
  @TempDir
  Path dir;

  @Test
  @Timeout(120)
  void nodeSurvivesFuzzedConnections() throws Exception {
    fuzz(dir, 7, 300, null);
  }

  @Test
  @Timeout(120)
  void nodeWithAPasswordSurvivesFuzzedConnections() throws Exception {
    fuzz(dir, 11, 200, "secret");
  }

  @Test
  @Tag("slow")
  @Timeout(1800)
  void tenThousandFuzzedConnections() throws Exception {
    fuzz(dir.resolve("open"), System.nanoTime(), 10_000, null);
    fuzz(dir.resolve("auth"), System.nanoTime(), 10_000, "secret");
  }

  private static void fuzz(Path dir, long seed, int inputs, String password) throws Exception {
    try (TestServer server = TestServer.start(dir,
        o -> password == null ? o : o.withRequirePass(password))) {
      RespFuzzer fuzzer = new RespFuzzer(seed);
      byte[] reply = new byte[65536];
      for (int i = 0; i < inputs; i++) {
        byte[] input = fuzzer.next();
        try (Socket s = new Socket()) {
          s.connect(server.address, 2000);
          s.setSoTimeout(20);
          s.getOutputStream().write(input);
          s.getOutputStream().flush();
          InputStream in = s.getInputStream();
          int n = in.read(reply);
          String first = n > 0 ? new String(reply, 0, Math.min(n, 40)) : "";
          fuzzer.keep(input, first.replaceAll("[0-9]", ""));
        } catch (IOException e) {
          // reset or timeout: the door answered nothing or closed, both fine
        }
        if (i % 50 == 49) {
          assertPong(server, password);
        }
      }
      assertPong(server, password);
      long deadline = System.currentTimeMillis() + 10_000;
      while (server.server.requestBytesInFlight() > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.server.requestBytesInFlight()).isZero();
    }
  }

  private static void assertPong(TestServer server, String password) throws IOException {
    try (RawClient c = new RawClient(server.address)) {
      if (password != null) {
        c.command("AUTH", password);
        assertThat(c.reply()).isEqualTo("+OK\r\n");
      }
      c.command("PING");
      assertThat(c.reply()).isEqualTo("+PONG\r\n");
    }
  }
}
