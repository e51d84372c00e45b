package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one client's session state may make the node hold (issue 13): commands queued by MULTI
 * (requests received and not yet executed: they count against the node's request budget until
 * EXEC, DISCARD or the close) and pub/sub subscriptions (bounded node-wide). Before, a client
 * could queue values, or subscribe to channels, without end and run a small heap out.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionStateLimitsTest {
  private static final long BUDGET = 4L << 20;

  @TempDir
  Path dir;

  @Test
  void aMultiQueueIsBoundedByTheRequestBudget() throws Exception {
    try (TestServer server = TestServer.start(dir, o -> o.withRequestBudget(BUDGET))) {
      String value = "v".repeat(512 << 10);
      try (RawClient c = new RawClient(server.address)) {
        c.command("MULTI");
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        String reply = "";
        int queued = 0;
        for (int i = 0; i < 64; i++) {
          c.command("SET", "k" + i, value); // 32 MiB offered in all
          reply = c.reply();
          if (!reply.equals("+QUEUED\r\n")) {
            break;
          }
          queued++;
        }
        assertThat(reply).as("after %d queued", queued)
            .isEqualTo("-ERR Protocol error: too much request data in flight on this node\r\n");
        assertThat(queued).isBetween(4, 16);
      }
      long deadline = System.currentTimeMillis() + 5000;
      while (server.server.requestBytesInFlight() > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.server.requestBytesInFlight()).as("given back at the close").isZero();
      try (RawClient c = new RawClient(server.address)) {
        c.command("MULTI");
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        for (int i = 0; i < 3; i++) {
          c.command("SET", "k" + i, value);
          assertThat(c.reply()).isEqualTo("+QUEUED\r\n");
        }
        assertThat(server.server.requestBytesInFlight()).isGreaterThan(3L * value.length());
        c.command("EXEC");
        assertThat(c.reply()).isEqualTo("*3\r\n+OK\r\n+OK\r\n+OK\r\n");
        assertThat(server.server.requestBytesInFlight()).isZero();
        c.command("MULTI");
        c.reply();
        c.command("SET", "k", value);
        c.reply();
        c.command("DISCARD");
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        assertThat(server.server.requestBytesInFlight()).isZero();
      }
    }
  }

  @Test
  void subscriptionsAreBoundedNodeWide() throws Exception {
    try (TestServer server = TestServer.start(dir)) {
      server.server.subscriptionLimitBytes(1 << 20);
      String[] first = channels("a", 2000); // 2000 x (100 + 200) bytes: 600 KB
      String[] second = channels("b", 2000);
      try (RawClient c = new RawClient(server.address)) {
        c.command(first);
        for (int i = 1; i < first.length; i++) {
          assertThat(c.reply()).startsWith("*3\r\n$9\r\nsubscribe\r\n");
        }
        c.command(second);
        assertThat(c.reply()).startsWith("-ERR too many subscriptions on this node");
        c.command("PING");
        assertThat(c.reply()).startsWith("*2\r\n$4\r\npong\r\n"); // still subscribed, still served
        try (RawClient publisher = new RawClient(server.address)) {
          publisher.command("PUBLISH", first[1], "hello");
          assertThat(publisher.reply()).isEqualTo(":1\r\n");
        }
      }
      // the subscriptions of a client that left are given back
      try (RawClient c = new RawClient(server.address)) {
        long deadline = System.currentTimeMillis() + 5000;
        String reply;
        do {
          c.command(second);
          reply = c.reply();
          if (reply.startsWith("-ERR")) {
            Thread.sleep(50);
          }
        } while (reply.startsWith("-ERR") && System.currentTimeMillis() < deadline);
        assertThat(reply).startsWith("*3\r\n$9\r\nsubscribe\r\n");
      }
    }
  }

  @Test
  void watchedKeysAreBoundedNodeWide() throws Exception {
    try (TestServer server = TestServer.start(dir)) {
      server.server.watchLimitBytes(1 << 20);
      String[] first = channels("a", 2000); // 2000 x (100 + 200) bytes: 600 KB
      first[0] = "WATCH";
      String[] second = channels("b", 2000);
      second[0] = "WATCH";
      try (RawClient c = new RawClient(server.address)) {
        c.command(first);
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        // WATCH calls add up until EXEC/DISCARD/UNWATCH: the second one would pass the bound
        c.command(second);
        assertThat(c.reply()).startsWith("-ERR too many watched keys on this node");
        c.command("UNWATCH");
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        c.command(second);
        assertThat(c.reply()).isEqualTo("+OK\r\n");
      }
      // the watches of a client that left are given back
      try (RawClient c = new RawClient(server.address)) {
        long deadline = System.currentTimeMillis() + 5000;
        String reply;
        do {
          c.command(first);
          reply = c.reply();
          if (reply.startsWith("-ERR")) {
            Thread.sleep(50);
          }
        } while (reply.startsWith("-ERR") && System.currentTimeMillis() < deadline);
        assertThat(reply).isEqualTo("+OK\r\n");
      }
    }
  }

  @Test
  void clientNamesAreBounded() throws Exception {
    try (TestServer server = TestServer.start(dir);
         RawClient c = new RawClient(server.address)) {
      String longest = "n".repeat(io.cassette.resp.command.ConnectionCommands.MAX_NAME_BYTES);
      c.command("CLIENT", "SETNAME", longest);
      assertThat(c.reply()).isEqualTo("+OK\r\n");
      c.command("CLIENT", "SETNAME", longest + "n");
      assertThat(c.reply()).startsWith("-ERR Client names cannot be longer than");
      c.command("CLIENT", "SETNAME", "has space");
      assertThat(c.reply()).isEqualTo("-ERR Client names cannot contain spaces, newlines or special characters.\r\n");
      c.command("HELLO", "3", "SETNAME", "x".repeat(100_000));
      assertThat(c.reply()).startsWith("-ERR Client names cannot be longer than");
      c.command("CLIENT", "GETNAME");
      assertThat(c.reply()).isEqualTo("$" + longest.length() + "\r\n" + longest + "\r\n");
    }
  }

  /** SUBSCRIBE and {@code n} channel names of 100 bytes. */
  private static String[] channels(String prefix, int n) {
    String[] args = new String[n + 1];
    args[0] = "SUBSCRIBE";
    for (int i = 1; i <= n; i++) {
      args[i] = String.format("%s%099d", prefix, i);
    }
    return args;
  }
}
