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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the same command scripts against Cassette and a real Redis 7.0 and requires identical
 * replies, byte for byte (a line starting with "~" compares its reply as an unordered set,
 * for commands whose order Redis leaves to its hash tables). Skipped without redis-server.
 */
class DifferentialTest {
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
    return Scripts.ALL.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
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
        boolean unordered = line.startsWith("~");
        if (unordered) {
          line = line.substring(1);
        }
        String[] args = split(line);
        a.command(args);
        b.command(args);
        String mine = a.reply();
        String theirs = b.reply();
        if (unordered) {
          mine = sorted(mine);
          theirs = sorted(theirs);
        }
        assertThat(mine).as("%s line %d: %s", name, lineNo, line).isEqualTo(theirs);
      }
    }
  }

  /** The reply's lines sorted (good enough to compare flat arrays of bulk strings). */
  private static String sorted(String reply) {
    String[] lines = reply.split("\r\n");
    if (lines.length < 2) {
      return reply;
    }
    List<String> elements = new ArrayList<>();
    for (int i = 1; i + 1 < lines.length; i += 2) {
      elements.add(lines[i] + "|" + lines[i + 1]);
    }
    elements.sort(String::compareTo);
    return lines[0] + " " + elements;
  }

  /** Splits on spaces; "double quotes" group (no escapes needed in our scripts). */
  static String[] split(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = null;
    boolean quoted = false;
    for (char ch : line.toCharArray()) {
      if (ch == '"') {
        if (cur == null) {
          cur = new StringBuilder();
        }
        quoted = !quoted;
      } else if (ch == ' ' && !quoted) {
        if (cur != null) {
          out.add(cur.toString());
          cur = null;
        }
      } else {
        if (cur == null) {
          cur = new StringBuilder();
        }
        cur.append(ch);
      }
    }
    if (cur != null) {
      out.add(cur.toString());
    }
    return out.toArray(new String[0]);
  }
}
