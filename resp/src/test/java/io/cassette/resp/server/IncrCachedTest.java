package io.cassette.resp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * INCR/DECR/INCRBY of a cached counter are written straight from the cache entry
 * ({@code Database.incrCached}); the answers are Redis 7.0.15's own (checked against
 * redis-server with the same commands), the TTL stays, and every value is in storage: after
 * the caches are dropped and after a restart the same values come back.
 */
class IncrCachedTest {
  @TempDir
  Path dir;

  private static void expect(RawClient c, String reply, String... command) throws Exception {
    c.command(command);
    assertThat(c.reply()).as(String.join(" ", command)).isEqualTo(reply);
  }

  @Test
  void cachedCountersAnswerAsRedisKeepTheirTtlAndReachStorage() throws Exception {
    TestServer server = TestServer.start(dir);
    try (RawClient c = new RawClient(server.address)) {
      expect(c, "+OK\r\n", "SET", "n", "10");
      expect(c, ":11\r\n", "INCR", "n");
      expect(c, ":-9\r\n", "INCRBY", "n", "-20");
      expect(c, ":-10\r\n", "DECR", "n");
      expect(c, "$3\r\n-10\r\n", "GET", "n");
      expect(c, "+OK\r\n", "SET", "big", "9223372036854775807");
      expect(c, "-ERR increment or decrement would overflow\r\n", "INCR", "big");
      expect(c, "$19\r\n9223372036854775807\r\n", "GET", "big");
      expect(c, "+OK\r\n", "SET", "neg", "-9223372036854775807");
      expect(c, ":-9223372036854775808\r\n", "DECR", "neg");
      expect(c, "-ERR increment or decrement would overflow\r\n", "DECR", "neg");
      expect(c, ":-9223372036854775807\r\n", "INCR", "neg");
      expect(c, "+OK\r\n", "SET", "z", "0");
      expect(c, ":1\r\n", "INCR", "z");
      for (String notInteger : new String[] {"-0", "01", " 1", "+1", "1a", "", "99999999999999999999"}) {
        expect(c, "+OK\r\n", "SET", "x", notInteger);
        expect(c, "-ERR value is not an integer or out of range\r\n", "INCR", "x");
      }
      expect(c, "+OK\r\n", "SET", "t", "5", "EX", "100");
      expect(c, ":6\r\n", "INCR", "t");
      c.command("TTL", "t");
      assertThat(c.reply()).isIn(":100\r\n", ":99\r\n", ":98\r\n");
      expect(c, ":1\r\n", "HSET", "h", "f", "v");
      expect(c, "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", "INCR", "h");
      expect(c, "+OK\r\n", "SET", "e", "41", "PX", "30");
      Thread.sleep(60);
      expect(c, ":1\r\n", "INCR", "e"); // expired: a new counter
      expect(c, "+OK\r\n", "SET", "d", "7");
      expect(c, ":1\r\n", "DEL", "d");
      expect(c, ":1\r\n", "INCR", "d");
      expect(c, ":9\r\n", "DBSIZE");
      PipelineSemanticsTest.dropCaches(server); // what storage holds
      expect(c, "$3\r\n-10\r\n", "GET", "n");
      expect(c, "$20\r\n-9223372036854775807\r\n", "GET", "neg");
      expect(c, ":7\r\n", "INCR", "t");
      expect(c, ":8\r\n", "INCR", "t"); // cached again: the fast path once more
    }
    server = server.restart(dir);
    try (RawClient c = new RawClient(server.address)) {
      expect(c, "$1\r\n8\r\n", "GET", "t");
      c.command("TTL", "t");
      assertThat(c.reply()).isIn(":100\r\n", ":99\r\n", ":98\r\n", ":97\r\n");
      expect(c, ":-9\r\n", "INCR", "n");
      expect(c, "$1\r\n1\r\n", "GET", "z");
      expect(c, "$1\r\n1\r\n", "GET", "e");
      expect(c, "+OK\r\n", "FLUSHALL");
      expect(c, ":1\r\n", "INCR", "n");
      expect(c, ":1\r\n", "DBSIZE");
    } finally {
      server.close();
    }
  }
}
