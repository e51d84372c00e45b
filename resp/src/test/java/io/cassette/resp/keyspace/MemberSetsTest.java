package io.cassette.resp.keyspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.Tuple;

/**
 * HSET/SADD/ZADD and their removals answer "was it new" from the member sets ({@link MemberSets})
 * exactly as from storage: random writes against a model, on collections tracked from their
 * creation, then after a restart on collections loaded from storage (flushed and not, loaded in
 * several pages), then with a member too long to track.
 */
class MemberSetsTest {
  @TempDir
  Path dir;

  private final Map<String, String> hash = new HashMap<>();
  private final Map<String, Boolean> set = new HashMap<>();
  private final Map<String, Double> zset = new HashMap<>();
  private final Random random = new Random(21);

  @Test
  void repliesAndSizesFollowAModelAcrossCreationRestartAndLoading() {
    TestServer server = TestServer.start(dir);
    try {
      try (Jedis j = new Jedis("127.0.0.1", server.port(), 15_000)) {
        randomWrites(j, 2_500, 2_500);
        check(j);
      }
      server.engine.flush();
      server = server.restart(dir);
      try (Jedis j = new Jedis("127.0.0.1", server.port(), 15_000)) {
        check(j);
        randomWrites(j, 1_500, 3_000); // past the misses that load each set, then on the loaded sets
        check(j);
        String longMember = "L".repeat(MemberTable.MAX_MEMBER_BYTES + 10);
        assertThat(j.hset("h", longMember, "v")).isEqualTo(1);
        hash.put(longMember, "v");
        assertThat(j.sadd("s", longMember)).isEqualTo(1);
        set.put(longMember, true);
        randomWrites(j, 400, 3_000); // no longer tracked: storage answers
        check(j);
        j.del("h", "s", "z");
        hash.clear();
        set.clear();
        zset.clear();
        randomWrites(j, 400, 300); // new incarnations, tracked from creation
        check(j);
      }
    } finally {
      server.close();
    }
  }

  @Test
  void anUntrackedCollectionIsLoadedWholeOnceItsReadsKeepMissing() {
    byte[] key = "big".getBytes();
    int members = 3_000; // three pages of MEMBER_LOAD_PAGE
    try (io.cassette.storage.Engine engine = io.cassette.storage.Engine.open(
        io.cassette.storage.EngineOptions.defaults(dir))) {
      var coordinator = io.cassette.coordinator.local.LocalCoordinator.open(engine, null);
      Keyspace first = new Keyspace(coordinator, 8 << 20);
      Database db = first.db(0);
      KeyMeta m = db.newCollection(KeyType.SET);
      assertThat(first.memberSets().tracks(m.cacheId())).as("tracked from creation").isTrue();
      for (int from = 0; from < members; from += 500) {
        Batch b = db.batch();
        KeyMeta old = from == 0 ? null : m.copy();
        for (int i = from; i < from + 500; i++) {
          b.putSub(m, member(i), new byte[0]);
        }
        m.size += 500;
        db.store(b, key, old, m);
        b.commit();
        if (from == 1_500) {
          engine.flush(); // half in SSTables, half in the memtable
        }
      }
      assertThat(db.subExists(m, member(7))).isTrue();
      assertThat(db.subExists(m, member(members + 7))).isFalse();

      Keyspace second = new Keyspace(coordinator, 8 << 20); // as after a restart: nothing tracked
      Database again = second.db(0);
      KeyMeta read = again.meta(key);
      assertThat(second.memberSets().tracks(read.cacheId())).isFalse();
      int missesToLoad = MemberSets.LOAD_AFTER_BASE_MISSES + members / MemberSets.LOAD_AFTER_MISSES_DIVISOR;
      for (int i = 0; i < missesToLoad - 1; i++) {
        assertThat(again.subExists(read, member(members + i))).isFalse();
      }
      assertThat(second.memberSets().tracks(read.cacheId())).isFalse();
      assertThat(again.subExists(read, member(members * 2))).isFalse();
      assertThat(second.memberSets().tracks(read.cacheId())).as("loaded").isTrue();
      for (int i = 0; i < members + 100; i++) {
        assertThat(again.subExists(read, member(i))).as("member %d", i).isEqualTo(i < members);
      }
    }
  }

  private static byte[] member(int i) {
    return RedisLayout.tagged(RedisLayout.SET_MEMBER, ("m" + i).getBytes());
  }

  private void randomWrites(Jedis j, int count, int members) {
    for (int i = 0; i < count; i++) {
      String m = "member:" + random.nextInt(members);
      switch (random.nextInt(8)) {
        case 0, 1 -> {
          String v = "v" + random.nextInt(1000);
          assertThat(j.hset("h", m, v)).as("HSET %s", m).isEqualTo(hash.put(m, v) == null ? 1 : 0);
        }
        case 2 -> assertThat(j.hdel("h", m)).as("HDEL %s", m).isEqualTo(hash.remove(m) == null ? 0 : 1);
        case 3 -> assertThat(j.sadd("s", m)).as("SADD %s", m).isEqualTo(set.put(m, true) == null ? 1 : 0);
        case 4 -> assertThat(j.srem("s", m)).as("SREM %s", m).isEqualTo(set.remove(m) == null ? 0 : 1);
        case 5, 6 -> {
          double score = random.nextInt(100);
          assertThat(j.zadd("z", score, m)).as("ZADD %s", m).isEqualTo(zset.put(m, score) == null ? 1 : 0);
        }
        default -> {
          assertThat(j.hexists("h", m)).isEqualTo(hash.containsKey(m));
          assertThat(j.sismember("s", m)).isEqualTo(set.containsKey(m));
          assertThat(j.zscore("z", m)).isEqualTo(zset.get(m));
          if (zset.containsKey(m) && random.nextBoolean()) {
            assertThat(j.zrem("z", m)).isEqualTo(1);
            zset.remove(m);
          }
        }
      }
    }
  }

  private void check(Jedis j) {
    assertThat(j.hlen("h")).isEqualTo(hash.size());
    assertThat(j.hgetAll("h")).isEqualTo(hash);
    assertThat(j.scard("s")).isEqualTo(set.size());
    assertThat(j.smembers("s")).isEqualTo(set.keySet());
    assertThat(j.zcard("z")).isEqualTo(zset.size());
    // the score index holds exactly one entry per member, at its score
    List<Tuple> byScore = j.zrangeByScoreWithScores("z", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    assertThat(byScore).hasSize(zset.size());
    for (Tuple t : byScore) {
      assertThat(t.getScore()).isEqualTo(zset.get(t.getElement()));
    }
  }
}
