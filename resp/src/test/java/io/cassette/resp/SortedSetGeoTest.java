package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.GeoCoordinate;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.GeoUnit;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ZParams;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Issue 20's sorted-set, list, geo and string commands through Jedis: the set algebra with
 * WEIGHTS/AGGREGATE, ZRANGESTORE, blocking pops woken by another client, ZMPOP/LMPOP, geo with
 * the figures Redis's own documentation shows for Sicily (same hashes, distances and
 * coordinates as Redis 7.0), LCS and MOVE. Redis's Tcl suite covers the edge cases
 * (bench/redis-suite --units "unit/type/zset unit/geo unit/type/list").
 */
class SortedSetGeoTest {
  @TempDir
  static Path dir;
  /** One node for all four (a node's start is most of each test's time). */
  private static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start(dir);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Jedis client() {
    Jedis j = new Jedis("127.0.0.1", server.port());
    j.flushAll();
    return j;
  }

  private static Object cmd(Jedis j, String name, String... args) {
    ProtocolCommand c = () -> SafeEncoder.encode(name);
    return text(j.sendCommand(c, args));
  }

  /** Replies with bulk strings as Java strings, arrays as lists. */
  private static Object text(Object reply) {
    if (reply instanceof byte[] b) {
      return new String(b, StandardCharsets.UTF_8);
    }
    if (reply instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      for (Object o : l) {
        out.add(text(o));
      }
      return out;
    }
    return reply;
  }

  @Test
  void sortedSetAlgebraAndStores() {
    try (Jedis j = client()) {
      j.zadd("a", 1, "x");
      j.zadd("a", 2, "y");
      j.zadd("b", 10, "y");
      j.zadd("b", 20, "z");
      j.sadd("s", "x", "z");
      assertThat(j.zunionstore("u", new ZParams().weights(2, 1).aggregate(ZParams.Aggregate.MAX),
          "a", "b")).isEqualTo(3);
      assertThat(cmd(j, "ZRANGE", "u", "0", "-1", "WITHSCORES"))
          .isEqualTo(List.of("x", "2", "y", "10", "z", "20"));
      assertThat(cmd(j, "ZINTER", "2", "a", "s", "WITHSCORES")).isEqualTo(List.of("x", "2"));
      assertThat(cmd(j, "ZDIFF", "2", "a", "b")).isEqualTo(List.of("x"));
      assertThat(cmd(j, "ZINTERCARD", "2", "a", "b")).isEqualTo(1L);
      assertThat(cmd(j, "ZDIFFSTORE", "d", "2", "a", "a")).isEqualTo(0L);
      assertThat(j.exists("d")).isFalse();
      assertThat(cmd(j, "ZRANGESTORE", "r", "u", "5", "15", "BYSCORE")).isEqualTo(1L);
      assertThat(j.zscore("r", "y")).isEqualTo(10.0);
      j.set("str", "v");
      assertThatThrownBy(() -> cmd(j, "ZUNION", "2", "a", "str"))
          .isInstanceOf(JedisDataException.class).hasMessageStartingWith("WRONGTYPE");
      assertThatThrownBy(() -> cmd(j, "ZUNIONSTORE", "u", "0", "a"))
          .hasMessage("ERR at least 1 input key is needed for 'zunionstore' command");
      assertThat(cmd(j, "ZMPOP", "2", "none", "a", "MAX", "COUNT", "5"))
          .isEqualTo(List.of("a", List.of(List.of("y", "2"), List.of("x", "1"))));
      assertThat(j.exists("a")).isFalse();
    }
  }

  @Test
  void blockingPopsAreWokenByWrites() throws Exception {
    try (Jedis waiter = client(); Jedis writer = new Jedis("127.0.0.1", server.port())) {
      long t0 = System.nanoTime();
      CompletableFuture<Object> zpop = CompletableFuture.supplyAsync(
          () -> cmd(waiter, "BZPOPMIN", "z1", "z2", "5"));
      waitBlocked(writer, 1);
      writer.zadd("z2", 3, "m");
      assertThat(zpop.get(10, TimeUnit.SECONDS)).isEqualTo(List.of("z2", "m", "3"));
      System.out.printf("BZPOPMIN served after %d ms%n", (System.nanoTime() - t0) / 1_000_000);

      CompletableFuture<Object> lpop = CompletableFuture.supplyAsync(
          () -> cmd(waiter, "BLMPOP", "5", "1", "l", "RIGHT", "COUNT", "2"));
      waitBlocked(writer, 1);
      writer.rpush("l", "a", "b", "c");
      assertThat(lpop.get(10, TimeUnit.SECONDS)).isEqualTo(List.of("l", List.of("c", "b")));
      System.out.printf("BLMPOP served after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
      assertThat(cmd(writer, "LMPOP", "1", "l", "LEFT")).isEqualTo(List.of("l", List.of("a")));
      assertThat(cmd(writer, "LMPOP", "1", "l", "LEFT")).isNull();

      // a blocked pop is not woken with WRONGTYPE when a MULTI replaces the key (Redis skips it)
      CompletableFuture<Object> skipped = CompletableFuture.supplyAsync(
          () -> cmd(waiter, "BZPOPMAX", "k", "1"));
      waitBlocked(writer, 1);
      redis.clients.jedis.Transaction t = writer.multi();
      t.zadd("k", 1, "m");
      t.del("k");
      t.set("k", "str");
      assertThat(t.exec()).isEqualTo(List.of(1L, 1L, "OK"));
      assertThat(skipped.get(10, TimeUnit.SECONDS)).as("timed out, not WRONGTYPE").isNull();
      System.out.printf("BZPOPMAX timed out after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    }
  }

  /** Waits (bounded) until {@code n} clients are blocked. */
  private static void waitBlocked(Jedis j, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (j.info("clients").contains("blocked_clients:" + n)) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("no client blocked: " + j.info("clients"));
  }

  @Test
  void geoGivesRedisFigures() {
    try (Jedis j = client()) {
      assertThat(j.geoadd("Sicily", 13.361389, 38.115556, "Palermo")).isEqualTo(1);
      assertThat(j.geoadd("Sicily", 15.087269, 37.502669, "Catania")).isEqualTo(1);
      assertThat(cmd(j, "GEODIST", "Sicily", "Palermo", "Catania")).isEqualTo("166274.1516");
      assertThat(j.geodist("Sicily", "Palermo", "Catania", GeoUnit.KM)).isEqualTo(166.2742);
      assertThat(j.geohash("Sicily", "Palermo", "Catania", "nobody"))
          .containsExactly("sqc8b49rny0", "sqdtr74hyu0", null);
      assertThat(cmd(j, "GEOPOS", "Sicily", "Palermo"))
          .isEqualTo(List.of(List.of("13.36138933897018433", "38.11555639549629859")));
      List<GeoCoordinate> pos = j.geopos("Sicily", "Catania");
      assertThat(pos.get(0).getLongitude()).isEqualTo(15.08726745843887329);
      assertThat(cmd(j, "GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "WITHHASH", "ASC"))
          .isEqualTo(List.of(List.of("Catania", "56.4413", 3479447370796909L),
              List.of("Palermo", "190.4424", 3479099956230698L)));
      assertThat(cmd(j, "GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYBOX", "400", "400", "km",
          "DESC")).isEqualTo(List.of("Catania", "Palermo"));
      assertThat(cmd(j, "GEOSEARCHSTORE", "near", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS",
          "100", "km", "STOREDIST")).isEqualTo(1L);
      assertThat(j.zscore("near", "Catania")).isCloseTo(56.4413, org.assertj.core.data.Offset.offset(1e-4));
      assertThatThrownBy(() -> cmd(j, "GEOADD", "Sicily", "200", "100", "x"))
          .hasMessage("ERR invalid longitude,latitude pair 200.000000,100.000000");
      assertThatThrownBy(() -> cmd(j, "GEOSEARCH", "Sicily", "BYRADIUS", "1", "km", "ASC", "WITHDIST"))
          .hasMessage("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCH");
    }
  }

  @Test
  void lcsAndMove() {
    try (Jedis j = client()) {
      j.set("key1", "ohmytext");
      j.set("key2", "mynewtext");
      assertThat(cmd(j, "LCS", "key1", "key2")).isEqualTo("mytext");
      assertThat(cmd(j, "LCS", "key1", "key2", "LEN")).isEqualTo(6L);
      assertThat(cmd(j, "LCS", "key1", "key2", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"))
          .isEqualTo(List.of("matches", List.of(List.of(List.of(4L, 7L), List.of(5L, 8L), 4L)),
              "len", 6L));
      j.rpush("list", "a", "b");
      j.expire("list", 100);
      assertThat(j.move("list", 3)).isEqualTo(1);
      assertThat(j.exists("list")).isFalse();
      j.select(3);
      assertThat(j.lrange("list", 0, -1)).containsExactly("a", "b");
      assertThat(j.ttl("list")).isBetween(1L, 100L);
      assertThat(j.move("nothing", 0)).isEqualTo(0);
      assertThatThrownBy(() -> j.move("list", 3))
          .hasMessage("ERR source and destination objects are the same");
    }
  }
}
