package io.cassette.resp.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.TestServer;
import io.lettuce.core.Consumer;
import io.lettuce.core.FlushMode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EVAL, EVALSHA and FCALL through Lettuce 6, which speaks RESP3 (HELLO 3); then streams:
 * XADD, XRANGE, a consumer group's read, ack and pending.
 */
class ScriptingLettuceTest {
  @TempDir Path dir;

  @Test
  void scriptsAndFunctionsOverResp3() {
    try (TestServer s = TestServer.start(dir)) {
      RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1")
          .withPort(s.port()).withTimeout(Duration.ofSeconds(10)).build());
      try (StatefulRedisConnection<String, String> conn = client.connect()) {
        RedisCommands<String, String> r = conn.sync();
        r.set("greeting", "hello");
        String get = "return redis.call('get', KEYS[1])";
        assertThat((String) r.eval(get, ScriptOutputType.VALUE, "greeting")).isEqualTo("hello");
        String sha = r.scriptLoad("return redis.call('incrby', KEYS[1], ARGV[1])");
        assertThat((Long) r.evalsha(sha, ScriptOutputType.INTEGER, new String[] {"n"}, "41"))
            .isEqualTo(41L);
        assertThat(r.scriptExists(sha)).containsExactly(true);
        List<Object> multi = r.eval("return {1, 'a', {2}}", ScriptOutputType.MULTI);
        assertThat(multi).containsExactly(1L, "a", List.of(2L));
        // RESP3 from inside the script: a map reply comes back as a map
        assertThat((Object) r.eval("redis.setresp(3) return redis.call('hgetall', KEYS[1])",
            ScriptOutputType.MULTI, "nohash")).isNotNull();
        assertThat((Boolean) r.eval("redis.setresp(3) return true", ScriptOutputType.BOOLEAN))
            .isTrue();
        assertThatThrownBy(() -> r.eval("return redis.call('incr', KEYS[1])",
            ScriptOutputType.INTEGER, "greeting"))
            .hasMessageContaining("ERR value is not an integer or out of range");
        r.scriptFlush(FlushMode.SYNC);
        assertThat(r.scriptExists(sha)).containsExactly(false);

        String lib = "#!lua name=lettucelib\n"
            + "redis.register_function('hello', function(keys, args) return 'hello ' .. args[1] end)\n"
            + "redis.register_function{function_name='count', callback=function(keys)\n"
            + "  return redis.call('strlen', keys[1]) end, flags={'no-writes'}}";
        assertThat(r.functionLoad(lib)).isEqualTo("lettucelib");
        assertThat((String) r.fcall("hello", ScriptOutputType.VALUE, new String[0], "world"))
            .isEqualTo("hello world");
        assertThat((Long) r.fcallReadOnly("count", ScriptOutputType.INTEGER, "greeting"))
            .isEqualTo(5L);
        byte[] dump = r.functionDump();
        assertThat(r.functionFlush(FlushMode.SYNC)).isEqualTo("OK");
        assertThat(r.functionList()).isEmpty();
        assertThat(r.functionRestore(dump)).isEqualTo("OK");
        assertThat(r.functionList()).hasSize(1);
        streamConsumerGroup(r); // on the same connection: a second client start costs seconds
      } finally {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      }
    }
  }

  private static void streamConsumerGroup(RedisCommands<String, String> r) {
    String first = r.xadd("orders", Map.of("item", "tea"));
    r.xadd("orders", Map.of("item", "cake"));
    assertThat(r.xlen("orders")).isEqualTo(2);
    List<StreamMessage<String, String>> all = r.xrange("orders", io.lettuce.core.Range.create("-", "+"));
    assertThat(all).extracting(StreamMessage::getId).first().isEqualTo(first);
    assertThat(all.get(1).getBody()).containsEntry("item", "cake");

    assertThat(r.xgroupCreate(XReadArgs.StreamOffset.from("orders", "0"), "kitchen")).isEqualTo("OK");
    List<StreamMessage<String, String>> got = r.xreadgroup(Consumer.from("kitchen", "alice"),
        XReadArgs.Builder.count(1), XReadArgs.StreamOffset.lastConsumed("orders"));
    assertThat(got).hasSize(1);
    assertThat(got.get(0).getBody()).containsEntry("item", "tea");
    assertThat(r.xpending("orders", "kitchen").getCount()).isEqualTo(1);
    assertThat(r.xack("orders", "kitchen", got.get(0).getId())).isEqualTo(1);
    assertThat(r.xpending("orders", "kitchen").getCount()).isZero();
    assertThat(r.xinfoGroups("orders")).hasSize(1);
  }
}
