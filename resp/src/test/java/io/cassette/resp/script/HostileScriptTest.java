package io.cassette.resp.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Scripts that try to take the node down: a table grown without end, a string doubled without
 * end, endless recursion, scripts escaping the sandbox. Each gets an error; the node serves
 * on. (The test JVM's heap is the surefire default; the guard acts on a fraction of it.)
 */
class HostileScriptTest {
  @TempDir Path dir;

  @Test
  void memoryHogsAreStoppedAndTheNodeServesOn() {
    // The test JVM's heap is large: let scripts have 64 MB more than what is live now, as on
    // a board with a small heap (the default is 60% of the heap). (150 MB took over 120 s at load 35:
    // each look past the limit is a full collection of what the hog holds.)
    Runtime rt = Runtime.getRuntime();
    System.gc();
    long live = rt.totalMemory() - rt.freeMemory();
    System.setProperty("cassette.script.maxHeapBytes", Long.toString(live + (64L << 20)));
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port(), 120_000)) {
      j.set("before", "1");
      // distinct strings (~60 B each): the one constant string took ~40M slots and over 120 s at load 35
      assertThatThrownBy(() -> j.eval("local t = {} while true do t[#t+1] = 'xxxxxxxxxxxxxxxx' .. #t end"))
          .hasMessageContaining("Script used too much memory");
      assertThatThrownBy(() -> j.eval("local s = 'x' while true do s = s .. s end"))
          .hasMessageContaining("not enough memory");
      assertThatThrownBy(() -> j.eval("return string.rep('x', 2^40)"))
          .hasMessageContaining("not enough memory");
      assertThatThrownBy(() -> j.eval("local t = {} for i = 1, 16 do t[i] = string.rep('y', 2^23) end "
          + "local s = table.concat(t) return #s .. #(s .. s .. s .. s .. s)"))
          .hasMessageContaining("not enough memory");
      assertThatThrownBy(() -> j.eval("local t = {} for i = 1, 1e9 do t[i] = {i} end"))
          .hasMessageContaining("Script used too much memory");
      assertThat(j.get("before")).isEqualTo("1");
      assertThat(j.eval("return 'still here'")).isEqualTo("still here");
      // Garbage alone is no reason to stop a script.
      assertThat(j.eval("local n = 0 for i = 1, 300000 do local t = {i, tostring(i)} n = n + #t end "
          + "return n")).isEqualTo(600000L);
    } finally {
      System.clearProperty("cassette.script.maxHeapBytes");
    }
  }

  @Test
  void recursionAndSandboxEscapes() throws Exception {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port(), 60_000)) {
      assertThatThrownBy(() -> j.eval("local function f(n) return 1 + f(n + 1) end return f(1)"))
          .hasMessageContaining("stack overflow");
      assertThatThrownBy(() -> j.eval("return os.execute('true')"))
          .hasMessageContaining("nonexistent global variable 'os'");
      assertThatThrownBy(() -> j.eval("return io.open('/etc/passwd')"))
          .hasMessageContaining("nonexistent global variable 'io'");
      assertThatThrownBy(() -> j.eval("return luajava.bindClass('java.lang.System')"))
          .hasMessageContaining("nonexistent global variable 'luajava'");
      assertThatThrownBy(() -> j.eval("return require('os')"))
          .hasMessageContaining("nonexistent global variable 'require'");
      assertThat(j.eval("return loadstring(string.dump(function() return 1 end))"))
          .isNull(); // binary chunks are refused
      assertThatThrownBy(() -> j.eval("getmetatable('').__index.upper = function() return 'p' end"))
          .hasMessageContaining("Attempt to modify a readonly table");
      assertThat(j.eval("return string.upper('a')")).isEqualTo("A");
      try (RawClient raw = new RawClient(s.address)) { // a table holding itself: Redis's answer
        raw.command("EVAL", "local a = {} a[1] = a return a", "0");
        String line;
        int depth = 0;
        while ((line = raw.line().strip()).equals("*1")) {
          depth++;
        }
        assertThat(line).isEqualTo("-ERR reached lua stack limit");
        assertThat(depth).isGreaterThan(100);
        raw.command("PING");
        assertThat(raw.line().strip()).isEqualTo("+PONG");
      }
      assertThat(j.eval("return redis.call('ping')")).isEqualTo("PONG");
      assertThat(j.eval("return 1", List.of(), List.of())).isEqualTo(1L);
    }
  }
}
