package io.cassette.resp.keyspace;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The complete member sets of recently written hashes, sets and sorted sets (one
 * {@link MemberTable} per collection incarnation, keyed by {@link KeyMeta#cacheId()}), so that
 * HSET, SADD, ZADD, HDEL, SREM and the existence reads learn whether a member is there without
 * a storage read. Redis's reply to HSET/SADD/ZADD is the count of new members, and the key's
 * stored size must follow it; without this, each such write read the member's row back
 * from a partition of up to every member (a 16 KiB chunk decoded per SSTable holding it), half
 * of the door's CPU under redis-benchmark's 100,000-member HSET/ZADD.
 *
 * <p>A table is only ever complete: it starts empty with the collection ({@link #created}) or
 * is loaded whole from storage once the collection's reads keep missing ({@link #shouldLoad}),
 * and follows every committed write after that ({@link Batch}). A collection with a member too
 * long to keep, a write that failed, or a range deletion stops being tracked. Whole tables are
 * evicted least recently used first within the byte budget. Not thread-safe: the command
 * thread owns it.
 */
final class MemberSets {
  /** Storage reads of an untracked collection before it is loaded: {@code BASE + size / DIVISOR}. */
  static final int LOAD_AFTER_BASE_MISSES = 16;
  static final int LOAD_AFTER_MISSES_DIVISOR = 32;
  /** Untracked collections whose misses are counted, at most. */
  private static final int MISS_COUNTERS = 1024;

  private final long budgetBytes;
  private final LinkedHashMap<Long, MemberTable> tables = new LinkedHashMap<>(64, 0.75f, true);
  private final LinkedHashMap<Long, int[]> misses = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, int[]> eldest) {
      return size() > MISS_COUNTERS;
    }
  };
  private long bytes;
  /** The last table looked up (a hot collection is asked for again and again). */
  private long lastId;
  private MemberTable last;

  MemberSets(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  boolean enabled() {
    return budgetBytes > 0;
  }

  /** The member tag of a collection type, or 0 for types without a member set. */
  static byte memberTag(KeyType type) {
    return switch (type) {
      case HASH -> RedisLayout.HASH_FIELD;
      case SET -> RedisLayout.SET_MEMBER;
      case ZSET -> RedisLayout.ZSET_MEMBER;
      default -> 0;
    };
  }

  /** A collection incarnation that has no members yet (a new key): its table starts complete. */
  void created(KeyMeta meta) {
    byte tag = memberTag(meta.type);
    if (enabled() && tag != 0) {
      install(meta.cacheId(), new MemberTable(tag));
    }
  }

  /** The complete table of {@code meta}'s members when it covers {@code clustering}, else null. */
  MemberTable complete(KeyMeta meta, byte[] clustering) {
    MemberTable t = table(meta.cacheId());
    return t != null && t.covers(clustering) ? t : null;
  }

  private MemberTable table(long id) {
    if (last != null && lastId == id) {
      return last;
    }
    if (tables.isEmpty()) {
      return null;
    }
    MemberTable t = tables.get(id);
    if (t != null) {
      last = t;
      lastId = id;
    }
    return t;
  }

  /**
   * Counts a storage read of an untracked collection's member; true once loading the whole
   * set is cheaper than reading on (the caller then {@link #install}s it).
   */
  boolean shouldLoad(KeyMeta meta, byte[] clustering) {
    byte tag = memberTag(meta.type);
    if (!enabled() || tag == 0 || clustering.length == 0 || clustering[0] != tag
        || estimatedBytes(meta.size, clustering.length) > budgetBytes * 3 / 4) {
      return false;
    }
    int[] n = misses.computeIfAbsent(meta.cacheId(), k -> new int[1]);
    if (++n[0] < LOAD_AFTER_BASE_MISSES + meta.size / LOAD_AFTER_MISSES_DIVISOR) {
      return false;
    }
    misses.remove(meta.cacheId());
    return true;
  }

  /**
   * Collection {@code id} holds a member too long to keep: its reads go to storage without
   * loading it again and again (until this mark ages out of the miss counters).
   */
  void untrackable(long id) {
    if (enabled()) {
      misses.put(id, new int[] {Integer.MIN_VALUE});
    }
  }

  /** What a table of {@code members} members like one of {@code memberBytes} would hold. */
  static long estimatedBytes(long members, int memberBytes) {
    return members * (memberBytes + 2 + 8 + 8L);
  }

  /** Starts tracking {@code id} with {@code table}, which holds every member it has now. */
  void install(long id, MemberTable table) {
    forget(id);
    if (table.heapBytes() > budgetBytes) {
      return;
    }
    tables.put(id, table);
    bytes += table.heapBytes();
    evict(id);
  }

  /** A committed write of sub-row {@code clustering} of collection {@code id}. */
  void put(long id, byte[] clustering, byte[] value) {
    MemberTable t = table(id);
    if (t == null || !t.covers(clustering)) {
      return;
    }
    if (!MemberTable.fits(clustering)) {
      forget(id); // no longer complete
      untrackable(id);
      return;
    }
    long before = t.heapBytes();
    t.put(clustering, value);
    grew(id, t, before);
  }

  /** A committed deletion of sub-row {@code clustering} of collection {@code id}. */
  void remove(long id, byte[] clustering) {
    MemberTable t = table(id);
    if (t != null && t.covers(clustering)) {
      long before = t.heapBytes();
      t.remove(clustering);
      grew(id, t, before);
    }
  }

  private void grew(long id, MemberTable t, long before) {
    long after = t.heapBytes();
    if (after != before) {
      bytes += after - before;
      if (after > budgetBytes) {
        forget(id); // one collection may take the whole budget, not more
      } else {
        evict(id);
      }
    }
  }

  /** Stops tracking {@code id} (deleted collection, or a write whose outcome is unknown). */
  void forget(long id) {
    MemberTable t = tables.remove(id);
    if (t != null) {
      bytes -= t.heapBytes();
    }
    if (lastId == id) {
      last = null;
    }
  }

  void clear() {
    tables.clear();
    misses.clear();
    bytes = 0;
    last = null;
  }

  /** Whether collection {@code id}'s member set is tracked (tests). */
  boolean tracks(long id) {
    return tables.containsKey(id);
  }

  /** Heap bytes held (tests, INFO). */
  long bytes() {
    return bytes;
  }

  private void evict(long keep) {
    Iterator<Map.Entry<Long, MemberTable>> it = tables.entrySet().iterator();
    while (bytes > budgetBytes && it.hasNext()) {
      Map.Entry<Long, MemberTable> e = it.next();
      if (e.getKey() == keep || (last != null && e.getKey() == lastId)) {
        continue; // the table in use (the last one looked up is not re-ordered on each hit)
      }
      bytes -= e.getValue().heapBytes();
      if (lastId == e.getKey()) {
        last = null;
      }
      it.remove();
    }
  }
}
