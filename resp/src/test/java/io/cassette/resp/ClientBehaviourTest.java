package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/** Behaviour through Jedis, a real client: what an application sees. */
class ClientBehaviourTest {
  @TempDir
  Path dir;

  private static Jedis jedis(TestServer s) {
    return new Jedis(new HostAndPort("127.0.0.1", s.port()),
        DefaultJedisClientConfig.builder().timeoutMillis(5000).build());
  }

  @Test
  void runsOnTheRealStorageEngine() {
    try (TestServer s = TestServer.start(dir)) {
    }
  }

  @Test
  void dataAndTtlsSurviveARestart() throws Exception {
    TestServer s = TestServer.start(dir);
    try (Jedis j = jedis(s)) {
      j.set("plain", "v");
      j.set("ttl", "v", SetParams.setParams().ex(1000));
      j.hset("h", Map.of("a", "1", "b", "2"));
      j.rpush("l", "x", "y", "z");
      j.zadd("z", 2.5, "m");
      j.sadd("s", "one");
      j.set("gone", "v", SetParams.setParams().px(50));
      j.select(3);
      j.set("db3", "v");
    }
    Thread.sleep(60); // "gone" has expired by now, whatever the restart takes
    s = s.restart(dir);
    try (Jedis j = jedis(s)) {
      assertThat(j.get("plain")).isEqualTo("v");
      assertThat(j.ttl("ttl")).isBetween(990L, 1000L);
      assertThat(j.hgetAll("h")).isEqualTo(Map.of("a", "1", "b", "2"));
      assertThat(j.lrange("l", 0, -1)).containsExactly("x", "y", "z");
      assertThat(j.zscore("z", "m")).isEqualTo(2.5);
      assertThat(j.smembers("s")).containsExactly("one");
      assertThat(j.get("gone")).isNull();
      j.select(3);
      assertThat(j.get("db3")).isEqualTo("v");
      assertThat(j.dbSize()).isEqualTo(1);
    } finally {
      s.close();
    }
  }

  @Test
  void keysExpireLazilyAndActively() throws Exception {
    try (TestServer s = TestServer.start(dir); Jedis j = jedis(s)) {
      Pipeline p = j.pipelined();
      for (int i = 0; i < 50; i++) {
        p.set("e" + i, "v", SetParams.setParams().px(300));
      }
      p.set("keep", "v");
      p.sync();
      assertThat(j.dbSize()).isBetween(1L, 51L);
      Thread.sleep(350);
      assertThat(j.get("e0")).isNull(); // lazy
      long deadline = System.currentTimeMillis() + 3000;
      while (j.dbSize() > 1 && System.currentTimeMillis() < deadline) {
        Thread.sleep(50); // the active cycle removes the keys nobody reads
      }
      assertThat(j.dbSize()).isEqualTo(1);
      assertThat(j.keys("*")).containsExactly("keep");
    }
  }

  @Test
  void watchedKeyChangedByAnotherClientAbortsExec() {
    try (TestServer s = TestServer.start(dir); Jedis a = jedis(s); Jedis b = jedis(s)) {
      a.set("balance", "10");
      a.watch("balance");
      b.incrBy("balance", 5);
      Transaction t = a.multi();
      t.set("balance", "0");
      assertThat(t.exec()).isNull();
      assertThat(a.get("balance")).isEqualTo("15");

      a.watch("balance");
      Transaction t2 = a.multi();
      Response<Long> r = t2.incr("balance");
      t2.get("balance");
      assertThat(t2.exec()).containsExactly(16L, "16");
      assertThat(r.get()).isEqualTo(16L);
    }
  }

  @Test
  void publishReachesChannelAndPatternSubscribers() throws Exception {
    try (TestServer s = TestServer.start(dir); Jedis sub = jedis(s); Jedis pub = jedis(s)) {
      CountDownLatch subscribed = new CountDownLatch(2);
      CountDownLatch channelSubscribed = new CountDownLatch(1);
      CountDownLatch received = new CountDownLatch(2);
      List<String> got = new java.util.concurrent.CopyOnWriteArrayList<>();
      JedisPubSub listener = new JedisPubSub() {
        @Override
        public void onMessage(String channel, String message) {
          got.add(channel + "=" + message);
          received.countDown();
        }

        @Override
        public void onPMessage(String pattern, String channel, String message) {
          got.add(pattern + ":" + channel + "=" + message);
          received.countDown();
        }

        @Override
        public void onSubscribe(String channel, int count) {
          subscribed.countDown();
          channelSubscribed.countDown();
        }

        @Override
        public void onPSubscribe(String pattern, int count) {
          subscribed.countDown();
        }
      };
      CompletableFuture<Void> loop = CompletableFuture.runAsync(() -> {
        sub.subscribe(listener, "news");
      });
      // psubscribe needs the listener bound to its connection: wait for the SUBSCRIBE reply.
      assertThat(channelSubscribed.await(5, TimeUnit.SECONDS)).isTrue();
      listener.psubscribe("n*");
      assertThat(subscribed.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(pub.publish("news", "hello")).isEqualTo(2);
      assertThat(received.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(got).containsExactlyInAnyOrder("news=hello", "n*:news=hello");
      assertThat(pub.pubsubNumSub("news")).containsEntry("news", 1L);
      listener.unsubscribe();
      listener.punsubscribe();
      loop.get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void blockingPopTimesOutOrIsServedByAPush() throws Exception {
    try (TestServer s = TestServer.start(dir); Jedis a = jedis(s); Jedis b = jedis(s)) {
      long start = System.nanoTime();
      assertThat(a.blpop(0.2, "queue")).isNull();
      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(150L, 2000L);

      CompletableFuture<List<String>> waiting = CompletableFuture.supplyAsync(
          () -> a.brpop(5, "q1", "q2"));
      Thread.sleep(100);
      assertThat(waiting).isNotDone();
      b.lpush("q2", "job");
      assertThat(waiting.get(5, TimeUnit.SECONDS)).containsExactly("q2", "job");
      assertThat(b.exists("q2")).isFalse();

      CompletableFuture<String> moving = CompletableFuture.supplyAsync(
          () -> a.blmove("src", "dst", redis.clients.jedis.args.ListDirection.LEFT,
              redis.clients.jedis.args.ListDirection.RIGHT, 5));
      Thread.sleep(100);
      b.rpush("src", "item");
      assertThat(moving.get(5, TimeUnit.SECONDS)).isEqualTo("item");
      assertThat(b.lrange("dst", 0, -1)).containsExactly("item");
    }
  }

  @Test
  void resp3ThroughJedis() {
    try (TestServer s = TestServer.start(dir);
         Jedis j = new Jedis(new HostAndPort("127.0.0.1", s.port()),
             DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).build())) {
      j.hset("h", Map.of("f", "v"));
      assertThat(j.hgetAll("h")).isEqualTo(Map.of("f", "v"));
      j.zadd("z", 1.5, "a");
      assertThat(j.zscore("z", "a")).isEqualTo(1.5);
      assertThat(j.zrangeWithScores("z", 0, -1).get(0).getScore()).isEqualTo(1.5);
      assertThat(j.get("missing")).isNull();
      assertThat(j.smembers("none")).isEmpty();
    }
  }

  @Test
  void pipelineOfManyCommands() {
    try (TestServer s = TestServer.start(dir); Jedis j = jedis(s)) {
      Pipeline p = j.pipelined();
      for (int i = 0; i < 2000; i++) {
        p.set("k" + i, "v" + i);
        p.incr("counter");
      }
      Response<String> last = p.get("k1999");
      p.sync();
      assertThat(last.get()).isEqualTo("v1999");
      assertThat(j.get("counter")).isEqualTo("2000");
      assertThat(j.dbSize()).isEqualTo(2001);
    }
  }

  @Test
  void requirePassGatesCommandsUntilAuth() {
    try (TestServer s = TestServer.start(dir, o -> o.withRequirePass("secret"));
         Jedis j = jedis(s)) {
      assertThatThrownBy(() -> j.get("a")).isInstanceOf(JedisDataException.class)
          .hasMessage("NOAUTH Authentication required.");
      assertThatThrownBy(() -> j.auth("wrong")).isInstanceOf(JedisDataException.class)
          .hasMessage("WRONGPASS invalid username-password pair or user is disabled.");
      assertThat(j.auth("secret")).isEqualTo("OK");
      assertThat(j.set("a", "1")).isEqualTo("OK");
    }
  }

  @Test
  void deletingAHugeHashIsOneWriteAndLeavesNothingBehind() {
    try (TestServer s = TestServer.start(dir); Jedis j = jedis(s)) {
      Pipeline p = j.pipelined();
      for (int i = 0; i < 5000; i++) {
        p.hset("big", "f" + i, "v");
      }
      p.sync();
      assertThat(j.hlen("big")).isEqualTo(5000);
      long start = System.nanoTime();
      assertThat(j.del("big")).isEqualTo(1);
      assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(200);
      j.hset("big", "new", "1");
      assertThat(j.hgetAll("big")).isEqualTo(Map.of("new", "1"));
    }
  }

  @Test
  void unixSocketServesRequests() throws Exception {
    Path sock = dir.resolve("redis.sock");
    try (TestServer s = TestServer.start(dir.resolve("d"), o -> o.withUnixSocket(sock, 0700));
         SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
          java.nio.file.Files.getPosixFilePermissions(sock))).isEqualTo("rwx------");
      ch.connect(UnixDomainSocketAddress.of(sock));
      ch.write(ByteBuffer.wrap("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII)));
      ByteBuffer in = ByteBuffer.allocate(64);
      long deadline = System.currentTimeMillis() + 3000;
      while (in.position() < 7 && System.currentTimeMillis() < deadline) {
        ch.read(in);
      }
      assertThat(new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII))
          .isEqualTo("+PONG\r\n");
    }
  }

  @Test
  void slowSubscriberIsDisconnectedAtTheOutputLimit() throws Exception {
    try (TestServer s = TestServer.start(dir, o -> o.withPubsubOutputLimit(256 * 1024));
         RawClient slow = new RawClient(s.address); Jedis pub = jedis(s); Jedis other = jedis(s)) {
      slow.command("SUBSCRIBE", "firehose");
      assertThat(slow.reply()).startsWith("*3\r\n$9\r\nsubscribe");
      String payload = "x".repeat(16 * 1024);
      int sent = 0;
      while (sent < 4000 && pub.pubsubNumSub("firehose").get("firehose") > 0) {
        pub.publish("firehose", payload); // the subscriber never reads
        sent++;
      }
      assertThat(pub.pubsubNumSub("firehose").get("firehose")).isZero();
      assertThat(other.ping()).isEqualTo("PONG");
    }
  }
}
