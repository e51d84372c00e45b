package io.cassette.resp.keyspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.resp.RespServer;
import io.cassette.resp.RespServerOptions;
import io.cassette.resp.testing.TestServer;
import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Data written in Redis layout 1 (one node: no salt, one expiry partition) is read and kept
 * working by layout 2; new collections get layout 2; a newer layout is refused at start.
 */
class LayoutCompatibilityTest {
  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Table layoutOneTable(Engine engine) {
    TableSpec d = TableSpec.withDefaults(RedisLayout.KEYSPACE, RedisLayout.tableName(0), RedisLayout.tableId(0));
    return engine.createTable(new TableSpec(d.keyspace(), d.name(), d.id(), d.compression(), d.compaction(),
        RedisLayout.GC_GRACE_SECONDS, d.bloomFilterFpChance(), 0));
  }

  private static void put(Table t, byte[] partition, byte[] clustering, byte[] value) {
    t.apply(PartitionUpdate.builder(RedisLayout.KEYSPACE, RedisLayout.tableName(0), partition)
        .row(Row.of(clustering, List.of(Cell.live(RedisLayout.COLUMN, value, 1_000)))).build());
  }

  /** Layout-1 metadata: type | expireAtMs | version | size [| head | tail]. */
  private static byte[] v1Meta(KeyType type, long version, long size, long head, long tail) {
    ByteBuffer m = ByteBuffer.allocate(type == KeyType.LIST ? 41 : 25);
    m.put((byte) type.code).putLong(0).putLong(version).putLong(size);
    if (type == KeyType.LIST) {
      m.putLong(head).putLong(tail);
    }
    return m.array();
  }

  @Test
  void layoutOneDataIsReadAndKeptWorking() throws Exception {
    long expireAt = System.currentTimeMillis() + 300;
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      Table t = layoutOneTable(engine);
      put(t, RedisLayout.metaKey(b("h")), RedisLayout.META_CLUSTERING, v1Meta(KeyType.HASH, 111, 1, 0, 0));
      byte[] hashRows = ByteBuffer.allocate(9).put((byte) 's').putLong(111).array();
      put(t, hashRows, RedisLayout.tagged(RedisLayout.HASH_FIELD, b("field")), b("value"));
      put(t, RedisLayout.metaKey(b("l")), RedisLayout.META_CLUSTERING, v1Meta(KeyType.LIST, 222, 2, 0, 2));
      byte[] chunk = ByteBuffer.allocate(17).put((byte) 'l').putLong(222).putLong(Long.MIN_VALUE).array();
      put(t, chunk, RedisLayout.listPosition(0), b("a"));
      put(t, chunk, RedisLayout.listPosition(1), b("b"));
      // A string with a TTL, indexed in layout 1's single expiry partition.
      ByteBuffer s = ByteBuffer.allocate(9 + 1).put((byte) KeyType.STRING.code).putLong(expireAt).put((byte) 'x');
      put(t, RedisLayout.metaKey(b("e")), RedisLayout.META_CLUSTERING, s.array());
      put(t, RedisLayout.LEGACY_EXPIRY_KEY, RedisLayout.expiryClustering(expireAt, b("e")), new byte[0]);
    }
    try (TestServer server = TestServer.start(dir); Jedis jedis = new Jedis("127.0.0.1", server.port())) {
      assertThat(jedis.hget("h", "field")).isEqualTo("value");
      assertThat(jedis.lrange("l", 0, -1)).containsExactly("a", "b");
      jedis.hset("h", "f2", "v2");
      jedis.rpush("l", "c");
      assertThat(jedis.hgetAll("h")).containsEntry("field", "value").containsEntry("f2", "v2");
      assertThat(jedis.lrange("l", 0, -1)).containsExactly("a", "b", "c");
      jedis.hset("new", "f", "v");
      Table t = server.engine.table(RedisLayout.KEYSPACE, RedisLayout.tableName(0)).orElseThrow();
      assertThat(meta(t, "h")).hasSize(25);   // a layout-1 collection keeps its layout
      assertThat(meta(t, "new")).hasSize(33); // new collections get a salt
      KeyMeta fresh = KeyMeta.decode(meta(t, "new"));
      assertThat(fresh.salt).isNotZero();
      assertThat(t.read(RedisLayout.subKey(fresh), ReadQuery.all(0)).rows()).hasSize(1);
      var layout = t.read(RedisLayout.LAYOUT_KEY, ReadQuery.all(0));
      Row mark = layout.rows().isEmpty() ? layout.staticRow() : layout.rows().get(0);
      assertThat(ByteBuffer.wrap(mark.cell(RedisLayout.COLUMN).value()).getInt()).isEqualTo(RedisLayout.LAYOUT);
      // Active expiry drains layout 1's expiry partition without any read of the key.
      long deadline = System.currentTimeMillis() + 10_000;
      while (meta(t, "e") != null && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      assertThat(meta(t, "e")).isNull();
    }
  }

  @Test
  void expiryEntriesGoToTheBucketOfTheKeysToken() throws Exception {
    try (TestServer server = TestServer.start(dir); Jedis jedis = new Jedis("127.0.0.1", server.port())) {
      for (int i = 0; i < 64; i++) {
        jedis.psetex("k" + i, 300, "v");
      }
      Table t = server.engine.table(RedisLayout.KEYSPACE, RedisLayout.tableName(0)).orElseThrow();
      int buckets = 0;
      for (int bucket = 0; bucket < RedisLayout.EXPIRY_BUCKETS; bucket++) {
        if (!t.read(RedisLayout.expiryBucketKey(bucket), ReadQuery.all(0)).rows().isEmpty()) {
          buckets++;
        }
      }
      assertThat(buckets).isGreaterThan(8); // 64 keys spread over the 16 buckets
      assertThat(t.read(RedisLayout.LEGACY_EXPIRY_KEY, ReadQuery.all(0)).rows()).isEmpty();
      long deadline = System.currentTimeMillis() + 10_000;
      while (countMeta(t) > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      assertThat(countMeta(t)).isZero(); // removed by active expiry, not by reads
    }
  }

  private static int countMeta(Table t) {
    int n = 0;
    try (var it = t.scan(io.cassette.storage.KeyRange.ALL, ReadQuery.all(System.currentTimeMillis() / 1000))) {
      while (it.hasNext()) {
        if (RedisLayout.isMetaKey(it.next().key().key())) {
          n++;
        }
      }
    }
    return n;
  }

  @Test
  void aNewerLayoutIsRefusedAtStart() {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      Table t = layoutOneTable(engine);
      put(t, RedisLayout.LAYOUT_KEY, RedisLayout.META_CLUSTERING, ByteBuffer.allocate(4).putInt(3).array());
      RespServer server = new RespServer(RespServerOptions.ephemeral(), LocalCoordinator.open(engine, null),
          new io.cassette.metrics.NodeMetrics(new io.cassette.metrics.LatencyMonitor()));
      try {
        assertThatThrownBy(server::start).hasStackTraceContaining("written with Redis layout 3")
            .hasStackTraceContaining("reads layouts 1 to 2");
      } finally {
        server.close();
      }
    }
  }

  private static byte[] meta(Table t, String key) {
    var view = t.read(RedisLayout.metaKey(b(key)), ReadQuery.all(System.currentTimeMillis() / 1000));
    Row r = view.rows().isEmpty() ? view.staticRow() : view.rows().get(0);
    return r == null ? null : r.cell(RedisLayout.COLUMN).value();
  }
}
