package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.RealRedis;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 20's Redis 7.0 families (encoding settings and OBJECT, keyspace notifications,
 * bitmaps, HyperLogLog, SORT, geo) replayed against Cassette and a real redis-server 7.0,
 * byte for byte, as {@link DifferentialTest} does ({@link Redis7Scripts} holds the scripts).
 * Skipped without redis-server.
 */
class Redis7TypesDifferentialTest {
  @TempDir
  static Path dir;
  static TestServer cassette;
  static RealRedis redis;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(RealRedis.available(), "redis-server not installed");
    cassette = TestServer.start(dir.resolve("cassette"));
    redis = new RealRedis(dir.resolve("redis"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (cassette != null) {
      cassette.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  static Stream<Arguments> scripts() {
    return Redis7Scripts.ALL.entrySet().stream()
        .map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  /** The messages a PSUBSCRIBE * client receives while {@link Redis7Scripts#NOTIFIED} runs. */
  @Test
  void keyspaceNotificationsAsRedis() throws Exception {
    assertThat(notifications(cassette.address)).isEqualTo(notifications(redis.address));
  }

  private static List<String> notifications(java.net.InetSocketAddress address) throws Exception {
    try (RawClient c = new RawClient(address); RawClient sub = new RawClient(address)) {
      c.command("FLUSHALL");
      c.reply();
      c.command("CONFIG", "SET", "notify-keyspace-events", "KEAn");
      c.reply();
      sub.readTimeout(10_000);
      sub.command("PSUBSCRIBE", "*");
      sub.reply();
      for (String line : Redis7Scripts.NOTIFIED.split("\n")) {
        if (!line.isBlank()) {
          c.command(DifferentialTest.split(line.strip()));
          c.reply();
        }
      }
      c.command("PUBLISH", "end", "end"); // delivered after every event before it
      c.reply();
      c.command("CONFIG", "SET", "notify-keyspace-events", "");
      c.reply();
      List<String> got = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        String m = sub.reply();
        if (m.contains("\r\nend\r\n")) {
          return got;
        }
        got.add(m);
      }
      return got;
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scripts")
  void sameRepliesAsRedis(String name, String script) throws Exception {
    try (RawClient a = new RawClient(cassette.address);
         RawClient b = new RawClient(redis.address)) {
      for (RawClient c : List.of(a, b)) {
        c.command("FLUSHALL");
        c.reply();
      }
      int lineNo = 0;
      for (String raw : script.split("\n")) {
        lineNo++;
        String line = raw.strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] args = DifferentialTest.split(line);
        a.command(args);
        b.command(args);
        assertThat(a.reply()).as("%s line %d: %s", name, lineNo, line).isEqualTo(b.reply());
      }
    }
  }
}
