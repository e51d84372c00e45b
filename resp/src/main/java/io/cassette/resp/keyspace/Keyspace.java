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
  /** The fence of the command running now, carried by its writes (a ring with more than one replica). */
  private final WriteFence.Slot fence = new WriteFence.Slot(clock);
  /** The database object of each table slot, once opened (see {@link DatabaseMap}). */
  private final Database[] bySlot = new Database[RedisLayout.DATABASES];
  /** Table slot of each SELECT index, as of metadata epoch {@link #mapEpoch}. */
  private int[] slotOf = DatabaseMap.identity();
  private long mapEpoch = -1;
  private final Request request;
  private KeyRouter router = KeyRouter.LOCAL;

  /**
   * Heap share of the Redis door's caches of all databases together: sub-rows take half of it,
   * member sets up to all of it, {@link KnownKeys} up to two thirds; the key metadata cache
   * takes {@link #META_CACHE_HEAP_DIVISOR}'s share instead.
   */
  public static final int CACHE_HEAP_DIVISOR = 16;
  /**
   * Heap share of the key metadata cache. A ninth: redis-benchmark's 200,000 keys (100,000
   * {@code key:*} strings and 100,000 {@code counter:*} counters, ~52 bytes each with the
   * table) fit a 128 MiB node's share (123.75 MiB of heap under the serial collector: ~13.7
   * MiB; the table's 262,144 slots hold 209,715), so INCR and GET read no metadata from
   * storage. A sixteenth held 104,857: GET -P 16 spent half its CPU, INCR -P 16 almost half,
   * reading and decoding SSTable chunks for the other half; a tenth held 196,607 of them in
   * 120 MiB. Measured: bench/results/2026-12-02-respwrite.md.
   */
  public static final int META_CACHE_HEAP_DIVISOR = 9;
  private final MetaCache cache;
  private final SubRowCache subRows;
  private final MemberSets memberSets;

  public Keyspace(Coordinator coordinator) {
    this(coordinator, Runtime.getRuntime().maxMemory() / CACHE_HEAP_DIVISOR);
  }

  /**
   * @param cacheBytes metadata cache budget of all databases together (0 = no cache); the
   *                   sub-row cache gets half as much again, the member sets
   *                   ({@link MemberSets}) as much again
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
    this.cache = new MetaCache(budget * CACHE_HEAP_DIVISOR / META_CACHE_HEAP_DIVISOR,
        MetaCache.knownBudget(budget));
    this.subRows = new SubRowCache(budget / 2);
    this.memberSets = new MemberSets(budget);
    // Reopen databases that already have tables, so DBSIZE/INFO and expiry see them.
    long deadline = System.nanoTime() + OPEN_WAIT_MILLIS * 1_000_000L;
    refreshMap();
    for (int i = 0; i < RedisLayout.DATABASES; i++) {
      int slot = slotOf[i];
      if (i == 0 || RedisTable.exists(coordinator, slot)) {
        bySlot[slot] = openAtStart(i, slot, deadline);
      }
    }
  }

  /**
   * Reads the database map again when the metadata moved on (a SWAPDB here or on another
   * node): called as each command looks its database up, on the command thread, so a swap
   * falls between two commands.
   */
  private void refreshMap() {
    io.cassette.coordinator.metadata.ClusterMetadata m = coordinator.metadata().current();
    if (m.epoch() == mapEpoch) {
      return;
    }
    int[] map = DatabaseMap.of(m);
    mapEpoch = m.epoch();
    if (!java.util.Arrays.equals(map, slotOf)) {
      slotOf = map;
      for (int i = 0; i < map.length; i++) {
        if (bySlot[map[i]] != null) {
          bySlot[map[i]].index(i);
        }
      }
    }
  }

  /**
   * SWAPDB: databases {@code a} and {@code b} exchange their tables, ring-wide and durably
   * (through the metadata log); returns once this node serves the new map.
   */
  public void swap(int a, int b) {
    db(a);
    db(b); // both tables exist before the map names them
    DatabaseMap.swap(coordinator, a, b);
    refreshMap();
  }

  /**
   * How long the door's start tries again to create its tables while the metadata service
   * cannot commit. Seen on a loaded machine: a ring node's first schema commit took over the
   * 5 s commit timeout (GC pauses, Raft catching up) and the node exited with "Cannot listen
   * for RESP ... null" (the timeout's message). A SELECT of a new database does not wait.
   */
  static final long OPEN_WAIT_MILLIS = 60_000;

  /**
   * {@link RedisReplication#apply} as the door opens, tried again (as the tables are) while the
   * metadata service cannot commit yet.
   */
  public static void applyReplication(Coordinator coordinator, int rf) {
    long deadline = System.nanoTime() + OPEN_WAIT_MILLIS * 1_000_000L;
    while (true) {
      try {
        RedisReplication.apply(coordinator, rf);
        return;
      } catch (io.cassette.coordinator.metadata.MetadataUnavailableException e) {
        if (System.nanoTime() - deadline > 0) {
          throw e;
        }
        LOG.warn("Redis keyspace: cannot set its replication yet ({}); trying again", e.getMessage());
        sleepBeforeRetry(e);
      }
    }
  }

  private static void sleepBeforeRetry(RuntimeException e) {
    try {
      Thread.sleep(1_000);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw e;
    }
  }

  private Database openAtStart(int index, int slot, long deadline) {
    while (true) {
      try {
        return new Database(index, slot, coordinator, clock, cache, subRows, memberSets, request, fence);
      } catch (io.cassette.coordinator.metadata.MetadataUnavailableException e) {
        if (System.nanoTime() - deadline > 0) {
          throw e;
        }
        LOG.warn("Redis database {}: cannot create its table yet ({}); trying again", index, e.getMessage());
        sleepBeforeRetry(e);
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
    for (Database d : bySlot) {
      if (d != null) {
        d.router = newRouter;
      }
    }
  }

  /** Where the ring puts the fence of the command it executes next (command thread). */
  public WriteFence.Slot fence() {
    return fence;
  }

  /**
   * Forgets every cached row (the ring changed, so which node executes a key may have; or
   * another node flushed a database).
   */
  public void dropCaches() {
    cache.clear();
    subRows.clear();
    memberSets.clear();
  }

  /** The member sets every database shares (tests). */
  MemberSets memberSets() {
    return memberSets;
  }

  /** Database {@code index} (0..15), created if needed. */
  public Database db(int index) {
    refreshMap();
    int slot = slotOf[index];
    Database d = bySlot[slot];
    if (d == null) {
      d = new Database(index, slot, coordinator, clock, cache, subRows, memberSets, request, fence);
      d.router = router;
      bySlot[slot] = d;
    }
    return d;
  }

  /** Database {@code index} if it was ever used, else null (nothing to read). */
  public Database existing(int index) {
    refreshMap();
    return bySlot[slotOf[index]];
  }

  public RedisClock clock() {
    return clock;
  }
}
