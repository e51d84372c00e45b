package io.cassette.resp.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.params.XClaimParams;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.params.XReadParams;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.StreamInfo;
import redis.clients.jedis.resps.StreamPendingEntry;
import redis.clients.jedis.resps.StreamPendingSummary;

/** Streams through Jedis (RESP2): the producer/consumer-group flows applications use. */
class StreamClientTest {
  @TempDir
  static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start(dir);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Jedis jedis() {
    return new Jedis("127.0.0.1", server.port(), 5000);
  }

  @Test
  void addRangeTrimAndDelete() {
    try (Jedis r = jedis()) {
      StreamEntryID first = r.xadd("s1", new StreamEntryID(1, 1), Map.of("a", "1"));
      assertThat(first.toString()).isEqualTo("1-1");
      r.xadd("s1", XAddParams.xAddParams().id("1-*"), Map.of("b", "2"));
      r.xadd("s1", XAddParams.xAddParams().id(5), Map.of("c", "3"));
      assertThat(r.xlen("s1")).isEqualTo(3);
      assertThat(r.type("s1")).isEqualTo("stream");
      List<StreamEntry> all = r.xrange("s1", "-", "+");
      assertThat(all).extracting(e -> e.getID().toString()).containsExactly("1-1", "1-2", "5-0");
      assertThat(all.get(1).getFields()).isEqualTo(Map.of("b", "2"));
      assertThat(r.xrevrange("s1", "+", "(1-1")).extracting(e -> e.getID().toString())
          .containsExactly("5-0", "1-2");
      assertThatThrownBy(() -> r.xadd("s1", new StreamEntryID(2, 0), Map.of("x", "y")))
          .isInstanceOf(JedisDataException.class)
          .hasMessage("ERR The ID specified in XADD is equal or smaller than the target stream top item");
      assertThat(r.xdel("s1", new StreamEntryID(1, 2))).isEqualTo(1);
      assertThat(r.xtrim("s1", 1, false)).isEqualTo(1);
      assertThat(r.xrange("s1", "-", "+")).extracting(e -> e.getID().toString()).containsExactly("5-0");
      for (int i = 0; i < 20; i++) {
        r.xadd("s2", XAddParams.xAddParams().maxLen(5), Map.of("i", Integer.toString(i)));
      }
      assertThat(r.xlen("s2")).isEqualTo(5);
      assertThat(r.xrange("s2", "-", "+", 1).get(0).getFields()).isEqualTo(Map.of("i", "15"));
      r.set("str", "v");
      assertThatThrownBy(() -> r.xlen("str")).hasMessageStartingWith("WRONGTYPE");
    }
  }

  @Test
  void consumerGroupFlow() {
    try (Jedis r = jedis()) {
      r.xgroupCreate("orders", "g", new StreamEntryID(0, 0), true);
      assertThatThrownBy(() -> r.xgroupCreate("orders", "g", StreamEntryID.LAST_ENTRY, false))
          .hasMessage("BUSYGROUP Consumer Group name already exists");
      for (int i = 1; i <= 4; i++) {
        r.xadd("orders", new StreamEntryID(i, 0), Map.of("n", Integer.toString(i)));
      }
      var got = r.xreadGroup("g", "alice", XReadGroupParams.xReadGroupParams().count(3),
          Map.of("orders", StreamEntryID.UNRECEIVED_ENTRY));
      assertThat(got.get(0).getValue()).extracting(e -> e.getID().toString())
          .containsExactly("1-0", "2-0", "3-0");
      StreamPendingSummary summary = r.xpending("orders", "g");
      assertThat(summary.getTotal()).isEqualTo(3);
      assertThat(summary.getConsumerMessageCount()).isEqualTo(Map.of("alice", 3L));
      assertThat(r.xack("orders", "g", new StreamEntryID(1, 0))).isEqualTo(1);
      List<StreamPendingEntry> pending = r.xpending("orders", "g",
          XPendingParams.xPendingParams().count(10));
      assertThat(pending).extracting(p -> p.getID().toString()).containsExactly("2-0", "3-0");
      List<StreamEntry> claimed = r.xclaim("orders", "g", "bob", 0,
          XClaimParams.xClaimParams(), new StreamEntryID(2, 0));
      assertThat(claimed).extracting(e -> e.getID().toString()).containsExactly("2-0");
      var history = r.xreadGroup("g", "bob", XReadGroupParams.xReadGroupParams(),
          Map.of("orders", new StreamEntryID(0, 0)));
      assertThat(history.get(0).getValue()).extracting(e -> e.getID().toString()).containsExactly("2-0");
      List<StreamGroupInfo> groups = r.xinfoGroups("orders");
      assertThat(groups).hasSize(1);
      assertThat(groups.get(0).getPending()).isEqualTo(2);
      assertThat(groups.get(0).getLastDeliveredId().toString()).isEqualTo("3-0");
      StreamInfo info = r.xinfoStream("orders");
      assertThat(info.getLength()).isEqualTo(4);
      assertThat(info.getLastGeneratedId().toString()).isEqualTo("4-0");
      assertThat(info.getFirstEntry().getID().toString()).isEqualTo("1-0");
      // the stream and its groups survive a rename, and DUMP/RESTORE (Redis's RDB stream type)
      r.rename("orders", "orders2");
      assertThat(r.xpending("orders2", "g").getTotal()).isEqualTo(2);
      r.restore("orders3", 0, r.dump("orders2"));
      assertThat(r.xrange("orders3", "-", "+")).extracting(e -> e.getID() + " " + e.getFields())
          .containsExactly("1-0 {n=1}", "2-0 {n=2}", "3-0 {n=3}", "4-0 {n=4}");
      assertThat(r.xpending("orders3", "g").getConsumerMessageCount()).isEqualTo(Map.of("bob", 1L, "alice", 1L));
    }
  }

  @Test
  void blockedReadersWakeUp() throws Exception {
    try (Jedis r = jedis(); Jedis waiter = jedis(); Jedis groupWaiter = jedis()) {
      r.xadd("live", new StreamEntryID(1, 0), Map.of("old", "x"));
      r.xgroupCreate("live", "g", StreamEntryID.LAST_ENTRY, false);
      CompletableFuture<List<Map.Entry<String, List<StreamEntry>>>> read = CompletableFuture
          .supplyAsync(() -> waiter.xread(XReadParams.xReadParams().block(5000),
              Map.of("live", StreamEntryID.LAST_ENTRY)));
      CompletableFuture<List<Map.Entry<String, List<StreamEntry>>>> grouped = CompletableFuture
          .supplyAsync(() -> groupWaiter.xreadGroup("g", "c", XReadGroupParams.xReadGroupParams()
              .block(5000), Map.of("live", StreamEntryID.UNRECEIVED_ENTRY)));
      long until = System.currentTimeMillis() + 5000;
      while (!r.info("clients").contains("blocked_clients:2") && System.currentTimeMillis() < until) {
        Thread.sleep(10);
      }
      r.xadd("live", new StreamEntryID(2, 0), Map.of("new", "y"));
      var got = read.get(5, TimeUnit.SECONDS);
      assertThat(got.get(0).getValue()).extracting(e -> e.getID().toString()).containsExactly("2-0");
      var gotGroup = grouped.get(5, TimeUnit.SECONDS);
      assertThat(gotGroup.get(0).getValue()).extracting(e -> e.getID().toString()).containsExactly("2-0");
      // a non-blocking read of nothing is a null reply
      assertThat(r.xread(XReadParams.xReadParams(), Map.of("live", new StreamEntryID(2, 0)))).isNull();
    }
  }
}
