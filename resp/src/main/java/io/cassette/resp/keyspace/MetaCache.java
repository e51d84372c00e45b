package io.cassette.resp.keyspace;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recently used key metadata (strings with their values), least recently used evicted first,
 * bounded in bytes: a hot key's GET, INCR or HSET skips the storage read of its metadata row.
 * Holds copies; filled on reads and on committed writes only, so it never gets ahead of
 * storage. Not thread-safe: the command thread owns it.
 */
final class MetaCache {
  /** Rough per-entry overhead of the map node, key buffer and KeyMeta object. */
  static final int ENTRY_OVERHEAD_BYTES = 160;

  private final long budgetBytes;
  private final LinkedHashMap<ByteBuffer, KeyMeta> entries = new LinkedHashMap<>(1024, 0.75f, true);
  private long bytes;

  MetaCache(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  /** A copy of the cached metadata, or null when not cached. */
  KeyMeta get(int db, byte[] key) {
    KeyMeta m = entries.get(ByteBuffer.wrap(key(db, key)));
    return m == null ? null : copy(m);
  }

  /** The cache key: database index, then the Redis key. */
  private static byte[] key(int db, byte[] key) {
    byte[] k = new byte[key.length + 1];
    k[0] = (byte) db;
    System.arraycopy(key, 0, k, 1, key.length);
    return k;
  }

  void put(int db, byte[] redisKey, KeyMeta meta) {
    if (budgetBytes <= 0) {
      return;
    }
    byte[] key = key(db, redisKey);
    long size = weight(key, meta);
    if (size > budgetBytes / 8) {
      remove(db, redisKey); // one huge string must not flush the cache
      return;
    }
    KeyMeta old = entries.put(ByteBuffer.wrap(key), copy(meta));
    bytes += size - (old == null ? 0 : weight(key, old));
    Iterator<Map.Entry<ByteBuffer, KeyMeta>> it = entries.entrySet().iterator();
    while (bytes > budgetBytes && it.hasNext()) {
      Map.Entry<ByteBuffer, KeyMeta> e = it.next();
      bytes -= weight(e.getKey().array(), e.getValue());
      it.remove();
    }
  }

  void remove(int db, byte[] redisKey) {
    byte[] key = key(db, redisKey);
    KeyMeta old = entries.remove(ByteBuffer.wrap(key));
    if (old != null) {
      bytes -= weight(key, old);
    }
  }

  /** Drops every entry. */
  void clear() {
    entries.clear();
    bytes = 0;
  }

  /** Drops every entry of database {@code db}. */
  void clear(int db) {
    Iterator<Map.Entry<ByteBuffer, KeyMeta>> it = entries.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<ByteBuffer, KeyMeta> e = it.next();
      if (e.getKey().get(0) == (byte) db) {
        bytes -= weight(e.getKey().array(), e.getValue());
        it.remove();
      }
    }
  }

  private static long weight(byte[] key, KeyMeta m) {
    return ENTRY_OVERHEAD_BYTES + key.length + (m.value == null ? 0 : m.value.length);
  }

  static KeyMeta copy(KeyMeta m) {
    return m.copy();
  }
}
