package io.cassette.storage.sstable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Data positions of recently read partitions, by open SSTable and token (Cassandra's key
 * cache): a hit skips the index summary, the sub-summary, the Index.db chunk and its entry
 * walk, a third of a point read's storage CPU. Holds only partitions without a row index.
 *
 * <p>The token stands for the key: the caller checks the key stored at the data position
 * before trusting a hit (two keys of one SSTable may share a token) and falls back to the
 * index when it differs. Open SSTables have ids that are never reused and files never change,
 * so an entry is never stale; entries of closed SSTables age out.
 *
 * <p>One {@code long[]}, no object per entry: sets of {@link #WAYS} entries of four longs
 * (sequence, SSTable id, token, position), a set chosen by hash. Each entry is a seqlock: a
 * writer makes the sequence odd by compare-and-set, writes, then makes it even; a reader
 * takes the words only if the sequence was even and unchanged around them, so a torn entry is
 * never returned (opaque accesses: longs are atomic on 32-bit ARM too). The victim in a full
 * set is the one not hit since it was last passed over (a reference bit in the sequence word).
 * Bounded: {@link #budgetForHeap} bytes, {@link #BYTES_PER_ENTRY} per partition cached.
 * Thread-safe; counters are racy estimates.
 */
public final class KeyCache {
  /** The cache gets this fraction of the heap (1/64: 2 MiB, 65,536 partitions, on a 128 MB heap)... */
  public static final int HEAP_FRACTION = 64;
  /** ...but never more than this (262,144 partitions). */
  public static final long MAX_BYTES = 8L << 20;
  /** Four longs. */
  public static final int BYTES_PER_ENTRY = 32;
  static final int WAYS = 4;
  private static final int LONGS = 4;
  /** The sequence word's reference bit: set by a hit, cleared by an insert passing over it. */
  private static final long REFERENCED = 1L << 62;
  private static final VarHandle A = MethodHandles.arrayElementVarHandle(long[].class);

  /** The JVM's cache: point reads of every engine in it share it (SSTable ids are JVM-wide). */
  static final KeyCache SHARED = new KeyCache(budgetForHeap());

  /** The JVM's cache, for its counters (the engines' metrics). */
  public static KeyCache shared() {
    return SHARED;
  }

  private final long[] table;
  private final int setMask;
  private long hits;
  private long misses;
  /** Ways filled (entries are replaced, never removed). Racy, as the other counters. */
  private long entries;

  public KeyCache(long capacityBytes) {
    long sets = Math.max(1, capacityBytes / (BYTES_PER_ENTRY * WAYS));
    int n = Integer.highestOneBit((int) Math.min(1 << 24, sets));
    this.table = new long[n * WAYS * LONGS];
    this.setMask = n - 1;
  }

  public static long budgetForHeap() {
    return Math.min(MAX_BYTES, Runtime.getRuntime().maxMemory() / HEAP_FRACTION);
  }

  private int set(long sstable, long token) {
    long h = (sstable * 0x9E3779B97F4A7C15L) ^ token;
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    h ^= h >>> 32;
    return ((int) h & setMask) * (WAYS * LONGS);
  }

  /** The data position of {@code token}'s partition in SSTable {@code sstable}, or -1. */
  long get(long sstable, long token) {
    int base = set(sstable, token);
    for (int w = 0; w < WAYS; w++) {
      int e = base + w * LONGS;
      long seq = (long) A.getAcquire(table, e);
      if ((seq & 1) != 0) {
        continue; // being written: a miss, not a wait
      }
      long file = (long) A.getOpaque(table, e + 1);
      long t = (long) A.getOpaque(table, e + 2);
      long position = (long) A.getOpaque(table, e + 3);
      VarHandle.loadLoadFence();
      long again = (long) A.getOpaque(table, e);
      if ((again & ~REFERENCED) != (seq & ~REFERENCED) || file != sstable || t != token) {
        continue;
      }
      if ((again & REFERENCED) == 0) {
        A.compareAndSet(table, e, again, again | REFERENCED); // lost to a racing writer: no matter
      }
      hits++;
      return position;
    }
    misses++;
    return -1;
  }

  /**
   * Remembers a partition's data position in an empty way of its set, else in one not hit
   * since the last pass (from a way the token picks, so a stream of keys read once replaces
   * its own entries, not the hit ones); when all were hit, clears their bits and takes that
   * way. Gives up quietly when another thread is writing the way.
   */
  void put(long sstable, long token, long position) {
    int base = set(sstable, token);
    int start = (int) (token >>> 62);
    int victim = -1;
    for (int k = 0; k < WAYS && victim < 0; k++) {
      int e = base + ((start + k) & (WAYS - 1)) * LONGS;
      if ((long) A.getOpaque(table, e + 1) == 0) {
        victim = e;
      }
    }
    for (int k = 0; k < WAYS && victim < 0; k++) {
      int e = base + ((start + k) & (WAYS - 1)) * LONGS;
      if (((long) A.getOpaque(table, e) & REFERENCED) == 0) {
        victim = e;
      }
    }
    if (victim < 0) {
      for (int w = 0; w < WAYS; w++) {
        int e = base + w * LONGS;
        long seq = (long) A.getOpaque(table, e);
        A.compareAndSet(table, e, seq, seq & ~REFERENCED);
      }
      victim = base + start * LONGS;
    }
    long seq = (long) A.getOpaque(table, victim);
    if ((seq & 1) != 0 || !A.compareAndSet(table, victim, seq, (seq & ~REFERENCED) + 1)) {
      return;
    }
    VarHandle.storeStoreFence(); // the odd sequence is seen before any of the new words
    A.setOpaque(table, victim + 1, sstable);
    A.setOpaque(table, victim + 2, token);
    A.setOpaque(table, victim + 3, position);
    A.setRelease(table, victim, ((seq & ~REFERENCED) + 2) & ~REFERENCED);
    if (seq == 0) {
      entries++; // a way never written before
    }
  }

  public long hits() {
    return hits;
  }

  public long misses() {
    return misses;
  }

  /** Partitions held (Cassandra's entry_count): each takes {@link #BYTES_PER_ENTRY}. */
  public long entries() {
    return entries;
  }

  /** Bytes of the table (allocated whole when the cache is made): the capacity. */
  public long sizeBytes() {
    return (long) table.length * 8;
  }
}
