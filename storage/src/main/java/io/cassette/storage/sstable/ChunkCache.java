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

  /** A cache sized from the running JVM's heap. */
  public static ChunkCache forHeap() {
    return new ChunkCache(Math.min(MAX_BYTES, Runtime.getRuntime().maxMemory() / HEAP_FRACTION));
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

  void put(long sstable, long chunkOffset, byte[] chunk, int length, int storedLength) {
    if (length > capacityBytes / 8) {
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
