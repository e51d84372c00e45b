package io.cassette.cql.language;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prepared statements by id, bounded in number and in the heap they are estimated to take.
 * Cassandra bounds its cache in bytes ({@code prepared_statements_cache_size}); a count alone
 * lets a client preparing ten thousand unique statements of a megabyte each run a small heap
 * out. Thread-safe.
 *
 * <p>Every EXECUTE looks its statement up, so {@link #get} takes no lock and moves nothing: it
 * sets the entry's used bit. Eviction (in {@link #put}, under the lock) is CLOCK, the usual
 * approximation of least recently used: entries in insertion order; one used since the hand
 * last passed gets its bit cleared and goes round again, one not used is evicted. The entry a
 * put has just added is never the one evicted (it must be executable once its PREPARE is answered).
 *
 * @param <V> what is kept per statement
 */
final class PreparedCache<V> {
  /** A statement's parsed and compiled forms grow with its text: weighed as this many times it. */
  static final int TEXT_WEIGHT = 8;
  /** Weight of a statement besides its text (objects of even the shortest statement). */
  static final int BASE_WEIGHT = 1024;

  /** One statement: its value replaced in place when it is recompiled (so the clock holds it once). */
  private static final class Entry<V> {
    final Key key;
    volatile V value;
    /** Under the cache's lock. */
    long weight;
    /** Set by get (racy on purpose: a lost set only makes the eviction a little less exact). */
    boolean used;
    /** Removed from the map; the clock drops it when its hand comes by (under the lock). */
    boolean removed;

    Entry(Key key, V value, long weight) {
      this.key = key;
      this.value = value;
      this.weight = weight;
    }
  }

  private final int maxCount;
  private long maxWeight;
  private long weight;
  private final ConcurrentHashMap<Key, Entry<V>> entries = new ConcurrentHashMap<>(256);
  /** The clock: entries in insertion order, head next under the hand (under the lock). */
  private final ArrayDeque<Entry<V>> clock = new ArrayDeque<>(256);

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

  /** Lock-free. */
  V get(byte[] id) {
    Entry<V> e = entries.get(new Key(id));
    if (e == null) {
      return null;
    }
    if (!e.used) {
      e.used = true; // written only when clear: a hot entry's cache line is not dirtied per read
    }
    return e.value;
  }

  /** Keeps {@code value}, then evicts until both bounds hold (the newest entry is always kept). */
  synchronized void put(byte[] id, V value, long valueWeight) {
    Key key = new Key(id);
    Entry<V> old = entries.get(key);
    Entry<V> kept = old;
    if (old != null) {
      old.value = value;
      weight += valueWeight - old.weight;
      old.weight = valueWeight;
      old.used = true;
    } else {
      Entry<V> e = new Entry<>(key, value, valueWeight);
      kept = e;
      entries.put(key, e);
      clock.addLast(e);
      weight += valueWeight;
    }
    while ((entries.size() > maxCount || weight > maxWeight) && entries.size() > 1) {
      Entry<V> e = clock.pollFirst();
      if (e.removed) {
        continue;
      }
      if (e.used || e == kept) {
        e.used = false;
        clock.addLast(e);
        continue;
      }
      entries.remove(e.key);
      e.removed = true;
      weight -= e.weight;
    }
    if (clock.size() > 2 * entries.size() + 64) {
      clock.removeIf(e -> e.removed); // removed entries wait for the hand; never more than this
    }
  }

  synchronized void remove(byte[] id) {
    Entry<V> old = entries.remove(new Key(id));
    if (old != null) {
      old.removed = true;
      weight -= old.weight;
    }
  }

  int size() {
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
