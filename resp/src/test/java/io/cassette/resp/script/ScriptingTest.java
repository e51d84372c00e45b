package io.cassette.resp.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Scripts and functions through Jedis: EVAL/EVALSHA/SCRIPT, FCALL/FCALL_RO, atomicity
 * against other clients, BUSY and SCRIPT KILL, functions across a restart.
 */
class ScriptingTest {
  @TempDir Path dir;

  @Test
  void evalEvalshaAndScriptCache() {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port())) {
      j.set("k", "v");
      assertThat(j.eval("return redis.call('get', KEYS[1])", List.of("k"), List.of()))
          .isEqualTo("v");
      assertThat(j.eval("return {1, 'two', {3}}")).isEqualTo(List.of(1L, "two", List.of(3L)));
      String sha = j.scriptLoad("return ARGV[1] .. KEYS[1]");
      assertThat(sha).isEqualTo(ScriptCache.sha1hex("return ARGV[1] .. KEYS[1]"));
      assertThat(j.evalsha(sha, List.of("k"), List.of("x"))).isEqualTo("xk");
      assertThat(j.scriptExists(sha, "0000000000000000000000000000000000000000"))
          .containsExactly(true, false);
      j.scriptFlush();
      assertThatThrownBy(() -> j.evalsha(sha, List.of(), List.of()))
          .hasMessageStartingWith("NOSCRIPT");
      assertThatThrownBy(() -> j.eval("return redis.call('incr', KEYS[1])", List.of("k"), List.of()))
          .isInstanceOf(JedisDataException.class)
          .hasMessageContaining("ERR value is not an integer or out of range script: ");
      assertThat(j.evalReadonly("return redis.call('get', KEYS[1])", List.of("k"), List.of()))
          .isEqualTo("v");
      assertThatThrownBy(() -> j.evalReadonly("return redis.call('del', KEYS[1])", List.of("k"),
          List.of())).hasMessageContaining("Write commands are not allowed from read-only scripts");
      assertThat(j.get("k")).isEqualTo("v");
    }
  }

  @Test
  void functionsLoadCallAndSurviveARestart() {
    String lib = "#!lua name=counter\n"
        + "redis.register_function('bump', function(keys, args)\n"
        + "  return redis.call('incrby', keys[1], args[1]) end)\n"
        + "redis.register_function{function_name='peek', callback=function(keys)\n"
        + "  return redis.call('get', keys[1]) end, flags={'no-writes'}}\n";
    TestServer s = TestServer.start(dir, o -> o, r -> r.functionsFile(dir.resolve("functions")));
    try (Jedis j = new Jedis("127.0.0.1", s.port())) {
      assertThat(j.functionLoad(lib)).isEqualTo("counter");
      assertThat(j.fcall("bump", List.of("c"), List.of("5"))).isEqualTo(5L);
      assertThat(j.fcallReadonly("peek", List.of("c"), List.of())).isEqualTo("5");
      assertThatThrownBy(() -> j.fcallReadonly("bump", List.of("c"), List.of("1")))
          .hasMessageContaining("Can not execute a script with write flag using *_ro command.");
    } finally {
      s.close();
    }
    s = TestServer.start(dir, o -> o, r -> r.functionsFile(dir.resolve("functions")));
    try (Jedis j = new Jedis("127.0.0.1", s.port())) {
      assertThat(j.fcall("bump", List.of("c"), List.of("2"))).isEqualTo(7L);
      assertThat(j.functionList()).hasSize(1);
      j.functionDelete("counter");
      assertThatThrownBy(() -> j.fcall("bump", List.of("c"), List.of("1")))
          .hasMessageContaining("Function not found");
    } finally {
      s.close();
    }
    s = TestServer.start(dir, o -> o, r -> r.functionsFile(dir.resolve("functions")));
    try (Jedis j = new Jedis("127.0.0.1", s.port())) {
      assertThat(j.functionList()).isEmpty(); // the delete persisted too
    } finally {
      s.close();
    }
  }

  @Test
  void aScriptIsAtomicAgainstOtherClients() throws Exception {
    try (TestServer s = TestServer.start(dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        // The script reads, spins, then writes: any INCR landing in between would be lost.
        String script = "local v = tonumber(redis.call('get', KEYS[1]) or '0')\n"
            + "local x = 0 for i = 1, 20000 do x = x + i end\n"
            + "redis.call('set', KEYS[1], v + 1) return v + 1";
        Future<?> scripts = pool.submit(() -> {
          try (Jedis j = new Jedis("127.0.0.1", s.port())) {
            for (int i = 0; i < 100; i++) {
              j.eval(script, List.of("n"), List.of());
            }
          }
          return null;
        });
        Future<?> incrs = pool.submit(() -> {
          try (Jedis j = new Jedis("127.0.0.1", s.port())) {
            for (int i = 0; i < 300; i++) {
              j.incr("n");
            }
          }
          return null;
        });
        scripts.get(60, TimeUnit.SECONDS);
        incrs.get(60, TimeUnit.SECONDS);
        try (Jedis j = new Jedis("127.0.0.1", s.port())) {
          assertThat(j.get("n")).isEqualTo("400");
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void aLongScriptMakesOthersBusyUntilScriptKill() throws Exception {
    try (TestServer s = TestServer.start(dir);
         Jedis admin = new Jedis("127.0.0.1", s.port());
         Jedis runner = new Jedis("127.0.0.1", s.port(), 30_000)) {
      admin.configSet("busy-reply-threshold", "100");
      assertThat(admin.configGet("lua-time-limit")).containsEntry("lua-time-limit", "100");
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<Object> loop = pool.submit(() -> runner.eval("while true do end"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String seen = null;
        while (System.nanoTime() < deadline) {
          try {
            admin.ping();
            Thread.sleep(20);
          } catch (JedisDataException e) {
            seen = e.getMessage();
            break;
          }
        }
        assertThat(seen).startsWith("BUSY Redis is busy running a script.");
        assertThat(admin.functionKill()).isNull();
      } catch (JedisDataException e) {
        assertThat(e.getMessage()).startsWith("BUSY"); // FUNCTION KILL refuses an EVAL script
        assertThat(admin.scriptKill()).isEqualTo("OK");
      } finally {
        pool.shutdown();
      }
      assertThat(pool.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
      assertThat(admin.ping()).isEqualTo("PONG");
      assertThat(runner.ping()).isEqualTo("PONG"); // its connection goes on after the error
      assertThatThrownBy(admin::scriptKill).hasMessageStartingWith("NOTBUSY");
    }
  }

  @Test
  void aScriptThatWroteCannotBeKilled() throws Exception {
    try (TestServer s = TestServer.start(dir);
         Jedis admin = new Jedis("127.0.0.1", s.port());
         Jedis runner = new Jedis("127.0.0.1", s.port(), 30_000)) {
      admin.configSet("busy-reply-threshold", "200");
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<Object> script = pool.submit(() -> runner.eval(
            "redis.call('set', 'w', '1') local t = redis.call('time') "
                + "local stop = tonumber(t[1]) + 1 "
                + "while tonumber(redis.call('time')[1]) <= stop do end return 'done'"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String kill = null;
        while (System.nanoTime() < deadline && kill == null) {
          try {
            kill = admin.scriptKill(); // OK: on a loaded machine it may come before the write
          } catch (JedisDataException e) {
            if (!e.getMessage().startsWith("NOTBUSY")) {
              kill = e.getMessage();
            }
          }
          Thread.sleep(10);
        }
        if (kill.equals("OK")) { // killed before its write: nothing was written
          assertThatThrownBy(() -> script.get(20, TimeUnit.SECONDS))
              .hasMessageContaining("Script killed by user");
          assertThat(admin.get("w")).isNull();
        } else {
          assertThat(kill).startsWith("UNKILLABLE");
          assertThat(script.get(20, TimeUnit.SECONDS)).isEqualTo("done");
          assertThat(admin.get("w")).isEqualTo("1");
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
