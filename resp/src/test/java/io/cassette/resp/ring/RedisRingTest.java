package io.cassette.resp.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  final List<InetSocketAddress> addresses = new ArrayList<>();

  @BeforeEach
  void start() {
    ring = new RingHarness(dir, 3, 16, b -> b);
    // The harness has no metadata service: each node adds the Redis table to its own log
    // first (through its local coordinator), as the replicated log would everywhere.
    for (int i = 0; i < 3; i++) {
      new io.cassette.resp.keyspace.Keyspace(ring.node(i).local(), 0);
    }
    for (int i = 0; i < 3; i++) {
      // On a ring commands run on a thread of their own beside one I/O thread, as CassetteNode does.
      RespServer s = new RespServer(RespServerOptions.ephemeral().withCommandThread(1),
          ring.node(i).coordinator(), new NodeMetrics(new LatencyMonitor()));
      s.ring(ring.node(i).messaging());
      InetSocketAddress a = s.start();
      servers.add(s);
      addresses.add(a);
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

  /**
   * Two clients on two nodes INCR one key N times each: every INCR runs on the key's owner
   * (one command thread), so none is lost.
   */
  @Test
  void incrementsThroughTwoNodesAreNeverLost() throws Exception {
    int n = 300;
    String key = "counter";
    int owner = ownerOf(key);
    int a = (owner + 1) % 3;
    int b = (owner + 2) % 3;
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int node : new int[] {a, b}) {
      Thread t = new Thread(() -> {
        try (Jedis j = connect(node)) {
          for (int i = 0; i < n; i++) {
            j.incr(key);
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join(60_000);
      assertThat(t.isAlive()).as("INCR loop finished within 60 s").isFalse();
    }
    assertThat(failures).isEmpty();
    for (Jedis j : clients) {
      assertThat(j.get(key)).isEqualTo(Integer.toString(2 * n));
    }
  }

  /**
   * The fault lab's message duplication (bench/fault-lab-each messages) found INCRs through
   * another node counted twice: a REDIS_REQ delivered twice ran twice at the key's node.
   */
  @Test
  void aForwardedCommandDeliveredTwiceRunsOnce() {
    String key = "dup";
    int owner = ownerOf(key);
    int via = (owner + 1) % 3;
    io.cassette.cluster.net.MessageFilters.Rule twice = ring.filters()
        .verbs(io.cassette.cluster.net.Verb.REDIS_REQ).to(io.cassette.coordinator.ring.RingHarness.address(owner)).duplicate();
    try (Jedis j = connect(via)) {
      for (int i = 0; i < 20; i++) {
        j.incr(key);
      }
    } finally {
      twice.off();
    }
    assertThat(clients.get(owner).get(key)).isEqualTo("20");
  }

  /**
   * Forwarded commands are answered while the key's node is busy: clients of that node keep
   * its command thread over its 10 ms slice (long pipelines), so its dispatcher hands the rest
   * of a pass to a later task. A peer's command queued meanwhile used to be marked "ran" before
   * the dispatcher had run it: the answer went back empty and the client waited for ever.
   * Every INCR through another node must get its reply (bounded socket timeout), none lost.
   */
  @Test
  void forwardedCommandsAreAnsweredWhileTheKeysNodeIsBusy() throws Exception {
    String key = "busy";
    int owner = ownerOf(key);
    int n = 300;
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    List<Thread> busy = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int c = 0; c < 4; c++) {
      String own = "{" + key + "}:local" + c; // same tag: executed on the owner itself
      Thread t = new Thread(() -> {
        try (Jedis j = connect(owner)) {
          long deadline = System.currentTimeMillis() + 60_000;
          while (!stop.get() && System.currentTimeMillis() < deadline) {
            redis.clients.jedis.Pipeline p = j.pipelined();
            for (int i = 0; i < 300; i++) {
              p.incr(own);
            }
            p.sync();
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      busy.add(t);
      t.start();
    }
    List<Thread> remote = new ArrayList<>();
    for (int node : new int[] {(owner + 1) % 3, (owner + 2) % 3}) {
      Thread t = new Thread(() -> {
        InetSocketAddress a = addresses.get(node);
        try (Jedis j = new Jedis(a.getHostString(), a.getPort(), 10_000)) { // a hang is a failure
          for (int i = 0; i < n; i++) {
            j.incr(key);
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      remote.add(t);
      t.start();
    }
    try {
      for (Thread t : remote) {
        t.join(90_000);
        assertThat(t.isAlive()).as("forwarded INCR loop finished within 90 s").isFalse();
      }
    } finally {
      stop.set(true);
      for (Thread t : busy) {
        t.join(30_000);
      }
    }
    assertThat(failures).isEmpty();
    assertThat(clients.get(owner).get(key)).isEqualTo(Integer.toString(2 * n));
  }

  @Test
  void keysOnDifferentNodesGetCrossSlotUnlessTheyShareAHashTag() {
    String[] pair = keysOnTwoNodes();
    Jedis j = clients.get(0);
    j.set(pair[0], "1");
    j.set(pair[1], "2");
    assertThatThrownBy(() -> j.mget(pair[0], pair[1]))
        .hasMessage("CROSSSLOT Keys in request don't hash to the same slot");
    assertThatThrownBy(() -> j.del(pair[0], pair[1]))
        .hasMessageStartingWith("CROSSSLOT");
    assertThatThrownBy(() -> j.rename(pair[0], pair[1])).hasMessageStartingWith("CROSSSLOT");
    assertThat(j.get(pair[0])).isEqualTo("1"); // nothing was done

    // A hash tag places keys by the tag alone: one node runs them, whatever the rest.
    for (int i = 0; i < 3; i++) {
      Jedis c = clients.get(i);
      c.mset("{user" + i + "}:a", "a" + i, "{user" + i + "}:b", "b" + i);
      assertThat(c.mget("{user" + i + "}:a", "{user" + i + "}:b")).containsExactly("a" + i, "b" + i);
      c.rename("{user" + i + "}:a", "{user" + i + "}:c");
      assertThat(clients.get((i + 1) % 3).get("{user" + i + "}:c")).isEqualTo("a" + i);
      c.sadd("{s" + i + "}1", "x", "y");
      c.sadd("{s" + i + "}2", "y", "z");
      assertThat(c.sinter("{s" + i + "}1", "{s" + i + "}2")).containsExactly("y");
    }
    String tagged = null;
    for (int i = 0; tagged == null; i++) {
      if (ownerOf("{" + pair[0] + "}:" + i) != ownerOf(pair[0])) {
        tagged = "{" + pair[0] + "}:" + i; // by its own bytes it would be elsewhere
      }
    }
    j.set(tagged, "3");
    assertThat(j.mget(pair[0], tagged)).containsExactly("1", "3"); // by the tag: together
  }

  @Test
  void multiExecRunsWholeOnTheKeysNodeOrIsRefusedAcrossNodes() {
    String[] pair = keysOnTwoNodes();
    int owner = ownerOf("{t}x");
    Jedis j = clients.get((owner + 1) % 3); // not the keys' node
    redis.clients.jedis.Transaction t = j.multi();
    t.incr("{t}x");
    t.incrBy("{t}y", 5);
    t.get("{t}x");
    assertThat(t.exec()).containsExactly(1L, 5L, "1");

    redis.clients.jedis.Transaction bad = j.multi();
    bad.set(pair[0], "a");
    bad.set(pair[1], "b");
    assertThatThrownBy(bad::exec).hasMessageContaining("CROSSSLOT");
    assertThat(j.get(pair[0])).isNotEqualTo("a"); // discarded
    assertThat(j.ping()).isEqualTo("PONG"); // the connection goes on, out of MULTI
  }

  @Test
  void publishOnOneNodeReachesSubscribersOnEveryNode() throws Exception {
    List<List<String>> received = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    List<redis.clients.jedis.JedisPubSub> subs = new ArrayList<>();
    java.util.concurrent.CountDownLatch subscribed = new java.util.concurrent.CountDownLatch(2);
    for (int node : new int[] {1, 2}) {
      List<String> got = new java.util.concurrent.CopyOnWriteArrayList<>();
      received.add(got);
      redis.clients.jedis.JedisPubSub sub = new redis.clients.jedis.JedisPubSub() {
        @Override
        public void onMessage(String channel, String message) {
          got.add(channel + "=" + message);
        }

        @Override
        public void onSubscribe(String channel, int count) {
          subscribed.countDown();
        }
      };
      subs.add(sub);
      Thread t = new Thread(() -> {
        try (Jedis c = connect(node)) {
          c.subscribe(sub, "news");
        }
      });
      threads.add(t);
      t.start();
    }
    assertThat(subscribed.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(clients.get(0).publish("news", "hello")).isZero(); // as Redis Cluster: this node's receivers
    long deadline = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < deadline
        && (received.get(0).isEmpty() || received.get(1).isEmpty())) {
      Thread.sleep(20);
    }
    subs.forEach(redis.clients.jedis.JedisPubSub::unsubscribe);
    for (Thread t : threads) {
      t.join(10_000);
    }
    assertThat(received.get(0)).containsExactly("news=hello");
    assertThat(received.get(1)).containsExactly("news=hello");
  }

  @Test
  void blpopOnOneNodeIsWokenByLpushOnAnother() throws Exception {
    String key = "queue";
    int owner = ownerOf(key);
    int a = (owner + 1) % 3;
    int b = (owner + 2) % 3;
    java.util.concurrent.CompletableFuture<List<String>> popped = new java.util.concurrent.CompletableFuture<>();
    long started = System.currentTimeMillis();
    Thread waiter = new Thread(() -> {
      try (Jedis c = connect(a)) {
        popped.complete(c.blpop(30, key));
      } catch (Throwable e) {
        popped.completeExceptionally(e);
      }
    });
    waiter.start();
    Thread.sleep(300);
    assertThat(popped).isNotDone();
    // other clients of node a are served meanwhile (its command thread does not wait)
    assertThat(clients.get(a).set("other", "v")).isEqualTo("OK");
    clients.get(b).lpush(key, "job1");
    assertThat(popped.get(10, java.util.concurrent.TimeUnit.SECONDS)).containsExactly(key, "job1");
    assertThat(System.currentTimeMillis() - started).isLessThan(10_000);
    waiter.join(5_000);
    assertThat(clients.get(owner).llen(key)).isZero();

    // a timeout longer than one round at the owner is kept; an empty wait answers nil on time
    long t0 = System.currentTimeMillis();
    try (Jedis c = connect(a)) {
      assertThat(c.blpop(1, key)).isNull();
    }
    assertThat(System.currentTimeMillis() - t0).isBetween(900L, 5_000L);
  }

  @Test
  void watchThroughAnotherNodeSeesChangesMadeAnywhere() {
    String key = "w";
    int owner = ownerOf(key);
    Jedis a = clients.get((owner + 1) % 3);
    Jedis b = clients.get((owner + 2) % 3);
    a.set(key, "1");

    a.watch(key);
    b.set(key, "2"); // through a third node: the key's owner runs it and sees the watch
    redis.clients.jedis.Transaction t = a.multi();
    t.set(key, "3");
    assertThat(t.exec()).isNull();
    assertThat(b.get(key)).isEqualTo("2");

    a.watch(key);
    t = a.multi();
    t.incr(key);
    assertThat(t.exec()).containsExactly(3L);

    a.watch(key);
    a.unwatch();
    b.set(key, "10");
    t = a.multi();
    t.incr(key);
    assertThat(t.exec()).containsExactly(11L);

    String[] pair = keysOnTwoNodes();
    a.watch(pair[0]);
    t = a.multi();
    t.set(pair[1], "x");
    assertThatThrownBy(t::exec).hasMessageContaining("CROSSSLOT");
    assertThat(a.ping()).isEqualTo("PONG");
  }

  @Test
  void flushdbThroughOneNodeEmptiesTheRingAndItsCaches() {
    for (int i = 0; i < 30; i++) {
      clients.get(i % 3).set("f" + i, "v");
    }
    for (Jedis j : clients) {
      for (int i = 0; i < 30; i++) {
        assertThat(j.get("f" + i)).isEqualTo("v"); // fills the executors' caches
      }
      assertThat(j.info("keyspace")).contains("db0:keys=30");
      assertThat(j.dbSize()).isEqualTo(30); // scattered: each node counts its own ranges
      redis.clients.jedis.Transaction t = j.multi();
      t.sendCommand(redis.clients.jedis.Protocol.Command.DBSIZE, new String[0]); // inside EXEC: the ring scan, no waiting in the middle of the transaction
      assertThat(t.exec()).containsExactly(30L);
    }
    assertThat(clients.get(1).flushDB()).isEqualTo("OK");
    for (Jedis j : clients) {
      assertThat(j.dbSize()).isZero();
      for (int i = 0; i < 30; i++) {
        assertThat(j.get("f" + i)).isNull();
      }
    }
  }

  @Test
  void aClientLeavingWhileBlockedAtTheKeysNodeTakesNothing() throws Exception {
    String key = "leftq";
    int owner = ownerOf(key);
    int a = (owner + 1) % 3;
    try (java.net.Socket raw = new java.net.Socket(addresses.get(a).getHostString(), addresses.get(a).getPort())) {
      raw.getOutputStream().write(("*3\r\n$5\r\nBLPOP\r\n$" + key.length() + "\r\n" + key + "\r\n$2\r\n30\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      raw.getOutputStream().flush();
      Thread.sleep(500); // blocked at the owner
    }
    Thread.sleep(500); // the owner hears that the client left
    clients.get((owner + 2) % 3).lpush(key, "kept");
    assertThat(clients.get(owner).lrange(key, 0, -1)).containsExactly("kept");
  }

  @Test
  void aBlpopLongerThanOneRoundAtTheOwnerIsStillWoken() throws Exception {
    String key = "slowq";
    int a = (ownerOf(key) + 1) % 3;
    java.util.concurrent.CompletableFuture<List<String>> popped = new java.util.concurrent.CompletableFuture<>();
    Thread waiter = new Thread(() -> {
      try (Jedis c = connect(a)) {
        popped.complete(c.blpop(0, key));
      } catch (Throwable e) {
        popped.completeExceptionally(e);
      }
    });
    waiter.start();
    Thread.sleep(RedisRing.BLOCK_ROUND_MILLIS + 1000); // past the first round
    assertThat(popped).isNotDone();
    clients.get(ownerOf(key)).rpush(key, "late");
    assertThat(popped.get(10, java.util.concurrent.TimeUnit.SECONDS)).containsExactly(key, "late");
    waiter.join(5_000);
  }

  @Test
  void aDownOwnerIsClusterDownAtOnceAndServesAgainWhenUp() {
    String key = "d";
    int owner = ownerOf(key);
    Jedis other = clients.get((owner + 1) % 3);
    other.set(key, "1");
    ring.markDown(owner, true);
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> other.get(key)).hasMessage("CLUSTERDOWN The node that owns the key is down");
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(1_000);
    ring.markDown(owner, false);
    assertThat(other.incr(key)).isEqualTo(2);
  }

  /** Prints what running a command on the key's node costs (a figure, not a timed assertion). */
  @Test
  void forwardingCostsOneRoundTrip() {
    String key = "cost";
    int owner = ownerOf(key);
    Jedis local = clients.get(owner);
    Jedis remote = clients.get((owner + 1) % 3);
    local.set(key, "0");
    for (int round = 0; round < 2; round++) { // the first round warms up
      long t0 = System.nanoTime();
      for (int i = 0; i < 500; i++) {
        local.incr(key);
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < 500; i++) {
        remote.incr(key);
      }
      long t2 = System.nanoTime();
      if (round == 1) {
        System.out.printf("INCR on the key's node %d us, through another node %d us (mean of 500)%n",
            (t1 - t0) / 500_000, (t2 - t1) / 500_000);
      }
    }
    assertThat(local.get(key)).isEqualTo("2000");
  }

  /** Two keys whose metadata lives on different nodes. */
  String[] keysOnTwoNodes() {
    String first = "p0";
    for (int i = 1; i < 1000; i++) {
      if (ownerOf("p" + i) != ownerOf(first)) {
        return new String[] {first, "p" + i};
      }
    }
    throw new AssertionError("no two keys on two nodes");
  }

  /** A new connection to node {@code i}'s Redis port. */
  Jedis connect(int i) {
    InetSocketAddress a = addresses.get(i);
    return new Jedis(a.getHostString(), a.getPort(), 20_000);
  }

  /** The index of the node owning {@code key}'s metadata partition ('m' | key). */
  int ownerOf(String key) {
    byte[] k = ("m" + key).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return ring.ownerIndex(io.cassette.storage.Murmur3Token.of(k));
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
