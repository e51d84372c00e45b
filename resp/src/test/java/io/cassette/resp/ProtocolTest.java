package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wire protocol over a real socket: RESP2/3, inline, pipelining, errors, bad input. */
class ProtocolTest {
  @TempDir
  static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start(dir);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private RawClient client() throws Exception {
    return new RawClient(server.address);
  }

  @Test
  void pingEchoAndInlineCommands() throws Exception {
    try (RawClient c = client()) {
      c.command("PING");
      assertThat(c.reply()).isEqualTo("+PONG\r\n");
      c.command("ECHO", "héllo");
      assertThat(c.reply()).isEqualTo("$6\r\nhéllo\r\n");
      c.send("PING\r\n");
      assertThat(c.reply()).isEqualTo("+PONG\r\n");
      c.send("ECHO \"a b\\x41\\n\" 'x'\r\n");
      assertThat(c.reply()).isEqualTo("-ERR wrong number of arguments for 'echo' command\r\n");
      c.send("ECHO \"a b\\x41\\n\"\n");
      assertThat(c.reply()).isEqualTo("$5\r\na bA\n\r\n");
      c.send("\r\n"); // empty inline line is ignored
      c.command("PING", "x");
      assertThat(c.reply()).isEqualTo("$1\r\nx\r\n");
    }
  }

  @Test
  void pipelinedCommandsAnswerInOrderEvenWhenSplitAcrossPackets() throws Exception {
    try (RawClient c = client()) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 200; i++) {
        sb.append("*2\r\n$4\r\nECHO\r\n$").append(Integer.toString(i).length()).append("\r\n")
            .append(i).append("\r\n");
      }
      byte[] all = sb.toString().getBytes();
      for (int off = 0; off < all.length; off += 7) { // odd-sized pieces split every token
        c.send(java.util.Arrays.copyOfRange(all, off, Math.min(all.length, off + 7)));
      }
      for (int i = 0; i < 200; i++) {
        assertThat(c.reply()).isEqualTo("$" + Integer.toString(i).length() + "\r\n" + i + "\r\n");
      }
    }
  }

  @Test
  void unknownCommandAndWrongArityUseRedisTexts() throws Exception {
    try (RawClient c = client()) {
      c.command("FOO", "a", "b");
      assertThat(c.reply()).isEqualTo(
          "-ERR unknown command 'FOO', with args beginning with: 'a' 'b' \r\n");
      c.command("foo");
      assertThat(c.reply()).isEqualTo("-ERR unknown command 'foo', with args beginning with: \r\n");
      c.command("GET");
      assertThat(c.reply()).isEqualTo("-ERR wrong number of arguments for 'get' command\r\n");
      c.command("CONFIG", "GET");
      assertThat(c.reply()).isEqualTo("-ERR wrong number of arguments for 'config|get' command\r\n");
      c.command("PING");
      assertThat(c.reply()).isEqualTo("+PONG\r\n");
    }
  }

  @Test
  void malformedInputGetsProtocolErrorAndCloseOthersUnaffected() throws Exception {
    try (RawClient other = client(); RawClient bad1 = client(); RawClient bad2 = client();
         RawClient bad3 = client(); RawClient bad4 = client()) {
      bad1.send("*abc\r\n");
      assertThat(bad1.reply()).isEqualTo("-ERR Protocol error: invalid multibulk length\r\n");
      assertThat(bad1.closedByServer()).isTrue();

      bad2.send("*1\r\n$999999999999\r\n");
      assertThat(bad2.reply()).isEqualTo("-ERR Protocol error: invalid bulk length\r\n");
      assertThat(bad2.closedByServer()).isTrue();

      bad3.send("*2\r\n$3\r\nGET\r\n:12\r\n");
      assertThat(bad3.reply()).isEqualTo("-ERR Protocol error: expected '$', got ':'\r\n");
      assertThat(bad3.closedByServer()).isTrue();

      bad4.command("PING");
      bad4.send("SET \"unbalanced\r\n");
      assertThat(bad4.reply()).isEqualTo("+PONG\r\n");
      assertThat(bad4.reply()).isEqualTo("-ERR Protocol error: unbalanced quotes in request\r\n");
      assertThat(bad4.closedByServer()).isTrue();

      other.command("PING");
      assertThat(other.reply()).isEqualTo("+PONG\r\n");
    }
  }

  @Test
  void garbageWithoutNewlineIsBoundedByTheInlineLimit() throws Exception {
    try (RawClient c = client()) {
      byte[] junk = new byte[70 * 1024];
      java.util.Arrays.fill(junk, (byte) 'x');
      c.send(junk);
      assertThat(c.reply()).isEqualTo("-ERR Protocol error: too big inline request\r\n");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void helloSwitchesToResp3() throws Exception {
    try (RawClient c = client()) {
      c.command("HELLO", "3");
      String hello = c.reply();
      assertThat(hello).startsWith("%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n");
      assertThat(hello).contains("$5\r\nproto\r\n:3\r\n");
      c.command("GET", "no-such-key-resp3");
      assertThat(c.reply()).isEqualTo("_\r\n");
      c.command("HELLO", "4");
      assertThat(c.reply()).isEqualTo("-NOPROTO unsupported protocol version\r\n");
      c.command("HELLO", "2");
      assertThat(c.reply()).startsWith("*14\r\n");
      c.command("GET", "no-such-key-resp3");
      assertThat(c.reply()).isEqualTo("$-1\r\n");
    }
  }

  @Test
  void quitClosesAfterReply() throws Exception {
    try (RawClient c = client()) {
      c.command("QUIT");
      assertThat(c.reply()).isEqualTo("+OK\r\n");
      assertThat(c.closedByServer()).isTrue();
    }
  }
}
