package io.cassette.resp.keyspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.KeyRange;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Slice;
import io.cassette.storage.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SET whose key's metadata fell out of the cache is written blind only when the node knows
 * the key holds a string or nothing: the value, the key count and the expiry index stay as an
 * exact SET leaves them, and a collection's fields still go with it (read first). Through the
 * database API, so storage itself can be looked at; on a small cache, so keys are evicted.
 */
class BlindWriteTest {
  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void blindSetsKeepValuesCountsAndNeverOrphanACollectionsFields() {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      LocalCoordinator coordinator = LocalCoordinator.open(engine, null);
      Keyspace keyspace = new Keyspace(coordinator, 64 * 1024); // ~1,000 entries: evicted all the time
      Database db = keyspace.db(0);

      // A hash with a field, then enough strings to push its metadata out of the cache.
      KeyMeta hash = db.newCollection(KeyType.HASH);
      hash.size = 1;
      Batch b = db.batch();
      b.putSub(hash, RedisLayout.tagged(RedisLayout.HASH_FIELD, b("f")), b("v"));
      db.store(b, b("h"), null, hash);
      b.commit();
      for (int i = 0; i < 5_000; i++) {
        set(db, "k" + i, "a" + i, 0);
      }
      assertThat(db.size()).isEqualTo(5_001);
      // Overwritten, deleted and then re-created, and new keys; most are no longer cached.
      int blind = 0;
      for (int i = 0; i < 5_000; i++) {
        blind += set(db, "k" + i, "b" + i, 0) ? 1 : 0;
      }
      assertThat(blind).as("SETs over evicted strings written blind").isGreaterThan(3_000);
      for (int i = 0; i < 1_000; i++) {
        Batch del = db.batch();
        db.remove(del, b("k" + i), db.meta(b("k" + i)));
        del.commit();
      }
      for (int i = 0; i < 1_000; i++) {
        set(db, "k" + i, "c" + i, 0);
      }
      for (int i = 5_000; i < 6_000; i++) {
        set(db, "k" + i, "d" + i, i % 2 == 0 ? System.currentTimeMillis() + 3_600_000 : 0);
      }
      for (int i = 0; i < 6_000; i++) {
        String want = (i < 1_000 ? "c" : i < 5_000 ? "b" : "d") + i;
        assertThat(new String(db.meta(b("k" + i)).value, StandardCharsets.UTF_8)).isEqualTo(want);
      }
      assertThat(db.size()).as("the maintained count").isEqualTo(6_001);
      assertThat(db.countKeys(KeyRange.ALL)).as("the keys storage holds").isEqualTo(6_001);

      // The hash's metadata is not cached any more: a SET over it reads it and drops the field.
      assertThat(set(db, "h", "now a string", 0)).as("written blind").isFalse();
      assertThat(db.meta(b("h")).type).isEqualTo(KeyType.STRING);
      Table table = engine.table(RedisLayout.KEYSPACE, RedisLayout.tableName(0)).orElseThrow();
      assertThat(table.read(RedisLayout.subKey(hash), new ReadQuery(List.of(Slice.ALL), false, 10,
          System.currentTimeMillis() / 1000)).rows()).as("the old hash's fields").isEmpty();
      assertThat(db.size()).isEqualTo(6_001);
    }
  }

  /** SET key value [PXAT at] as the command does it; true if it was written blind. */
  private static boolean set(Database db, String key, String value, long expireAtMs) {
    if (db.setBlind(b(key), b(value), expireAtMs)) {
      return true;
    }
    Batch b = db.batch();
    db.store(b, b(key), db.meta(b(key)), KeyMeta.string(b(value), expireAtMs));
    b.commit();
    return false;
  }
}
