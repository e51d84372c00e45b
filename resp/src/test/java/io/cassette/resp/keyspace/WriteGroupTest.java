package io.cassette.resp.keyspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes waiting in a {@link WriteGroup} are seen by every later read, also of keys the cache
 * no longer holds (the read writes the group first), and all of them reach storage. On a small
 * cache, so most keys are evicted while their writes wait.
 */
class WriteGroupTest {
  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void waitingWritesAreReadBackThoughEvictedAndAllReachStorage() {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      Keyspace keyspace = new Keyspace(LocalCoordinator.open(engine, null), 64 * 1024);
      Database db = keyspace.db(0);
      WriteGroup group = keyspace.writeGroup();
      assertThat(group.possible()).isTrue();
      group.open();
      for (int i = 0; i < 3_000; i++) {
        set(db, "k" + i, "a" + i);
      }
      for (int i = 0; i < 3_000; i++) {
        assertThat(new String(db.meta(b("k" + i)).value, StandardCharsets.UTF_8)).isEqualTo("a" + i);
        set(db, "k" + i, "b" + i); // waits again; read back below
      }
      for (int i = 0; i < 3_000; i += 7) {
        assertThat(new String(db.meta(b("k" + i)).value, StandardCharsets.UTF_8)).isEqualTo("b" + i);
      }
      group.commit();
      assertThat(group.failure()).isNull();
      Table table = engine.table(RedisLayout.KEYSPACE, RedisLayout.tableName(0)).orElseThrow();
      for (int i = 0; i < 3_000; i++) {
        var rows = table.read(RedisLayout.metaKey(b("k" + i)),
            ReadQuery.row(RedisLayout.META_CLUSTERING, System.currentTimeMillis() / 1000)).rows();
        assertThat(KeyMeta.decode(Database.valueOf(rows.get(0))).value).isEqualTo(b("b" + i));
      }
      assertThat(db.size()).isEqualTo(3_000);
    }
  }

  private static void set(Database db, String key, String value) {
    if (db.setBlind(b(key), b(value), 0)) {
      return;
    }
    Batch batch = db.batch();
    db.store(batch, b(key), db.meta(b(key)), KeyMeta.string(b(value), 0));
    batch.commit();
  }
}
