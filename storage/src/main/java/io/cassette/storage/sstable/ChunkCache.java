package io.cassette.storage.sstable;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Decompressed, already verified SSTable chunks, bounded in bytes, without a lock: a table of
 * slots (each chunk in one of {@link #PROBE} slots after its hash) filled and emptied by
 * compare-and-set, evicted by CLOCK (a hit sets the entry's reference bit; the hand clears it
 * once before evicting). When full, a chunk enters only if it is asked for more often than the
 * one it would evict (see {@link #admits}). Filled by point reads only: scans and compactions
 * would flush it for nothing. Chunks never change (SSTables are immutable and each open
 * SSTable has its own id), so an entry is never stale; entries of deleted SSTables simply age
 * out. Thread-safe.
 *
 * <p>Why not a synchronized access-order map: every point read took the lock twice (lookup,
 * then the frequency count), allocated a key and relinked the map's list on each hit, about a
 * tenth of an SSTable point read's CPU. Counters and the frequency sketch are updated without
 * atomics: they are estimates, and a lost increment under a race only blurs them. The byte
 * count is exact; it may pass the bound by the chunks being inserted at that moment (one per
 * reading thread) before the next insert evicts.
 */
public final class ChunkCache {
  /** The engine gives the cache this fraction of the heap (1/16). */
  public static final int HEAP_FRACTION = 16;
  /** ...but never more than this: beyond it the OS page cache serves as well. */
  public static final long MAX_BYTES = 32L << 20;
  /** Slots a chunk may occupy, from its hash on: a lookup reads at most these. */
  static final int PROBE = 4;
  /** Slots per byte of capacity: one per KiB, so 16 KiB chunks fill a sixteenth of them, 4 KiB ones a quarter. */
  private static final int BYTES_PER_SLOT = 1024;

  /**
   * A cached chunk: its bytes (exactly its uncompressed length; shared by every reader that
   * hits it, so never written once cached) and the length it has on disk (to find the next
   * chunk without I/O).
   */
  static final class Entry {
    final long sstable;
    final long chunkOffset;
    private final byte[] data;
    private final int storedLength;
    /** CLOCK's reference bit: set by a hit, cleared by the passing hand. Racy on purpose. */
    boolean referenced;

    Entry(long sstable, long chunkOffset, byte[] data, int storedLength) {
      this.sstable = sstable;
      this.chunkOffset = chunkOffset;
      this.data = data;
      this.storedLength = storedLength;
    }

    byte[] data() {
      return data;
    }

    int storedLength() {
      return storedLength;
    }
  }

  private final long capacityBytes;
  private final AtomicReferenceArray<Entry> slots;
  private final int mask;
  private final AtomicLong sizeBytes = new AtomicLong();
  /** CLOCK's hand: the next slot looked at for eviction. Racy: two evicting threads may share a stretch. */
  private int hand;
  private long hits;
  private long misses;
  private long rejected;

  public ChunkCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
    long wanted = Math.max(4L * PROBE, capacityBytes / BYTES_PER_SLOT);
    int n = Integer.highestOneBit((int) Math.min(1 << 20, wanted - 1)) << 1;
    this.slots = new AtomicReferenceArray<>(n);
    this.mask = n - 1;
  }

  /** The bytes all chunk caches together may hold in the running JVM. */
  public static long budgetForHeap() {
    return Math.min(MAX_BYTES, Runtime.getRuntime().maxMemory() / HEAP_FRACTION);
  }

  private int home(long sstable, long chunkOffset) {
    long h = hash(sstable, chunkOffset);
    return (int) (h ^ (h >>> 32)) & mask;
  }

  /**
   * The cached chunk, or null if absent. Requires: the caller only reads {@code data()}
   * (readers use it in place instead of copying it, which a hit used to cost: 16 KiB).
   */
  Entry get(long sstable, long chunkOffset) {
    recordLookup(sstable, chunkOffset);
    int i = home(sstable, chunkOffset);
    for (int k = 0; k < PROBE; k++) {
      Entry e = slots.get((i + k) & mask);
      if (e != null && e.chunkOffset == chunkOffset && e.sstable == sstable) {
        if (!e.referenced) {
          e.referenced = true;
        }
        hits++;
        return e;
      }
    }
    misses++;
    return null;
  }

  /**
   * True if {@link #adopt} would keep a chunk of {@code length} bytes now, so a reader decodes
   * it whole (into an array of its own) first. While there is room, every chunk is kept. When
   * full, a chunk is admitted only if it has been asked for more often (recently) than the
   * chunk CLOCK would evict next (TinyLFU's rule): with plain LRU, reads cycling over
   * more chunks than fit (a 128 MB heap's cache holds 256 data chunks of 16 KiB: a few hundred
   * hot rows) evicted every chunk before its next read, so nothing ever hit and every read paid
   * for a copy into the cache; now a stable subset stays and hits. A tie keeps the resident
   * chunk, so a stream of one-off reads (each asked for once) evicts nothing.
   */
  boolean admits(long sstable, long chunkOffset, int length) {
    if (length > capacityBytes / 8) {
      return false;
    }
    if (sizeBytes.get() + length <= capacityBytes) {
      return true;
    }
    Entry victim = nextVictim();
    if (victim == null || frequency(sstable, chunkOffset) > frequency(victim.sstable, victim.chunkOffset)) {
      return true;
    }
    rejected++;
    return false;
  }

  /**
   * The entry CLOCK evicts next: from the hand on, the first entry whose reference bit is
   * clear, clearing the bits it passes (at most two turns of the table); null when the table is
   * empty. The hand stays on the victim, so a rejected chunk leaves it there for the next one
   * to be compared with (as an LRU's eldest stays until it goes): O(1) per miss, amortized.
   */
  private Entry nextVictim() {
    int h = hand;
    for (int n = 0, limit = 2 * slots.length(); n < limit; n++, h++) {
      Entry e = slots.get(h & mask);
      if (e == null) {
        continue;
      }
      if (e.referenced) {
        e.referenced = false;
        continue;
      }
      hand = h & mask;
      return e;
    }
    return null;
  }

  /**
   * Offers a chunk just read, copying it (the reader's buffer is reused): as {@link #adopt}.
   * Requires: {@code length <= chunk.length}.
   */
  void put(long sstable, long chunkOffset, byte[] chunk, int length, int storedLength) {
    if (admits(sstable, chunkOffset, length)) {
      adopt(sstable, chunkOffset, java.util.Arrays.copyOf(chunk, length), storedLength);
    }
  }

  /**
   * Keeps a chunk that {@link #admits} accepted, taking {@code chunk} itself (exactly the
   * chunk's bytes; the caller never writes it again). Evicts by CLOCK until it fits.
   */
  void adopt(long sstable, long chunkOffset, byte[] chunk, int storedLength) {
    int length = chunk.length;
    for (int guard = 0; sizeBytes.get() + length > capacityBytes && guard < 4 * PROBE; guard++) {
      Entry victim = nextVictim();
      if (victim == null) {
        break;
      }
      remove(victim);
    }
    Entry fresh = new Entry(sstable, chunkOffset, chunk, storedLength);
    int i = home(sstable, chunkOffset);
    int replace = -1;
    for (int k = 0; k < PROBE; k++) {
      int slot = (i + k) & mask;
      Entry e = slots.get(slot);
      if (e == null) {
        if (slots.compareAndSet(slot, null, fresh)) {
          sizeBytes.addAndGet(length);
          return;
        }
        e = slots.get(slot);
        if (e == null) {
          continue;
        }
      }
      if (e.sstable == sstable && e.chunkOffset == chunkOffset) {
        return; // another reader put it first
      }
      if (replace < 0 || !e.referenced) {
        replace = slot;
      }
    }
    // every slot of its window taken: it replaces one (an unreferenced one if there is)
    Entry old = slots.get(replace);
    if (old != null && slots.compareAndSet(replace, old, fresh)) {
      sizeBytes.addAndGet(length - old.data.length);
    }
  }

  private void remove(Entry e) {
    int i = home(e.sstable, e.chunkOffset);
    for (int k = 0; k < PROBE; k++) {
      int slot = (i + k) & mask;
      if (slots.get(slot) == e && slots.compareAndSet(slot, e, null)) {
        sizeBytes.addAndGet(-e.data.length);
        return;
      }
    }
  }

  /**
   * How often each chunk was asked for lately: a count-min sketch of two rows of
   * {@link #SKETCH_SLOTS} counters (saturating at 15), all halved every
   * {@code 8 * SKETCH_SLOTS} lookups so that old popularity fades. 16 KB per cache.
   */
  static final int SKETCH_SLOTS = 8192;
  private final byte[] sketch = new byte[2 * SKETCH_SLOTS];
  private int lookupsSinceAging;

  private static long hash(long sstable, long chunkOffset) {
    long h = (sstable * 0x9E3779B97F4A7C15L) ^ (chunkOffset * 0xC2B2AE3D27D4EB4FL);
    return h ^ (h >>> 29);
  }

  private void recordLookup(long sstable, long chunkOffset) {
    long h = hash(sstable, chunkOffset);
    int a = (int) (h & (SKETCH_SLOTS - 1));
    int b = SKETCH_SLOTS + (int) ((h >>> 32) & (SKETCH_SLOTS - 1));
    if (sketch[a] < 15) {
      sketch[a]++;
    }
    if (sketch[b] < 15) {
      sketch[b]++;
    }
    if (++lookupsSinceAging >= 8 * SKETCH_SLOTS) {
      lookupsSinceAging = 0;
      for (int i = 0; i < sketch.length; i++) {
        sketch[i] >>= 1;
      }
    }
  }

  private int frequency(long sstable, long chunkOffset) {
    long h = hash(sstable, chunkOffset);
    return Math.min(sketch[(int) (h & (SKETCH_SLOTS - 1))], sketch[SKETCH_SLOTS + (int) ((h >>> 32) & (SKETCH_SLOTS - 1))]);
  }

  /** Chunks not admitted because the chunk they would evict was asked for more often. */
  public long rejected() {
    return rejected;
  }

  public long hits() {
    return hits;
  }

  public long misses() {
    return misses;
  }

  public long sizeBytes() {
    return sizeBytes.get();
  }
}
