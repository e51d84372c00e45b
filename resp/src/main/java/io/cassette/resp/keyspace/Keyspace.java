package io.cassette.resp.keyspace;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;

/**
 * The Redis databases of one server, reached through the coordinator. Databases (and their tables) are created
 * on first use; database 0 at once, so a broken storage fails the server's start.
 * Not thread-safe: used by the single command thread.
 */
public final class Keyspace {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Keyspace.class);
  private final Coordinator coordinator;
  private final RedisClock clock = new RedisClock();
  private final Database[] databases = new Database[RedisLayout.DATABASES];
  private final Request request;
  private KeyRouter router = KeyRouter.LOCAL;

  /** Heap share for the metadata caches of all databases together. */
  public static final int CACHE_HEAP_DIVISOR = 16;
  private final MetaCache cache;
  private final SubRowCache subRows;

  public Keyspace(Coordinator coordinator) {
    this(coordinator, Runtime.getRuntime().maxMemory() / CACHE_HEAP_DIVISOR);
  }

  /**
   * @param cacheBytes metadata cache budget of all databases together (0 = no cache); the
   *                   sub-row cache gets half as much again
   */
  public Keyspace(Coordinator coordinator, long cacheBytes) {
    this(coordinator, cacheBytes, RedisTable.DEFAULT_CONSISTENCY);
  }

  /**
   * @param consistency the level of every read and write ({@code resp_consistency}; default
   *                    {@link #defaultConsistency()})
   */
  public Keyspace(Coordinator coordinator, long cacheBytes, ConsistencyLevel consistency) {
    this(coordinator, cacheBytes, consistency, coordinator.seesAllWrites());
  }

  /**
   * @param keysWrittenHere whether every write of a key this node reads passes through this
   *                        keyspace, so caching its rows is safe: one node; or a ring whose
   *                        Redis door runs each key's commands on one node (RedisRing), which
   *                        also drops the caches when that node may change ({@link #dropCaches})
   */
  public Keyspace(Coordinator coordinator, long cacheBytes, ConsistencyLevel consistency,
                  boolean keysWrittenHere) {
    this.coordinator = coordinator;
    this.request = Request.of(consistency);
    // Keys written by other nodes too (a ring without RedisRing): a cache here would serve stale values.
    long budget = keysWrittenHere ? cacheBytes : 0;
    this.cache = new MetaCache(budget);
    this.subRows = new SubRowCache(budget / 2);
    // Reopen databases that already have tables, so DBSIZE/INFO and expiry see them.
    long deadline = System.nanoTime() + OPEN_WAIT_MILLIS * 1_000_000L;
    for (int i = 0; i < RedisLayout.DATABASES; i++) {
      if (i == 0 || RedisTable.exists(coordinator, i)) {
        databases[i] = openAtStart(i, deadline);
      }
    }
  }

  /**
   * How long the door's start tries again to create its tables while the metadata service
   * cannot commit. Seen on a loaded machine: a ring node's first schema commit took over the
   * 5 s commit timeout (GC pauses, Raft catching up) and the node exited with "Cannot listen
   * for RESP ... null" (the timeout's message). A SELECT of a new database does not wait.
   */
  static final long OPEN_WAIT_MILLIS = 60_000;

  private Database openAtStart(int index, long deadline) {
    while (true) {
      try {
        return new Database(index, coordinator, clock, cache, subRows, request);
      } catch (io.cassette.coordinator.metadata.MetadataUnavailableException e) {
        if (System.nanoTime() - deadline > 0) {
          throw e;
        }
        LOG.warn("Redis database {}: cannot create its table yet ({}); trying again", index, e.getMessage());
        try {
          Thread.sleep(1_000);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /** resp_consistency's default (see {@code RedisTable.DEFAULT_CONSISTENCY}). */
  public static ConsistencyLevel defaultConsistency() {
    return RedisTable.DEFAULT_CONSISTENCY;
  }

  /** The level every read and write of the Redis door uses. */
  public ConsistencyLevel consistency() {
    return request.consistency();
  }

  /** Which node runs each key's commands (the ring's router; one node: {@link KeyRouter#LOCAL}). */
  public void router(KeyRouter newRouter) {
    this.router = newRouter;
    for (Database d : databases) {
      if (d != null) {
        d.router = newRouter;
      }
    }
  }

  /**
   * Forgets every cached row (the ring changed, so which node executes a key may have; or
   * another node flushed a database).
   */
  public void dropCaches() {
    cache.clear();
    subRows.clear();
  }

  /** Database {@code index} (0..15), created if needed. */
  public Database db(int index) {
    Database d = databases[index];
    if (d == null) {
      d = new Database(index, coordinator, clock, cache, subRows, request);
      d.router = router;
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
