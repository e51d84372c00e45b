package io.cassette.resp.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.ring.RingHarness;
import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.NodeMetrics;
import io.cassette.resp.RespServer;
import io.cassette.resp.RespServerOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Jedis against three Redis servers on a ring of three RingCoordinators (RingHarness, one JVM):
 * every key lives on its token's owner and any node serves it.
 */
class RedisRingTest {
  @TempDir
  Path dir;
  RingHarness ring;
  final List<RespServer> servers = new ArrayList<>();
  final List<Jedis> clients = new ArrayList<>();

  @BeforeEach
  void start() {
    ring = new RingHarness(dir, 3, 16, b -> b);
    // The harness has no metadata service: each node adds the Redis table to its own log
    // first (through its local coordinator), as the replicated log would everywhere.
    for (int i = 0; i < 3; i++) {
      new io.cassette.resp.keyspace.Keyspace(ring.node(i).local(), 0);
    }
    for (int i = 0; i < 3; i++) {
      RespServer s = new RespServer(RespServerOptions.ephemeral(), ring.node(i).coordinator(),
          new NodeMetrics(new LatencyMonitor()));
      InetSocketAddress a = s.start();
      servers.add(s);
      Jedis j = new Jedis(a.getHostString(), a.getPort(), 20_000);
      clients.add(j);
    }
  }

  @AfterEach
  void stop() {
    clients.forEach(Jedis::close);
    servers.forEach(RespServer::close);
    ring.close();
  }

  @Test
  void keysWrittenThroughOneNodeAreServedByEveryNode() {
    for (int i = 0; i < 60; i++) {
      clients.get(i % 3).set("k" + i, "v" + i);
    }
    clients.get(0).hset("h", Map.of("a", "1", "b", "2"));
    for (Jedis j : clients) {
      for (int i = 0; i < 60; i++) {
        assertThat(j.get("k" + i)).isEqualTo("v" + i);
      }
      assertThat(j.hgetAll("h")).isEqualTo(Map.of("a", "1", "b", "2"));
    }
    // A write through another node is seen at once (no node caches keys it does not see written).
    clients.get(2).set("k5", "new");
    clients.get(1).hset("h", "a", "9");
    assertThat(clients.get(0).get("k5")).isEqualTo("new");
    assertThat(clients.get(0).hget("h", "a")).isEqualTo("9");
    clients.get(1).del("k5");
    assertThat(clients.get(0).exists("k5")).isFalse();
  }

  @Test
  void keysAndScanGatherFromEveryNode() {
    Set<String> written = new HashSet<>();
    for (Jedis j : clients) {
      assertThat(j.dbSize()).isZero(); // a count kept per node would now miss the others' keys
    }
    for (int i = 0; i < 90; i++) {
      clients.get(i % 3).set("s" + i, "x");
      written.add("s" + i);
    }
    for (Jedis j : clients) {
      assertThat(j.dbSize()).isEqualTo(90);
      assertThat(new HashSet<>(j.keys("s*"))).isEqualTo(written);
      Set<String> scanned = new HashSet<>();
      String cursor = ScanParams.SCAN_POINTER_START;
      int rounds = 0;
      do {
        ScanResult<String> r = j.scan(cursor, new ScanParams().match("s*").count(10));
        scanned.addAll(r.getResult());
        cursor = r.getCursor();
      } while (!cursor.equals("0") && ++rounds < 1000);
      assertThat(scanned).isEqualTo(written);
    }
  }

  @Test
  void activeExpiryRemovesEachKeyOnceAcrossTheRing() throws Exception {
    for (int i = 0; i < 30; i++) {
      clients.get(i % 3).psetex("e" + i, 100, "x");
    }
    long deadline = System.currentTimeMillis() + 20_000;
    long expired = 0;
    while (System.currentTimeMillis() < deadline) {
      expired = 0;
      for (Jedis j : clients) {
        expired += expiredKeys(j);
      }
      if (expired >= 30) {
        break;
      }
      Thread.sleep(100);
    }
    Thread.sleep(300); // nothing is counted twice (a key is gone for the second reader anyway)
    expired = 0;
    for (Jedis j : clients) {
      expired += expiredKeys(j);
    }
    assertThat(expired).isEqualTo(30);
    assertThat(clients.get(1).keys("e*")).isEmpty();
  }

  static long expiredKeys(Jedis j) {
    for (String line : j.info("stats").split("\r\n")) {
      if (line.startsWith("expired_keys:")) {
        return Long.parseLong(line.substring("expired_keys:".length()));
      }
    }
    throw new AssertionError("no expired_keys in INFO");
  }
}
