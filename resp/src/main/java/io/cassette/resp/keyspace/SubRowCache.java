package io.cassette.resp.keyspace;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recently read or written values of hash fields, set members and sorted-set member scores,
 * least recently used evicted first, bounded in bytes: hot fields (HINCRBY counters, SADD of
 * known members) skip the storage read. Keyed by collection version and clustering; versions
 * are never reused, so entries of a deleted collection are unreachable and simply age out.
 * List rows are not cached (range deletions would make them stale). Updated only after a
 * batch commits. Not thread-safe: the command thread owns it.
 */
final class SubRowCache {
  static final int ENTRY_OVERHEAD_BYTES = 120;

  private final long budgetBytes;
  private final LinkedHashMap<ByteBuffer, byte[]> entries = new LinkedHashMap<>(1024, 0.75f, true);
  private long bytes;

  SubRowCache(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  static boolean cacheable(byte[] clustering) {
    return clustering.length > 0 && clustering[0] != RedisLayout.LIST_ITEM
        && clustering[0] != RedisLayout.ZSET_SCORE && clustering[0] != RedisLayout.STREAM_ENTRY;
  }

  private static ByteBuffer key(long version, byte[] clustering) {
    byte[] k = new byte[8 + clustering.length];
    KeyMeta.putLong(k, 0, version);
    System.arraycopy(clustering, 0, k, 8, clustering.length);
    return ByteBuffer.wrap(k);
  }

  byte[] get(long version, byte[] clustering) {
    return budgetBytes <= 0 ? null : entries.get(key(version, clustering));
  }

  void put(long version, byte[] clustering, byte[] value) {
    if (budgetBytes <= 0 || !cacheable(clustering)) {
      return;
    }
    long size = weight(clustering.length + 8, value);
    if (size > budgetBytes / 8) {
      remove(version, clustering);
      return;
    }
    ByteBuffer k = key(version, clustering);
    byte[] old = entries.put(k, value);
    bytes += size - (old == null ? 0 : weight(k.capacity(), old));
    Iterator<Map.Entry<ByteBuffer, byte[]>> it = entries.entrySet().iterator();
    while (bytes > budgetBytes && it.hasNext()) {
      Map.Entry<ByteBuffer, byte[]> e = it.next();
      bytes -= weight(e.getKey().capacity(), e.getValue());
      it.remove();
    }
  }

  /** Drops every entry. */
  void clear() {
    entries.clear();
    bytes = 0;
  }

  void remove(long version, byte[] clustering) {
    ByteBuffer k = key(version, clustering);
    byte[] old = entries.remove(k);
    if (old != null) {
      bytes -= weight(k.capacity(), old);
    }
  }

  private static long weight(int keyBytes, byte[] value) {
    return ENTRY_OVERHEAD_BYTES + keyBytes + value.length;
  }
}
