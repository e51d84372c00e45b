package io.cassette.resp.keyspace;

/**
 * What the command thread last saw of keys whose metadata {@link MetaCache} no longer holds,
 * in 8 bytes a key: that a key holds a string (perhaps expired) or holds nothing. That is all
 * a SET without options needs to write blind (no collection's sub-rows to drop, the key count
 * known), and all a read of a missing key or a first LPUSH/HSET/ZADD/SADD needs to skip the
 * storage read of its metadata row: a 16 KiB SSTable chunk decoded for a ~30-byte row, the
 * biggest part of a SET's CPU when redis-benchmark's 200,000 keys overflow the cache.
 *
 * <p>A key not found here is unknown: the caller reads storage as before. Entries are a 62-bit
 * hash of (database, key) with the state in the low bit, in buckets of 8 slots (one cache
 * line); a full bucket replaces one of its entries, so knowledge is lost, never made up.
 * Two keys whose 62-bit hashes are equal could be taken for one another (about one pair in
 * 10^7 among a million keys): a SET over a collection would then leave its sub-rows behind
 * unreferenced (disk space, never a wrong answer), which is the price of not keeping keys.
 * Kept in step by {@link MetaCache}, which sees every committed write and read of metadata.
 * Not thread-safe: the command thread owns it.
 */
final class KnownKeys {
  /** The key holds nothing (never written, or deleted). */
  static final int ABSENT = 0;
  /** The key holds a string (perhaps expired, not deleted yet). */
  static final int STRING = 1;
  /** Not known here: read storage. */
  static final int UNKNOWN = -1;

  private static final int BUCKET = 8;
  private static final int INITIAL_SLOTS = 8192;
  /** Entries per slot before the table doubles (while it may): buckets seldom fill below it. */
  private static final double MAX_LOAD = 0.5;

  private final int maxSlots;
  private long[] slots;
  private int bucketMask;
  private int count;
  /** Which slot of a full bucket gives way next (round robin). */
  private int victim;

  /** At most {@code budgetBytes} of table (8 bytes a slot); 0: nothing is known. */
  KnownKeys(long budgetBytes) {
    long wanted = budgetBytes / 8;
    maxSlots = wanted < 64 * BUCKET ? 0 : Integer.highestOneBit((int) Math.min(1 << 28, wanted));
    allocate(Math.min(maxSlots, INITIAL_SLOTS));
  }

  private void allocate(int n) {
    slots = new long[n];
    bucketMask = n / BUCKET - 1;
    count = 0;
  }

  /** {@link #STRING}, {@link #ABSENT} or {@link #UNKNOWN} for (db, key). */
  int state(int db, byte[] key) {
    if (maxSlots == 0) {
      return UNKNOWN;
    }
    long tag = tag(db, key);
    int base = bucket(tag);
    for (int i = base; i < base + BUCKET; i++) {
      long e = slots[i];
      if ((e & ~1L) == tag) {
        return (int) (e & 1);
      }
    }
    return UNKNOWN;
  }

  /** Records that (db, key) holds a string ({@link #STRING}) or nothing ({@link #ABSENT}). */
  void put(int db, byte[] key, int state) {
    put(db, key, 0, key.length, state);
  }

  /** As {@link #put(int, byte[], int)} for the key {@code key[from, from + length)}. */
  void put(int db, byte[] key, int from, int length, int state) {
    if (maxSlots == 0) {
      return;
    }
    place(tag(db, key, from, length) | state);
    if (count > slots.length * MAX_LOAD && slots.length < maxSlots) {
      grow();
    }
  }

  private void place(long entry) {
    long tag = entry & ~1L;
    int base = bucket(tag);
    int empty = -1;
    for (int i = base; i < base + BUCKET; i++) {
      long e = slots[i];
      if ((e & ~1L) == tag) {
        slots[i] = entry;
        return;
      }
      if (e == 0 && empty < 0) {
        empty = i;
      }
    }
    if (empty >= 0) {
      slots[empty] = entry;
      count++;
    } else {
      victim = (victim + 1) & (BUCKET - 1);
      slots[base + victim] = entry; // the bucket is full: one entry is forgotten
    }
  }

  private void grow() {
    long[] old = slots;
    allocate(old.length * 2);
    for (long e : old) {
      if (e != 0) {
        place(e);
      }
    }
  }

  /** Forgets (db, key): it may now be a collection, or it is not this node's to know. */
  void forget(int db, byte[] key) {
    forget(db, key, 0, key.length);
  }

  /** As {@link #forget(int, byte[])} for the key {@code key[from, from + length)}. */
  void forget(int db, byte[] key, int from, int length) {
    if (maxSlots == 0) {
      return;
    }
    long tag = tag(db, key, from, length);
    int base = bucket(tag);
    for (int i = base; i < base + BUCKET; i++) {
      if ((slots[i] & ~1L) == tag) {
        slots[i] = 0;
        count--;
        return;
      }
    }
  }

  /** Forgets every key. */
  void clear() {
    allocate(Math.min(maxSlots, INITIAL_SLOTS));
  }

  /** Keys known (tests). */
  int size() {
    return count;
  }

  /** Bytes of the table now (tests, INFO). */
  long bytes() {
    return 8L * slots.length;
  }

  private int bucket(long tag) {
    return ((int) (tag >>> 32) & bucketMask) * BUCKET;
  }

  /** A 64-bit hash of (db, key) with bit 1 set (0 is an empty slot) and bit 0 free for the state. */
  private static long tag(int db, byte[] key) {
    return tag(db, key, 0, key.length);
  }

  private static long tag(int db, byte[] key, int from, int length) {
    long h = 0xCBF29CE484222325L ^ (db * 0x9E3779B97F4A7C15L);
    for (int i = from, end = from + length; i < end; i++) {
      h = (h ^ key[i]) * 0x100000001B3L; // FNV-1a 64, then murmur3's fmix64
    }
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB93FE1A85EC5L;
    h ^= h >>> 33;
    return (h & ~3L) | 2L;
  }
}
