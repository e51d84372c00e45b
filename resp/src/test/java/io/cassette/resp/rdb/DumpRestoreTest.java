package io.cassette.resp.rdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.RealRedis;
import io.cassette.resp.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.MigrateParams;
import redis.clients.jedis.params.RestoreParams;

/** DUMP, RESTORE and MIGRATE on a Cassette node, and with a real redis-server 7.0 both ways. */
class DumpRestoreTest {
  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void fill(Jedis j) {
    j.set("s", "hello");
    j.set("n", "42");
    j.rpush("l", "a", "b", "7", "c");
    j.sadd("si", "1", "2", "3");
    j.sadd("ss", "x", "y");
    j.hset("h", Map.of("f1", "v1", "f2", "2"));
    j.zadd("z", Map.of("a", 1.0, "b", 2.5, "c", -3.0));
    for (int i = 0; i < 300; i++) { // past the listpack thresholds
      j.rpush("bl", "e" + i);
      j.hset("bh", "f" + i, "v" + i);
      j.zadd("bz", i * 0.5, "m" + i);
      j.sadd("bs", "m" + i);
    }
    j.set("ex", "v");
    j.pexpireAt("ex", 4102444800000L);
  }

  private static void assertSame(Jedis a, Jedis b) {
    assertThat(b.get("s")).isEqualTo(a.get("s"));
    assertThat(b.get("n")).isEqualTo("42");
    for (String l : List.of("l", "bl")) {
      assertThat(b.lrange(l, 0, -1)).isEqualTo(a.lrange(l, 0, -1));
    }
    for (String s : List.of("si", "ss", "bs")) {
      assertThat(b.smembers(s)).isEqualTo(a.smembers(s));
    }
    for (String h : List.of("h", "bh")) {
      assertThat(b.hgetAll(h)).isEqualTo(a.hgetAll(h));
    }
    for (String z : List.of("z", "bz")) {
      assertThat(b.zrangeWithScores(z, 0, -1)).isEqualTo(a.zrangeWithScores(z, 0, -1));
    }
    assertThat(b.pexpireTime("ex")).isCloseTo(4102444800000L, org.assertj.core.data.Offset.offset(1000L));
  }

  @Test
  void dumpRestoresIntoAnotherKeyWithRedisErrors() {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port())) {
      fill(j);
      for (String k : List.of("s", "n", "l", "si", "ss", "h", "z", "bl", "bh", "bz", "bs")) {
        byte[] p = j.dump(k);
        j.restore(b(k + "-copy"), 0, p);
        assertThat(j.type(k + "-copy")).isEqualTo(j.type(k));
        assertThat(j.dump(k + "-copy")).isEqualTo(p);
      }
      assertThat(j.zrangeWithScores("bz-copy", 0, -1)).isEqualTo(j.zrangeWithScores("bz", 0, -1));
      assertThat(j.dump("missing")).isNull();
      byte[] p = j.dump("s");
      assertThatThrownBy(() -> j.restore(b("s"), 0, p)).hasMessage("BUSYKEY Target key name already exists.");
      j.restore(b("s"), 0, j.dump("n"), RestoreParams.restoreParams().replace());
      assertThat(j.get("s")).isEqualTo("42");
      p[1] ^= 1;
      assertThatThrownBy(() -> j.restore(b("t"), 0, p)).hasMessage("ERR DUMP payload version or checksum are wrong");
      assertThatThrownBy(() -> j.restore(b("t"), -1, j.dump("n"))).hasMessage("ERR Invalid TTL value, must be >= 0");
      assertThatThrownBy(() -> j.sendCommand(() -> b("RESTORE"), b("t"), b("0"), j.dump("n"), b("IDLETIME"), b("1"),
          b("FREQ"), b("2"))).hasMessage("ERR syntax error");
      assertThatThrownBy(() -> j.sendCommand(() -> b("RESTORE"), b("t"), b("0"), j.dump("n"), b("FREQ"), b("256")))
          .hasMessage("ERR Invalid FREQ value, must be >= 0 and <= 255");
      j.sendCommand(() -> b("RESTORE"), b("t"), b("0"), j.dump("n"), b("IDLETIME"), b("100"));
      j.restore(b("ttl"), 5000, j.dump("n"));
      assertThat(j.pttl("ttl")).isBetween(1L, 5000L);
      j.restore(b("abs"), System.currentTimeMillis() - 1000, j.dump("n"), RestoreParams.restoreParams().absTtl());
      assertThat(j.exists("abs")).isFalse(); // already expired: OK, and nothing stored
    }
  }

  @Test
  void migrateBetweenTwoNodes() throws Exception {
    try (TestServer a = TestServer.start(dir.resolve("a")); TestServer c = TestServer.start(dir.resolve("c"));
         Jedis ja = new Jedis("127.0.0.1", a.port()); Jedis jc = new Jedis("127.0.0.1", c.port())) {
      fill(ja);
      assertThat(ja.migrate("127.0.0.1", c.port(), "s", 2000)).isEqualTo("OK");
      assertThat(ja.exists("s")).isFalse();
      jc.select(0);
      assertThat(jc.get("s")).isEqualTo("hello");
      assertThat(ja.migrate("127.0.0.1", c.port(), 0, 2000, MigrateParams.migrateParams().copy(), "l", "h", "bz"))
          .isEqualTo("OK");
      assertThat(ja.exists("l")).isTrue();
      assertThat(jc.hgetAll("h")).isEqualTo(ja.hgetAll("h"));
      assertThatThrownBy(() -> ja.migrate("127.0.0.1", c.port(), 0, 2000, MigrateParams.migrateParams().copy(), "l"))
          .hasMessageStartingWith("ERR Target instance replied with error: BUSYKEY");
      assertThat(ja.migrate("127.0.0.1", c.port(), "nothing", 2000)).isEqualTo("NOKEY");
    }
  }

  @Test
  void dumpPayloadsTravelBetweenRedisAndCassette() throws Exception {
    assumeTrue(RealRedis.available(), "redis-server not installed");
    try (RealRedis redis = new RealRedis(dir.resolve("redis")); TestServer s = TestServer.start(dir.resolve("c"));
         Jedis r = new Jedis(redis.address.getHostString(), redis.address.getPort());
         Jedis c = new Jedis("127.0.0.1", s.port())) {
      fill(r);
      Set<String> keys = r.keys("*");
      for (String k : keys) { // Redis -> Cassette
        c.restore(b(k), Math.max(0, r.pexpireTime(k)), r.dump(k), RestoreParams.restoreParams().absTtl());
      }
      assertSame(r, c);
      r.flushAll();
      for (String k : keys) { // and back: Redis takes Cassette's payloads
        r.restore(b(k), Math.max(0, c.pexpireTime(k)), c.dump(k), RestoreParams.restoreParams().absTtl());
      }
      assertSame(c, r);
      r.flushAll();
      // MIGRATE from Cassette into Redis, and from Redis into Cassette
      assertThat(c.migrate(redis.address.getHostString(), redis.address.getPort(), 0, 2000,
          MigrateParams.migrateParams(), keys.toArray(new String[0]))).isEqualTo("OK");
      assertThat(c.dbSize()).isZero();
      assertThat(r.dbSize()).isEqualTo(keys.size());
      assertThat(r.migrate("127.0.0.1", s.port(), 0, 2000, MigrateParams.migrateParams(),
          keys.toArray(new String[0]))).isEqualTo("OK");
      assertThat(c.lrange("bl", 0, -1)).hasSize(300);
      assertThat(c.zscore("bz", "m299")).isEqualTo(149.5);
    }
  }
}
