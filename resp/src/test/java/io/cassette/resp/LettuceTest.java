package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.TestServer;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lettuce 6 speaks RESP3 (HELLO 3) by default: maps, doubles, sets, push messages. */
class LettuceTest {
  @TempDir
  static Path dir;
  static TestServer server;
  static RedisClient client;

  @BeforeAll
  static void start() {
    server = TestServer.start(dir);
    client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1")
        .withPort(server.port()).withTimeout(Duration.ofSeconds(5)).build());
  }

  @AfterAll
  static void stop() {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    server.close();
  }

  @Test
  void commandsOverResp3() {
    try (StatefulRedisConnection<String, String> conn = client.connect()) {
      RedisCommands<String, String> r = conn.sync();
      assertThat(r.ping()).isEqualTo("PONG");
      assertThat(r.set("k", "v", SetArgs.Builder.ex(100))).isEqualTo("OK");
      assertThat(r.get("k")).isEqualTo("v");
      assertThat(r.ttl("k")).isBetween(99L, 100L);
      assertThat(r.incrbyfloat("f", 1.5)).isEqualTo(1.5);
      r.hset("h", Map.of("a", "1", "b", "2"));
      assertThat(r.hgetall("h")).isEqualTo(Map.of("a", "1", "b", "2"));
      r.sadd("s", "x", "y");
      assertThat(r.smembers("s")).containsExactlyInAnyOrder("x", "y");
      r.zadd("z", 1.25, "a", 2.5, "b");
      assertThat(r.zscore("z", "b")).isEqualTo(2.5);
      assertThat(r.zrangeWithScores("z", 0, -1))
          .containsExactly(ScoredValue.just(1.25, "a"), ScoredValue.just(2.5, "b"));
      assertThat(r.zpopmin("z")).isEqualTo(ScoredValue.just(1.25, "a"));
      r.rpush("l", "1", "2", "3");
      assertThat(r.lrange("l", 0, -1)).containsExactly("1", "2", "3");
      assertThat(r.mget("k", "missing")).containsExactly(KeyValue.just("k", "v"),
          KeyValue.empty("missing"));
      assertThat(r.configGet("databases")).isEqualTo(Map.of("databases", "16"));
      assertThat(r.clientGetname()).isNull();
      assertThat(r.info("server")).contains("redis_version:7.0.15");
      assertThat(r.commandCount()).isGreaterThan(100L);
      assertThat(r.blpop(1, "l")).isEqualTo(KeyValue.just("l", "1"));
    }
  }

  @Test
  void transactionAndPushMessages() throws Exception {
    try (StatefulRedisConnection<String, String> conn = client.connect();
         StatefulRedisPubSubConnection<String, String> sub = client.connectPubSub()) {
      RedisCommands<String, String> r = conn.sync();
      r.multi();
      r.set("t", "1");
      r.incr("t");
      TransactionResult result = r.exec();
      assertThat(result.wasDiscarded()).isFalse();
      assertThat((List<Object>) result.stream().toList()).containsExactly("OK", 2L);

      BlockingQueue<String> got = new LinkedBlockingQueue<>();
      sub.addListener(new RedisPubSubAdapter<>() {
        @Override
        public void message(String channel, String message) {
          got.add(channel + ":" + message);
        }
      });
      sub.sync().subscribe("c");
      assertThat(r.publish("c", "hi")).isEqualTo(1L);
      assertThat(got.poll(5, TimeUnit.SECONDS)).isEqualTo("c:hi");
      // RESP3 lets a subscribed connection run ordinary commands too
      assertThat(sub.sync().ping()).isEqualTo("PONG");
    }
  }
}
