package io.cassette.resp.keyspace;

import java.util.Arrays;

/**
 * Recently used key metadata (strings with their values), bounded in bytes: a hot key's GET,
 * SET, INCR or HSET skips the storage read of its metadata row (a 16 KiB chunk decoded per
 * SSTable holding the key: 50-85% of a SET's or GET's CPU when the key was not cached).
 * Filled on reads and on committed writes only, so it never gets ahead of storage. Not
 * thread-safe: the command thread owns it.
 *
 * <p>Dense, because what it buys is how many keys it holds within its share of the heap: one
 * byte array per entry ({@code db, key length (varint), key, the metadata row's own bytes}),
 * found by open addressing (linear probing, a full 32-bit hash beside each slot); about 60
 * bytes for a 16-byte key with a 3-byte value, where a linked hash map of copies took ~210
 * (redis-benchmark's 100,000 keys now fit a 128 MiB node's ~8 MiB; before, 40,000 did). The
 * least recently used is approximated by a clock: a hit marks the entry, the hand passes
 * over marked entries once (clearing the mark) and evicts the first unmarked one.
 */
final class MetaCache {
  /** Array header of an entry (the slot's reference, hash and mark are the table's 9 bytes). */
  static final int ENTRY_OVERHEAD_BYTES = 16;
  /** Most entries per slot: linear probing stays short below this load. */
  private static final double MAX_LOAD = 0.8;
  /** Share of the budget the table itself may take at its largest (9 bytes a slot). */
  private static final int TABLE_SHARE = 4;

  /** First size of the table; it doubles as entries come, up to what the budget sizes. */
  private static final int INITIAL_SLOTS = 1024;
  /**
   * {@link KnownKeys} may take two thirds of the budget beside it (a power of two of slots:
   * 4 MiB, 524,288 keys, on a 128 MiB node; it grows to that from 64 KiB as keys come).
   */
  static long knownBudget(long budgetBytes) {
    return budgetBytes / 3 * 2;
  }

  private final long budgetBytes;
  /** The table's largest size (a power of two), from the budget; 0: no cache. */
  private final int maxSlots;
  private byte[][] entries;
  private int[] hashes;
  private boolean[] referenced;
  private int mask;
  /** Entries the current table takes before it grows (or, at its largest, evicts). */
  private int maxCount;
  private int count;
  /** Bytes of the entries and of the table itself, counted against the budget. */
  private long bytes;
  private int hand;
  /** How far the hand moves (odd, about 0.62 of the table: see {@link #evictOne}). */
  private int stride;
  /**
   * Beyond the entries: which keys hold a string or nothing (8 bytes a key), so a blind SET
   * or a first write to a missing key need not read storage.
   */
  private final KnownKeys knownKeys;

  MetaCache(long budgetBytes) {
    this(budgetBytes, knownBudget(budgetBytes));
  }

  /** A cache of {@code budgetBytes} with {@link KnownKeys} of up to {@code knownBytes} beside it. */
  MetaCache(long budgetBytes, long knownBytes) {
    this.budgetBytes = budgetBytes;
    this.knownKeys = new KnownKeys(budgetBytes > 0 ? knownBytes : 0);
    int slots = 0;
    if (budgetBytes > 0) {
      long wanted = Math.max(16, Math.min(1L << 30, budgetBytes / TABLE_SHARE / 9));
      slots = Integer.highestOneBit((int) wanted);
    }
    maxSlots = slots;
    allocate(Math.min(slots, INITIAL_SLOTS));
  }

  private void allocate(int slots) {
    entries = new byte[slots][];
    hashes = new int[slots];
    referenced = new boolean[slots];
    mask = slots - 1;
    maxCount = (int) (slots * MAX_LOAD);
    bytes += 9L * slots;
    hand = 0;
    stride = (int) (slots * 0.6180339887) | 1;
  }

  /** Doubles the table, re-placing every entry (marks kept). */
  private void grow() {
    byte[][] oldEntries = entries;
    int[] oldHashes = hashes;
    boolean[] oldReferenced = referenced;
    bytes -= 9L * oldEntries.length;
    allocate(oldEntries.length * 2);
    for (int j = 0; j < oldEntries.length; j++) {
      if (oldEntries[j] != null) {
        int i = oldHashes[j] & mask;
        while (entries[i] != null) {
          i = (i + 1) & mask;
        }
        entries[i] = oldEntries[j];
        hashes[i] = oldHashes[j];
        referenced[i] = oldReferenced[j];
      }
    }
  }

  /** The cached metadata (a new object the caller may change), or null when not cached. */
  KeyMeta get(int db, byte[] key) {
    if (maxCount == 0) {
      return null;
    }
    int h = hash(db, key);
    int i = find(h, db, key);
    if (i < 0) {
      return null;
    }
    referenced[i] = true;
    byte[] e = entries[i];
    int off = metaOffset(e, key.length);
    return KeyMeta.decode(e, off, e.length - off);
  }

  /**
   * The entry of (db, key), marked as used, or null: for a read that copies a cached value
   * straight into its reply (GET). The caller must neither keep nor change it; the row's bytes
   * start at {@link #metaOffset}.
   */
  byte[] entry(int db, byte[] key) {
    if (maxCount == 0) {
      return null;
    }
    int i = find(hash(db, key), db, key);
    if (i < 0) {
      return null;
    }
    referenced[i] = true;
    return entries[i];
  }

  /** Caches {@code meta} for {@code key}. */
  void put(int db, byte[] key, KeyMeta meta) {
    if (maxCount == 0) {
      return;
    }
    putEncoded(db, key, meta.encode());
  }

  /** Caches the metadata row's bytes {@code encoded} (as {@link KeyMeta#encode}) for {@code key}. */
  void putEncoded(int db, byte[] key, byte[] encoded) {
    if (maxCount == 0) {
      return;
    }
    int keyBytes = varintSize(key.length);
    byte[] e = new byte[1 + keyBytes + key.length + encoded.length];
    e[0] = (byte) db;
    int off = writeVarint(e, 1, key.length);
    System.arraycopy(key, 0, e, off, key.length);
    System.arraycopy(encoded, 0, e, off + key.length, encoded.length);
    int h = hash(db, key);
    int i = find(h, db, key);
    if (weight(e) > budgetBytes / 8) {
      if (i >= 0) {
        delete(i); // one huge string must not flush the cache
      }
      remember(e); // not cached: known at once
      return;
    }
    if (i >= 0) {
      bytes += weight(e) - weight(entries[i]);
      entries[i] = e;
      referenced[i] = true;
    } else {
      while (count >= maxCount) {
        if (entries.length < maxSlots && bytes + 9L * entries.length <= budgetBytes) {
          grow();
        } else {
          evictOne();
        }
      }
      i = h & mask;
      while (entries[i] != null) {
        i = (i + 1) & mask;
      }
      entries[i] = e;
      hashes[i] = h;
      referenced[i] = false; // a new entry earns its mark by a hit
      count++;
      bytes += weight(e);
    }
    while (bytes > budgetBytes && count > 0) {
      evictOne();
    }
  }

  void remove(int db, byte[] key) {
    if (maxCount == 0) {
      return;
    }
    knownKeys.forget(db, key);
    int i = find(hash(db, key), db, key);
    if (i >= 0) {
      delete(i);
    }
  }

  /** (db, key) was deleted: its entry goes, and the key is known to hold nothing. */
  void deleted(int db, byte[] key) {
    remove(db, key);
    absent(db, key);
  }

  /** A read found no metadata for (db, key) (or the caller deleted it). */
  void absent(int db, byte[] key) {
    if (maxCount != 0) {
      knownKeys.put(db, key, KnownKeys.ABSENT);
    }
  }

  /**
   * {@link KnownKeys#STRING}, {@link KnownKeys#ABSENT} or {@link KnownKeys#UNKNOWN}: what the
   * last committed write or read of (db, key) left, when the entry itself may be gone.
   */
  int known(int db, byte[] key) {
    if (maxCount != 0) {
      int i = find(hash(db, key), db, key);
      if (i >= 0) { // the entry is the latest: KnownKeys learns it only when it leaves
        byte[] e = entries[i];
        return e[metaOffset(e, key.length)] == (byte) KeyType.STRING.code
            ? KnownKeys.STRING : KnownKeys.UNKNOWN;
      }
    }
    return knownKeys.state(db, key);
  }

  /** {@link #known} of a key the caller has just found not cached (no second lookup). */
  int knownUncached(int db, byte[] key) {
    return knownKeys.state(db, key);
  }

  /** Keys whose type is known beyond the entries (tests). */
  int knownSize() {
    return knownKeys.size();
  }

  /** Drops every entry. */
  void clear() {
    knownKeys.clear();
    bytes = 0;
    count = 0;
    allocate(Math.min(maxSlots, INITIAL_SLOTS));
  }

  /** Drops every entry of database {@code db} (and what is known of every key: it holds no db). */
  void clear(int db) {
    knownKeys.clear();
    for (int i = 0; i < entries.length; i++) {
      byte[] e = entries[i];
      if (e != null && e[0] == (byte) db) {
        delete(i);
        i--; // another entry may have moved into this slot
      }
    }
  }

  /** Entries held (tests). */
  int size() {
    return count;
  }

  /** The slot of (db, key), or -1. */
  private int find(int h, int db, byte[] key) {
    int i = h & mask;
    byte[] e;
    finds++;
    while ((e = entries[i]) != null) {
      probes++;
      if (hashes[i] == h && matches(e, db, key)) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  /** Lookups and the slots they looked at (tests: probe runs must stay short under churn). */
  long finds;
  long probes;

  private static boolean matches(byte[] e, int db, byte[] key) {
    if (e[0] != (byte) db) {
      return false;
    }
    int off = 1 + varintSize(key.length);
    if (e.length < off + key.length || readVarint(e, 1) != key.length) {
      return false;
    }
    return Arrays.equals(e, off, off + key.length, key, 0, key.length);
  }

  /** Where the metadata row's bytes start in the entry of a key of {@code keyLength} bytes. */
  static int metaOffset(byte[] e, int keyLength) {
    return 1 + varintSize(keyLength) + keyLength;
  }

  /**
   * Evicts the first unmarked entry the hand comes to, clearing marks on the way. The hand
   * strides over the table (an odd step: every slot once per cycle) rather than walking it:
   * evicting neighbours one after the other emptied the table behind the hand while new
   * entries kept landing ahead of it, where the load then neared 1 and linear probes ran to
   * thousands of slots (200,000 keys into a 128 MiB node's share took 45 s instead of 0.3).
   */
  private void evictOne() {
    while (true) {
      int i = hand;
      hand = (hand + stride) & mask;
      if (entries[i] == null) {
        continue;
      }
      if (referenced[i]) {
        referenced[i] = false;
        continue;
      }
      remember(entries[i]);
      delete(i);
      return;
    }
  }

  /**
   * Records what entry {@code e}'s key holds in {@link KnownKeys} as the entry leaves: a
   * string, or (a collection) nothing known, so a SET over it reads it (its sub-rows go).
   * Done when an entry is evicted rather than on every store: while a key has its entry,
   * {@link #known} answers from the entry, and a store of a cached key (INCR, SET of a hot
   * key) skips KnownKeys' bucket, a cache miss of its own (KnownKeys.place was ~1/3 of the
   * door's own share of Batch.commit in unpipelined SET/INCR/LPUSH/HSET profiles).
   */
  private void remember(byte[] e) {
    int keyLength = readVarint(e, 1);
    int off = 1 + varintSize(keyLength);
    if (e[off + keyLength] == (byte) KeyType.STRING.code) {
      knownKeys.put(e[0] & 0xFF, e, off, keyLength, KnownKeys.STRING);
    } else {
      knownKeys.forget(e[0] & 0xFF, e, off, keyLength);
    }
  }

  /** Empties slot {@code i}, moving later entries of its probe run back (no tombstones). */
  private void delete(int i) {
    bytes -= weight(entries[i]);
    count--;
    int gap = i;
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      byte[] e = entries[j];
      if (e == null) {
        break;
      }
      int home = hashes[j] & mask;
      // the entry at j may fill the gap unless its home lies cyclically in (gap, j]
      boolean stays = gap <= j ? (gap < home && home <= j) : (gap < home || home <= j);
      if (!stays) {
        entries[gap] = e;
        hashes[gap] = hashes[j];
        referenced[gap] = referenced[j];
        gap = j;
      }
    }
    entries[gap] = null;
    referenced[gap] = false;
  }

  private static long weight(byte[] e) {
    return (ENTRY_OVERHEAD_BYTES + e.length + 7) & ~7L; // the array as the heap holds it
  }

  private static int hash(int db, byte[] key) {
    int h = 0x9E3779B9 * (db + 1);
    for (byte b : key) {
      h = (h ^ b) * 0x01000193; // FNV-1a, then murmur3's finaliser: keys differing in one
    }                           // digit must not land in neighbouring slots (linear probing)
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h;
  }

  private static int varintSize(int v) {
    int n = 1;
    while ((v >>>= 7) != 0) {
      n++;
    }
    return n;
  }

  private static int writeVarint(byte[] out, int off, int v) {
    while ((v & ~0x7F) != 0) {
      out[off++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[off++] = (byte) v;
    return off;
  }

  private static int readVarint(byte[] in, int off) {
    int v = 0;
    int shift = 0;
    while (true) {
      byte b = in[off++];
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
      shift += 7;
    }
  }
}
