package io.cassette.storage.sstable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decompressed, already verified SSTable chunks, least recently used evicted first, bounded
 * in bytes; when full, a chunk enters only if it is asked for more often than the one it
 * would evict (see {@link #put}). Filled by point reads only: scans and compactions would flush it for nothing.
 * Chunks never change (SSTables are immutable and each open SSTable has its own id), so an
 * entry is never stale; entries of deleted SSTables simply age out. Thread-safe.
 */
public final class ChunkCache {
  /** The engine gives the cache this fraction of the heap (1/16). */
  public static final int HEAP_FRACTION = 16;
  /** ...but never more than this: beyond it the OS page cache serves as well. */
  public static final long MAX_BYTES = 32L << 20;

  /**
   * A chunk's name. Written out rather than a record: a record's equals and hashCode go
   * through an ObjectMethods bootstrap that showed in the point read's profile (8% of its
   * samples in Key.equals) where these two compares inline.
   */
  private static final class Key {
    final long sstable;
    final long chunkOffset;

    Key(long sstable, long chunkOffset) {
      this.sstable = sstable;
      this.chunkOffset = chunkOffset;
    }

    long sstable() {
      return sstable;
    }

    long chunkOffset() {
      return chunkOffset;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.sstable == sstable && k.chunkOffset == chunkOffset;
    }

    @Override
    public int hashCode() {
      long h = sstable * 0x9E3779B97F4A7C15L + chunkOffset;
      return (int) (h ^ (h >>> 32));
    }
  }

  /**
   * A chunk's bytes (exactly its uncompressed length; shared by every reader that hits it,
   * so never written after {@link #put}) and the length it has on disk (to find the next
   * chunk without I/O).
   */
  record Entry(byte[] data, int storedLength) {}

  private final long capacityBytes;
  private long sizeBytes; // guarded by this
  private long hits; // guarded by this
  private long misses; // guarded by this
  private final LinkedHashMap<Key, Entry> chunks = new LinkedHashMap<>(256, 0.75f, true);

  public ChunkCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  /** The bytes all chunk caches together may hold in the running JVM. */
  public static long budgetForHeap() {
    return Math.min(MAX_BYTES, Runtime.getRuntime().maxMemory() / HEAP_FRACTION);
  }

  /**
   * The cached chunk, or null if absent. Requires: the caller only reads {@code data()}
   * (readers use it in place instead of copying it, which a hit used to cost: 16 KiB).
   */
  synchronized Entry get(long sstable, long chunkOffset) {
    recordLookup(sstable, chunkOffset);
    Entry e = chunks.get(new Key(sstable, chunkOffset));
    if (e == null) {
      misses++;
      return null;
    }
    hits++;
    return e;
  }

  /**
   * Offers a chunk just read. While there is room every chunk is kept. When full, a chunk is
   * admitted only if it has been asked for more often (recently) than the least recently
   * used chunk it would evict (TinyLFU's rule): with plain LRU, reads cycling over more
   * chunks than fit (a 128 MB heap's cache holds 256 data chunks of 16 KiB: a few hundred
   * hot rows) evicted every chunk before its next read, so nothing ever hit and every read
   * paid a 16 KiB copy into the cache; now a stable subset stays and hits. A tie keeps the
   * resident chunk, so a stream of one-off reads (each asked for once) evicts nothing.
   */
  /** True if {@link #put} would keep this chunk now (a reader then decodes it whole first). */
  boolean admits(long sstable, long chunkOffset, int length) {
    if (length > capacityBytes / 8) {
      return false;
    }
    synchronized (this) {
      if (sizeBytes + length > capacityBytes && !chunks.isEmpty()) {
        Key victim = chunks.keySet().iterator().next();
        return frequency(sstable, chunkOffset) > frequency(victim.sstable(), victim.chunkOffset());
      }
      return true;
    }
  }

  void put(long sstable, long chunkOffset, byte[] chunk, int length, int storedLength) {
    if (length > capacityBytes / 8) {
      return;
    }
    synchronized (this) {
      if (sizeBytes + length > capacityBytes && !chunks.isEmpty()) {
        Key victim = chunks.keySet().iterator().next(); // the least recently used
        int candidateFrequency = frequency(sstable, chunkOffset);
        int victimFrequency = frequency(victim.sstable(), victim.chunkOffset());
        if (candidateFrequency <= victimFrequency) {
          rejected++;
          return;
        }
      }
    }
    Entry entry = new Entry(java.util.Arrays.copyOf(chunk, length), storedLength);
    synchronized (this) {
      Entry old = chunks.put(new Key(sstable, chunkOffset), entry);
      sizeBytes += length - (old == null ? 0 : old.data().length);
      var it = chunks.entrySet().iterator();
      while (sizeBytes > capacityBytes && it.hasNext()) {
        Map.Entry<Key, Entry> eldest = it.next();
        sizeBytes -= eldest.getValue().data().length;
        it.remove();
      }
    }
  }

  /**
   * How often each chunk was asked for lately: a count-min sketch of two rows of
   * {@link #SKETCH_SLOTS} counters (saturating at 15), all halved every
   * {@code 8 * SKETCH_SLOTS} lookups so that old popularity fades. 16 KB per cache.
   */
  static final int SKETCH_SLOTS = 8192;
  private final byte[] sketch = new byte[2 * SKETCH_SLOTS]; // guarded by this
  private int lookupsSinceAging; // guarded by this
  private long rejected; // guarded by this

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
  public synchronized long rejected() {
    return rejected;
  }

  public synchronized long hits() {
    return hits;
  }

  public synchronized long misses() {
    return misses;
  }

  public synchronized long sizeBytes() {
    return sizeBytes;
  }
}
