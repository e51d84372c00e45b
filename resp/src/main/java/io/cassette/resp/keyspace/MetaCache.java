package io.cassette.resp.keyspace;

import java.util.Arrays;

/**
 * Recently used key metadata (strings with their values), bounded in bytes: a hot key's GET,
 * SET, INCR or HSET skips the storage read of its metadata row (a 16 KiB chunk decoded per
 * SSTable holding the key: 50-85% of a SET's or GET's CPU when the key was not cached).
 * Filled on reads and on committed writes only, so it never gets ahead of storage. Not
 * thread-safe: the command thread owns it.
 *
 * <p>Dense, because what it buys is how many keys it holds within its share of the heap, and
 * laid out for few cache misses, because with redis-benchmark's 200,000 keys a lookup is
 * memory stalls (38% of a GET -P 16 when each entry was its own byte array beside three
 * parallel slot arrays: four scattered cache lines a hit). Entries live in a few large byte
 * arrays (segments), one after the other: {@code mark, db, key length (varint), meta length
 * (varint), key, the metadata row's own bytes}. The table is one {@code long} a slot, the
 * key's 32-bit hash (never 0: 0 is an empty slot) above the entry's location, so a hit reads
 * one slot line and the entry's line (its mark is in it); a slot whose hash differs is passed
 * without touching the entry. Open addressing, linear probing, deletion by backward shift.
 *
 * <p>The least recently used is approximated by a clock over the segments, which is a log: a
 * hit marks its entry; a new entry (or one whose size changed) is appended at the head
 * segment; when no segment is free the oldest is cleaned: its marked entries move to the head
 * (the mark cleared), the others are evicted, and it becomes free. An entry rewritten at its
 * own size (INCR, a SET of the same length) is changed in place. What the cache holds in the
 * heap is exactly the table plus the segments it allocated, counted against the budget.
 */
final class MetaCache {
  /** Most entries per slot: linear probing stays short below this load. */
  private static final double MAX_LOAD = 0.8;
  /** Share of the budget the table itself may take at its largest (8 bytes a slot). */
  private static final int TABLE_SHARE = 4;
  /** First size of the table; it doubles as entries come, up to what the budget sizes. */
  private static final int INITIAL_SLOTS = 1024;
  /** Segments per budget (about): their size bounds an entry and the space a cleaning frees. */
  private static final int SEGMENTS_PER_BUDGET = 32;
  private static final int MIN_SEGMENT_SHIFT = 8;
  private static final int MAX_SEGMENT_SHIFT = 20;

  /** An entry's first byte: not used since the hand last passed; used; replaced or removed. */
  private static final byte UNMARKED = 0;
  private static final byte MARKED = 1;
  private static final byte DEAD = 2;

  /**
   * {@link KnownKeys} may take two thirds of the budget beside it (a power of two of slots:
   * 4 MiB, 524,288 keys, on a 128 MiB node; it grows to that from 64 KiB as keys come).
   */
  static long knownBudget(long budgetBytes) {
    return budgetBytes / 3 * 2;
  }

  /** The table's largest size (a power of two), from the budget; 0: no cache. */
  private final int maxSlots;
  private long[] slots;
  private int mask;
  /** Entries the current table takes before it grows (or, at its largest, evicts). */
  private int maxCount;
  private int count;

  private final int segmentShift;
  private final int segmentBytes;
  /** Segments that fit the budget beside the table at its largest (at least 3, or none). */
  private final int maxSegments;
  private byte[][] segments;
  /** Bytes used in each segment. */
  private int[] used;
  private int allocated;
  /** Segments in the order they became the head (the oldest first); the head is the last. */
  private int[] ring;
  private int ringStart;
  private int ringLength;
  /** Empty segments (allocated); one is kept back for cleaning (see {@link #cleanOldest}). */
  private int[] free;
  private int freeCount;
  private int head = -1;

  /** Where the last {@link #entry} hit's metadata row starts and ends in its segment. */
  private int hitStart;
  private int hitEnd;

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
    int tableSlots = 0;
    int shift = MIN_SEGMENT_SHIFT;
    int segs = 0;
    if (budgetBytes > 0) {
      long wanted = Math.max(16, Math.min(1L << 30, budgetBytes / TABLE_SHARE / 8));
      tableSlots = Integer.highestOneBit((int) wanted);
      long perSegment = Math.max(1, budgetBytes / SEGMENTS_PER_BUDGET);
      shift = Math.max(MIN_SEGMENT_SHIFT,
          Math.min(MAX_SEGMENT_SHIFT, 63 - Long.numberOfLeadingZeros(perSegment)));
      long rest = budgetBytes - 8L * tableSlots;
      segs = (int) Math.min(rest > 0 ? rest >> shift : 0, (1L << 31 >> shift) - 1);
      if (segs < 3) {
        tableSlots = 0;
        segs = 0;
      }
    }
    this.knownKeys = new KnownKeys(tableSlots > 0 ? knownBytes : 0);
    maxSlots = tableSlots;
    segmentShift = shift;
    segmentBytes = 1 << shift;
    maxSegments = segs;
    reset();
  }

  private void reset() {
    segments = new byte[maxSegments][];
    used = new int[maxSegments];
    ring = new int[maxSegments];
    free = new int[maxSegments];
    allocated = 0;
    ringStart = 0;
    ringLength = 0;
    freeCount = 0;
    head = -1;
    count = 0;
    allocateTable(Math.min(maxSlots, INITIAL_SLOTS));
  }

  private void allocateTable(int n) {
    slots = new long[n];
    mask = n - 1;
    maxCount = (int) (n * MAX_LOAD);
  }

  /** Doubles the table, re-placing every entry. */
  private void grow() {
    long[] old = slots;
    allocateTable(old.length * 2);
    for (long s : old) {
      if (s != 0) {
        int i = (int) (s >>> 32) & mask;
        while (slots[i] != 0) {
          i = (i + 1) & mask;
        }
        slots[i] = s;
      }
    }
  }

  /** The cached metadata (a new object the caller may change), or null when not cached. */
  KeyMeta get(int db, byte[] key) {
    byte[] seg = entry(db, key);
    return seg == null ? null : KeyMeta.decode(seg, hitStart, hitEnd - hitStart);
  }

  /**
   * The segment holding the entry of (db, key), marked as used, or null: for a read that
   * copies a cached value straight into its reply (GET). The metadata row's bytes are
   * {@code [}{@link #hitStart()}{@code , }{@link #hitEnd()}{@code )} until the next call. The
   * caller must neither keep nor change it.
   */
  byte[] entry(int db, byte[] key) {
    if (maxCount == 0) {
      return null;
    }
    int i = find(hash(db, key), db, key);
    if (i < 0) {
      return null;
    }
    int loc = (int) slots[i];
    byte[] seg = segments[loc >>> segmentShift];
    int off = loc & (segmentBytes - 1);
    seg[off] = MARKED;
    int p = off + 2;
    int keyLength = 0;
    for (int shift = 0; ; shift += 7) { // the key length (varint)
      byte b = seg[p++];
      keyLength |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    int metaLength = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = seg[p++];
      metaLength |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    hitStart = p + keyLength;
    hitEnd = hitStart + metaLength;
    return seg;
  }

  /**
   * Brings the table slots and entries of {@code keys[from, to)} into the CPU's cache, all of
   * their loads issued before any is waited for: a pipeline's lookups then pay about one
   * memory latency together instead of two each (a lookup over redis-benchmark's 200,000 keys
   * is ~2 dependent cache misses, ~300 ns here, against ~40 ns of work when the lines are
   * cached). Reads only; {@code hashes} holds at least {@code to - from} ints.
   */
  void prefetch(int db, byte[][] keys, int from, int to, int[] hashes) {
    if (maxCount == 0) {
      return;
    }
    long[] table = slots;
    int m = mask;
    long sum = 0;
    for (int k = from; k < to; k++) {
      int h = hash(db, keys[k]);
      hashes[k - from] = h;
      sum += table[h & m];
    }
    for (int k = from; k < to; k++) {
      long s = table[hashes[k - from] & m];
      if (s != 0) {
        int loc = (int) s;
        sum += segments[loc >>> segmentShift][loc & (segmentBytes - 1)];
      }
    }
    prefetched = sum;
  }

  /** Keeps {@link #prefetch}'s loads from being optimised away. */
  private long prefetched;

  /** Where the last {@link #entry} hit's metadata row starts in its segment. */
  int hitStart() {
    return hitStart;
  }

  /** Where the last {@link #entry} hit's metadata row ends in its segment. */
  int hitEnd() {
    return hitEnd;
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
    if (encoded[0] == (byte) KeyType.STRING.code) {
      knownKeys.put(db, key, KnownKeys.STRING);
    } else {
      knownKeys.forget(db, key); // a collection: a SET over it must read it (its sub-rows go)
    }
    int h = hash(db, key);
    int i = find(h, db, key);
    int size = 2 + varintSize(key.length) + varintSize(encoded.length) + key.length + encoded.length;
    if (size > segmentBytes) {
      if (i >= 0) {
        delete(i); // one huge string must not flush the cache
      }
      return;
    }
    byte mark = UNMARKED; // a new entry earns its mark by a hit
    if (i >= 0) {
      int loc = (int) slots[i];
      byte[] seg = segments[loc >>> segmentShift];
      int off = loc & (segmentBytes - 1);
      if (size(seg, off) == size) { // same length: rewritten where it is (INCR, same-size SET)
        System.arraycopy(encoded, 0, seg, off + size - encoded.length, encoded.length);
        seg[off] = MARKED;
        return;
      }
      delete(i); // then appended as a new entry, keeping its mark
      mark = MARKED;
    }
    while (count >= maxCount) {
      if (slots.length < maxSlots) {
        grow();
      } else {
        cleanOldest(); // frees slots as well as bytes
      }
    }
    int loc = append(db, key, encoded, size, mark);
    i = h & mask;
    while (slots[i] != 0) {
      i = (i + 1) & mask;
    }
    slots[i] = ((long) h << 32) | (loc & 0xFFFFFFFFL);
    count++;
  }

  /** Writes an entry at the head (making room first) and returns its location. */
  private int append(int db, byte[] key, byte[] encoded, int size, byte mark) {
    byte[] seg = room(size);
    int off = used[head];
    seg[off] = mark;
    seg[off + 1] = (byte) db;
    int p = writeVarint(seg, off + 2, key.length);
    p = writeVarint(seg, p, encoded.length);
    System.arraycopy(key, 0, seg, p, key.length);
    System.arraycopy(encoded, 0, seg, p + key.length, encoded.length);
    used[head] = off + size;
    return (head << segmentShift) | off;
  }

  /**
   * The head segment, with {@code size} bytes free at its end. Once every segment is
   * allocated, one free segment is kept back for {@link #cleanOldest}'s survivors.
   */
  private byte[] room(int size) {
    while (head < 0 || used[head] + size > segmentBytes) {
      if (freeCount == 0 && allocated < maxSegments) {
        segments[allocated] = new byte[segmentBytes];
        free[freeCount++] = allocated++;
      }
      if (freeCount > 1 || (freeCount == 1 && allocated < maxSegments)) {
        pushHead(free[--freeCount]);
      } else {
        cleanOldest(); // frees its segment
      }
    }
    return segments[head];
  }

  /**
   * A free segment, allocated when none is: {@link #room} keeps one back once every segment
   * is allocated, so there is one when the cleaning needs it.
   */
  private int takeFree() {
    if (freeCount == 0) {
      segments[allocated] = new byte[segmentBytes];
      free[freeCount++] = allocated++;
    }
    return free[--freeCount];
  }

  private void pushHead(int seg) {
    used[seg] = 0;
    ring[(ringStart + ringLength) % maxSegments] = seg;
    ringLength++;
    head = seg;
  }

  /**
   * Cleans the oldest segment: its marked entries move to the head (unmarked now; into the
   * one kept-back free segment when the head fills), the unmarked ones are evicted, and the
   * segment is free. Needs two segments in the ring and one free: {@link #room} keeps one back
   * once every segment is allocated.
   */
  private void cleanOldest() {
    if (ringLength < 2) { // every entry is in the head (the table filled first): a new head
      pushHead(takeFree());
    }
    int victim = ring[ringStart];
    ringStart = (ringStart + 1) % maxSegments;
    ringLength--;
    byte[] seg = segments[victim];
    int end = used[victim];
    for (int off = 0; off < end; ) {
      int size = size(seg, off);
      byte mark = seg[off];
      if (mark != DEAD) {
        int loc = (victim << segmentShift) | off;
        int i = slotOf(loc, hashAt(seg, off));
        if (mark == MARKED) {
          if (used[head] + size > segmentBytes) {
            pushHead(takeFree()); // survivors fit: they came from one segment
          }
          byte[] to = segments[head];
          int at = used[head];
          System.arraycopy(seg, off, to, at, size);
          to[at] = UNMARKED;
          used[head] = at + size;
          slots[i] = (slots[i] & 0xFFFFFFFF00000000L) | (((head << segmentShift) | at) & 0xFFFFFFFFL);
        } else {
          deleteSlot(i);
        }
      }
      off += size;
    }
    used[victim] = 0;
    free[freeCount++] = victim;
  }

  /** The slot pointing at {@code loc}, whose key hashes to {@code h}. */
  private int slotOf(int loc, int h) {
    int i = h & mask;
    while ((int) slots[i] != loc || slots[i] == 0) {
      i = (i + 1) & mask;
    }
    return i;
  }

  /** The whole entry's size at {@code off}. */
  private static int size(byte[] seg, int off) {
    int p = off + 2;
    int keyLength = 0;
    int n = 2;
    for (int shift = 0; ; shift += 7) {
      byte b = seg[p++];
      n++;
      keyLength |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    int metaLength = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = seg[p++];
      n++;
      metaLength |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    return n + keyLength + metaLength;
  }

  /** The hash of the entry's (db, key) at {@code off}. */
  private static int hashAt(byte[] seg, int off) {
    int p = off + 2;
    int keyLength = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = seg[p++];
      keyLength |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    while (seg[p++] < 0) { // the meta length
    }
    return hash(seg[off + 1] & 0xFF, seg, p, keyLength);
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
    return knownKeys.state(db, key);
  }

  /** Keys whose type is known beyond the entries (tests). */
  int knownSize() {
    return knownKeys.size();
  }

  /** Drops every entry (and the segments: the heap they took is given back). */
  void clear() {
    knownKeys.clear();
    if (maxSlots > 0) {
      reset();
    }
  }

  /** Drops every entry of database {@code db} (and what is known of every key: it holds no db). */
  void clear(int db) {
    knownKeys.clear();
    for (int i = 0; i < slots.length; i++) {
      long s = slots[i];
      if (s != 0) {
        int loc = (int) s;
        if (segments[loc >>> segmentShift][(loc & (segmentBytes - 1)) + 1] == (byte) db) {
          delete(i);
          i--; // another entry may have moved into this slot
        }
      }
    }
  }

  /** Entries held (tests). */
  int size() {
    return count;
  }

  /** Bytes the cache holds in the heap: the table and the segments allocated (tests). */
  long bytes() {
    return 8L * slots.length + (long) allocated * segmentBytes;
  }

  /** The slot of (db, key), or -1. */
  private int find(int h, int db, byte[] key) {
    long want = (long) h << 32;
    int i = h & mask;
    long s;
    finds++;
    while ((s = slots[i]) != 0) {
      probes++;
      if ((s & 0xFFFFFFFF00000000L) == want && matches((int) s, db, key)) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  /** Lookups and the slots they looked at (tests: probe runs must stay short under churn). */
  long finds;
  long probes;

  private boolean matches(int loc, int db, byte[] key) {
    byte[] seg = segments[loc >>> segmentShift];
    int off = loc & (segmentBytes - 1);
    if (seg[off + 1] != (byte) db) {
      return false;
    }
    int p = off + 2;
    int keyLength = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = seg[p++];
      keyLength |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (keyLength != key.length) {
      return false;
    }
    while (seg[p++] < 0) { // the meta length
    }
    return Arrays.equals(seg, p, p + keyLength, key, 0, keyLength);
  }

  /** Empties slot {@code i}: its entry is dead (its bytes go when its segment is cleaned). */
  private void delete(int i) {
    int loc = (int) slots[i];
    segments[loc >>> segmentShift][loc & (segmentBytes - 1)] = DEAD;
    deleteSlot(i);
  }

  /** Empties slot {@code i}, moving later entries of its probe run back (no tombstones). */
  private void deleteSlot(int i) {
    count--;
    int gap = i;
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      long s = slots[j];
      if (s == 0) {
        break;
      }
      int home = (int) (s >>> 32) & mask;
      // the entry at j may fill the gap unless its home lies cyclically in (gap, j]
      boolean stays = gap <= j ? (gap < home && home <= j) : (gap < home || home <= j);
      if (!stays) {
        slots[gap] = s;
        gap = j;
      }
    }
    slots[gap] = 0;
  }

  private static int hash(int db, byte[] key) {
    return hash(db, key, 0, key.length);
  }

  private static int hash(int db, byte[] key, int from, int length) {
    int h = 0x9E3779B9 * ((db & 0xFF) + 1); // the entry holds the db's low byte
    for (int i = from, end = from + length; i < end; i++) {
      h = (h ^ key[i]) * 0x01000193; // FNV-1a, then murmur3's finaliser: keys differing in one
    }                                // digit must not land in neighbouring slots (linear probing)
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h == 0 ? 1 : h; // 0 marks an empty slot
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
}
