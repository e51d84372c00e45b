package io.cassette.resp.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short form of Redis's own Tcl suite (7.0.15, portable profile) in the normal test run:
 * a few fast units against a Cassette server in this JVM, each passing at least 95% of what
 * real Redis passes (issue 20's bar). The whole suite, against a real node process:
 * {@code bench/redis-suite}. Skipped without tclsh, redis-cli or the suite
 * ({@code ../shared/redis-tests-7.0.15} and its runner).
 */
public class RedisSuiteShortTest {
  /** Unit -> tests real Redis 7.0.15 passes with the same flags (bench/redis-suite's table). */
  static final Map<String, Integer> UNITS = Map.of("unit/functions", 86);
  static final long UNIT_TIMEOUT_SECONDS = 300;

  @TempDir Path dir;

  @Test
  void fastUnitsPassAsOnRedis() throws Exception {
    passAsOnRedis(dir, UNITS);
  }

  /**
   * Runs each unit against one in-JVM server in {@code dir}; each must pass >= 95% of real
   * Redis's count (the map's values). Skipped (assumption) without the suite or its tools.
   */
  public static void passAsOnRedis(Path dir, Map<String, Integer> units) throws Exception {
    Path shared = findShared();
    assumeTrue(shared != null, "no shared/redis-tests-7.0.15 beside the checkout");
    assumeTrue(onPath("tclsh") && onPath("redis-cli"), "tclsh or redis-cli not installed");
    Path runner = shared.resolve("anchors/redis/run-redis-suite.sh");
    try (TestServer s = TestServer.start(dir.resolve("node"))) {
      for (Map.Entry<String, Integer> unit : units.entrySet()) {
        Path log = dir.resolve("runner.log");
        ProcessBuilder pb = new ProcessBuilder("bash", runner.toString(),
            shared.resolve("redis-tests-7.0.15").toString(), "127.0.0.1:" + s.port())
            .redirectErrorStream(true).redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .directory(dir.toFile());
        pb.environment().put("UNITS", unit.getKey());
        pb.environment().put("PROFILE", "portable");
        pb.environment().put("COPY_SUITE", "1");
        pb.environment().put("TMPDIR", dir.toString());
        pb.environment().put("LOGDIR", dir.resolve("logs").toString());
        pb.environment().put("UNIT_TIMEOUT", Long.toString(UNIT_TIMEOUT_SECONDS));
        Process run = pb.start();
        boolean ended = run.waitFor(UNIT_TIMEOUT_SECONDS + 60, TimeUnit.SECONDS);
        if (!ended) {
          run.descendants().forEach(ProcessHandle::destroyForcibly);
          run.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("^" + Pattern.quote(unit.getKey()) + "\\s.*\\bok=(\\d+)",
            Pattern.MULTILINE).matcher(out);
        assertThat(m.find()).as("runner output:\n%s", out).isTrue();
        int passed = Integer.parseInt(m.group(1));
        assertThat(passed).as("%s: %d of Redis's %d tests pass; logs in %s\n%s", unit.getKey(),
            passed, unit.getValue(), dir.resolve("logs"), out)
            .isGreaterThanOrEqualTo((int) Math.ceil(unit.getValue() * 0.95));
      }
    }
  }

  private static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(d, tool))) {
        return true;
      }
    }
    return false;
  }

  /** shared/ beside the checkout (or beside the checkout's parent: worktrees). */
  private static Path findShared() throws IOException {
    Path d = Path.of("").toAbsolutePath();
    for (int i = 0; i < 5 && d != null; i++, d = d.getParent()) {
      Path s = d.resolve("shared");
      if (Files.isDirectory(s.resolve("redis-tests-7.0.15/tests"))
          && Files.isRegularFile(s.resolve("anchors/redis/run-redis-suite.sh"))) {
        return s;
      }
    }
    return null;
  }
}
