package io.cassette.resp.keyspace;

import io.cassette.storage.Engine;

/**
 * The Redis databases of one server on one engine. Databases (and their tables) are created
 * on first use; database 0 at once, so a broken engine fails the server's start.
 * Not thread-safe: used by the single command thread.
 */
public final class Keyspace {
  private final Engine engine;
  private final RedisClock clock = new RedisClock();
  private final Database[] databases = new Database[RedisLayout.DATABASES];

  /** Heap share for the metadata caches of all databases together. */
  static final int CACHE_HEAP_DIVISOR = 16;
  private final MetaCache cache;
  private final SubRowCache subRows;

  public Keyspace(Engine engine) {
    this(engine, Runtime.getRuntime().maxMemory() / CACHE_HEAP_DIVISOR);
  }

  /**
   * @param cacheBytes metadata cache budget of all databases together (0 = no cache); the
   *                   sub-row cache gets half as much again
   */
  public Keyspace(Engine engine, long cacheBytes) {
    this.engine = engine;
    this.cache = new MetaCache(cacheBytes);
    this.subRows = new SubRowCache(cacheBytes / 2);
    // Reopen databases that already have tables, so DBSIZE/INFO and expiry see them.
    for (int i = 0; i < RedisLayout.DATABASES; i++) {
      if (i == 0 || engine.table(RedisLayout.KEYSPACE, RedisLayout.tableName(i)).isPresent()) {
        databases[i] = new Database(i, engine, clock, cache, subRows);
      }
    }
  }

  /** Database {@code index} (0..15), created if needed. */
  public Database db(int index) {
    Database d = databases[index];
    if (d == null) {
      d = new Database(index, engine, clock, cache, subRows);
      databases[index] = d;
    }
    return d;
  }

  /** Database {@code index} if it was ever used, else null (nothing to read). */
  public Database existing(int index) {
    return databases[index];
  }

  public RedisClock clock() {
    return clock;
  }
}
