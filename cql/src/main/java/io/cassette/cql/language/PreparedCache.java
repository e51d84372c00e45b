package io.cassette.cql.language;

import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prepared statements by id, least recently used evicted first, bounded in number and in the
 * heap they are estimated to take. Cassandra bounds its cache in bytes
 * ({@code prepared_statements_cache_size}); a count alone lets a client preparing ten thousand
 * unique statements of a megabyte each run a small heap out. Thread-safe (one lock).
 *
 * @param <V> what is kept per statement
 */
final class PreparedCache<V> {
  /** A statement's parsed and compiled forms grow with its text: weighed as this many times it. */
  static final int TEXT_WEIGHT = 8;
  /** Weight of a statement besides its text (objects of even the shortest statement). */
  static final int BASE_WEIGHT = 1024;

  private record Entry<V>(V value, long weight) {}

  private final int maxCount;
  private long maxWeight;
  private long weight;
  private final LinkedHashMap<Key, Entry<V>> entries = new LinkedHashMap<>(256, 0.75f, true);

  PreparedCache(int maxCount, long maxWeight) {
    this.maxCount = maxCount;
    this.maxWeight = maxWeight;
  }

  /** Replaces the bound on the estimated weight (prepared_statements_cache_size); applies from the next put. */
  synchronized void maxWeight(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("prepared statements cache size must be > 0: " + bytes);
    }
    this.maxWeight = bytes;
  }

  /** The weight of a statement of {@code textLength} characters. */
  static long weightOf(int textLength) {
    return BASE_WEIGHT + (long) TEXT_WEIGHT * textLength;
  }

  synchronized V get(byte[] id) {
    Entry<V> e = entries.get(new Key(id));
    return e == null ? null : e.value();
  }

  /** Keeps {@code value}, then evicts the least recently used until both bounds hold. */
  synchronized void put(byte[] id, V value, long valueWeight) {
    Entry<V> old = entries.put(new Key(id), new Entry<>(value, valueWeight));
    weight += valueWeight - (old == null ? 0 : old.weight());
    Iterator<Map.Entry<Key, Entry<V>>> eldest = entries.entrySet().iterator();
    while ((entries.size() > maxCount || weight > maxWeight) && entries.size() > 1) {
      weight -= eldest.next().getValue().weight();
      eldest.remove();
    }
  }

  synchronized void remove(byte[] id) {
    Entry<V> old = entries.remove(new Key(id));
    if (old != null) {
      weight -= old.weight();
    }
  }

  synchronized int size() {
    return entries.size();
  }

  synchronized long weight() {
    return weight;
  }

  private record Key(byte[] id) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(id, k.id);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(id);
    }
  }
}
