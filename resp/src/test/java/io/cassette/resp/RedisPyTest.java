package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * redis-py (Debian's python3-redis) against the server: scripts (EVAL, a registered script
 * through EVALSHA, FCALL) and streams (XADD, XREADGROUP, XACK). Skipped where the package is
 * not installed ({@code apt-get install python3-redis}).
 */
class RedisPyTest {
  private static final String PYTHON = "/usr/bin/python3";

  private static final String SCRIPT = String.join("\n",
      "import sys, redis",
      "r = redis.Redis(host='127.0.0.1', port=int(sys.argv[1]), socket_timeout=30)",
      "assert r.eval(\"return redis.call('set', KEYS[1], ARGV[1])\", 1, 'k', 'v') == b'OK'",
      "incr = r.register_script(\"return redis.call('incrby', KEYS[1], ARGV[1])\")",
      "assert incr(keys=['n'], args=[41]) == 41 and incr(keys=['n'], args=[1]) == 42",
      "assert r.script_exists(incr.sha) == [True]",
      "r.function_load(\"#!lua name=pylib\\nredis.register_function('hi', function(k, a) return 'hi ' .. a[1] end)\")",
      "assert r.fcall('hi', 0, 'py') == b'hi py'",
      "first = r.xadd('events', {'kind': 'start'})",
      "r.xadd('events', {'kind': 'stop'})",
      "assert r.xlen('events') == 2",
      "r.xgroup_create('events', 'workers', id='0')",
      "got = r.xreadgroup('workers', 'w1', {'events': '>'}, count=1)",
      "assert got[0][0] == b'events' and got[0][1][0][0] == first, got",
      "assert got[0][1][0][1] == {b'kind': b'start'}",
      "assert r.xack('events', 'workers', first) == 1",
      "assert r.xpending('events', 'workers')['pending'] == 0",
      "print('redis-py ' + redis.__version__ + ' ok')");

  @TempDir Path dir;

  @Test
  void scriptsAndStreams() throws Exception {
    Process probe = new ProcessBuilder(PYTHON, "-c", "import redis").redirectErrorStream(true).start();
    assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3-redis not installed");
    try (TestServer s = TestServer.start(dir)) {
      Process p = new ProcessBuilder(PYTHON, "-c", SCRIPT, Integer.toString(s.port()))
          .redirectErrorStream(true).start();
      boolean done = p.waitFor(60, TimeUnit.SECONDS);
      if (!done) {
        p.destroyForcibly();
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(done).as("redis-py finished within 60 s: %s", out).isTrue();
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(out).contains(" ok");
    }
  }
}
