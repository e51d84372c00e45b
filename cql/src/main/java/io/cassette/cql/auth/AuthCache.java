package io.cassette.cql.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A cache of what {@code system_auth} said (roles, permissions, credentials) with Cassandra's
 * validity setting: an entry is used for {@code validityMillis} after it was loaded, then
 * loaded again; 0 disables the cache. Bounded by {@code maxEntries} (Cassandra's
 * {@code *_cache_max_entries}): past it the cache is cleared, which costs only reloads.
 * Thread-safe; two threads may load the same key at once, which is harmless.
 */
final class AuthCache<K, V> {
  private record Entry<V>(V value, long loadedAtNanos) {}

  private final String name;
  private final long validityNanos;
  private final int maxEntries;
  private final Function<K, V> loader;
  private final ConcurrentHashMap<K, Entry<V>> entries = new ConcurrentHashMap<>();

  AuthCache(String name, long validityMillis, int maxEntries, Function<K, V> loader) {
    this.name = name;
    this.validityNanos = validityMillis * 1_000_000L;
    this.maxEntries = maxEntries;
    this.loader = loader;
  }

  V get(K key) {
    if (validityNanos <= 0) {
      return loader.apply(key);
    }
    long now = System.nanoTime();
    Entry<V> e = entries.get(key);
    if (e != null && now - e.loadedAtNanos() < validityNanos) {
      return e.value();
    }
    V v = loader.apply(key);
    if (entries.size() >= maxEntries) {
      entries.clear();
    }
    entries.put(key, new Entry<>(v, now));
    return v;
  }

  /** Forgets one key (after a change made on this node, so it is seen at once here). */
  void invalidate(K key) {
    entries.remove(key);
  }

  void invalidateAll() {
    entries.clear();
  }

  @Override
  public String toString() {
    return name + " (" + entries.size() + " entries)";
  }
}
