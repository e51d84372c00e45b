package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.TestServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Debian's redis-cli against the server: one-shot commands, RESP3, --pipe, --scan. */
class RedisCliTest {
  private static final String CLI = "/usr/bin/redis-cli";
  @TempDir
  static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() {
    assumeTrue(new File(CLI).canExecute(), "redis-cli not installed");
    server = TestServer.start(dir);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static String cli(String stdin, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(CLI, "-h", "127.0.0.1", "-p",
        Integer.toString(server.port())));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    if (stdin != null) {
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    p.getOutputStream().close();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void oneShotCommands() throws Exception {
    assertThat(cli(null, "PING")).isEqualTo("PONG\n");
    assertThat(cli(null, "SET", "greeting", "hello world")).isEqualTo("OK\n");
    assertThat(cli(null, "GET", "greeting")).isEqualTo("hello world\n");
    assertThat(cli(null, "RPUSH", "l", "a", "b")).isEqualTo("2\n");
    assertThat(cli(null, "LRANGE", "l", "0", "-1")).isEqualTo("a\nb\n");
    assertThat(cli(null, "NOSUCH")).startsWith("ERR unknown command 'NOSUCH'");
    assertThat(cli(null, "-3", "HSET", "h", "f", "v")).isEqualTo("1\n");
    assertThat(cli(null, "-3", "HGETALL", "h")).isEqualTo("f v\n"); // a RESP3 map
    assertThat(cli(null, "-3", "ZADD", "z", "1.5", "m")).isEqualTo("1\n");
    assertThat(cli(null, "-3", "ZSCORE", "z", "m")).isEqualTo("1.5\n");
  }

  @Test
  void pipeModeAndScan() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      sb.append("SET pipe:").append(i).append(' ').append(i).append("\r\n");
    }
    String out = cli(sb.toString(), "--pipe");
    assertThat(out).contains("errors: 0, replies: 500");
    String keys = cli(null, "--scan", "--pattern", "pipe:*");
    assertThat(keys.lines().count()).isEqualTo(500);
    assertThat(cli(null, "GET", "pipe:499")).isEqualTo("499\n");
  }
}
