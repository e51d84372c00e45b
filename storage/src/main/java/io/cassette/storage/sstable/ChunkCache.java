package io.cassette.storage.sstable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decompressed, already verified SSTable chunks, least recently used evicted first, bounded
 * in bytes. Filled by point reads only: scans and compactions would flush it for nothing.
 * Chunks never change (SSTables are immutable and each open SSTable has its own id), so an
 * entry is never stale; entries of deleted SSTables simply age out. Thread-safe.
 */
public final class ChunkCache {
  /** The engine gives the cache this fraction of the heap (1/16). */
  public static final int HEAP_FRACTION = 16;
  /** ...but never more than this: beyond it the OS page cache serves as well. */
  public static final long MAX_BYTES = 32L << 20;

  private record Key(long sstable, long chunkOffset) {}

  /** A chunk's bytes and the length it has on disk (to find the next chunk without I/O). */
  private record Entry(byte[] data, int storedLength) {}

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
   * Copies the cached chunk into {@code into}; returns {@code storedLength << 32 | length},
   * or -1 if absent.
   */
  synchronized long copyInto(long sstable, long chunkOffset, byte[] into) {
    Entry e = chunks.get(new Key(sstable, chunkOffset));
    if (e == null) {
      misses++;
      return -1;
    }
    hits++;
    System.arraycopy(e.data(), 0, into, 0, e.data().length);
    return (long) e.storedLength() << 32 | e.data().length;
  }

  /**
   * Offers a chunk just read. Index chunks are always kept (small, reused by every lookup
   * in their range); a data chunk only when it was missed recently already, so that a
   * stream of one-off reads does not evict the chunks that are read again.
   */
  void put(long sstable, long chunkOffset, byte[] chunk, int length, int storedLength, boolean alwaysAdmit) {
    if (length > capacityBytes / 8) {
      return;
    }
    if (!alwaysAdmit && !seenBefore(sstable, chunkOffset)) {
      return;
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

  /** Hashes of recently missed data chunks (one slot per hash bucket; collisions just forget). */
  private final long[] recentlyMissed = new long[GHOST_SLOTS];
  /** Data chunks remembered as missed once; 8192 slots cost 64 KB. */
  static final int GHOST_SLOTS = 8192;

  private synchronized boolean seenBefore(long sstable, long chunkOffset) {
    long h = (sstable * 0x9E3779B97F4A7C15L) ^ (chunkOffset * 0xC2B2AE3D27D4EB4FL);
    h |= 1; // never 0, the empty slot
    int slot = (int) ((h ^ (h >>> 32)) & (GHOST_SLOTS - 1));
    if (recentlyMissed[slot] == h) {
      return true;
    }
    recentlyMissed[slot] = h;
    return false;
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
