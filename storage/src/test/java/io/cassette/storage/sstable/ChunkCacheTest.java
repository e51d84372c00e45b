package io.cassette.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The chunk cache's admission: what stays when reads want more chunks than fit. */
class ChunkCacheTest {
  static final int CHUNK = 4096;
  /** Room for 16 chunks. */
  static final long CAPACITY = 16L * CHUNK;

  /** What a point read does: use the cached chunk, or decode it and offer it. True on a hit. */
  private static boolean read(ChunkCache cache, long offset) {
    ChunkCache.Entry e = cache.get(1, offset);
    if (e != null) {
      assertThat(e.data()[0]).isEqualTo((byte) offset);
      return true;
    }
    byte[] decoded = new byte[CHUNK];
    decoded[0] = (byte) offset;
    cache.put(1, offset, decoded, CHUNK, 100);
    return false;
  }

  @Test
  void readsCyclingOverMoreChunksThanFitStillHit() {
    ChunkCache cache = new ChunkCache(CAPACITY);
    int hits = 0;
    for (int round = 0; round < 20; round++) {
      for (long chunk = 0; chunk < 64; chunk++) { // 4x the capacity, in the same order each round
        boolean hit = read(cache, chunk * CHUNK);
        if (round >= 10 && hit) {
          hits++;
        }
      }
    }
    // Plain LRU evicts each chunk just before it is read again: no hit at all. A stable
    // subset of about 16 of the 64 should hit instead.
    assertThat(hits).as("hits in the last 10 rounds").isGreaterThanOrEqualTo(10 * 8);
    assertThat(cache.sizeBytes()).isLessThanOrEqualTo(CAPACITY);
  }

  @Test
  void aStreamOfOneOffReadsDoesNotEvictTheHotChunks() {
    ChunkCache cache = new ChunkCache(CAPACITY);
    for (int round = 0; round < 5; round++) {
      for (long chunk = 0; chunk < 16; chunk++) {
        read(cache, chunk * CHUNK);
      }
    }
    for (long chunk = 1000; chunk < 1500; chunk++) { // a scan-like stream, each chunk read once
      read(cache, chunk * CHUNK);
    }
    int hits = 0;
    for (long chunk = 0; chunk < 16; chunk++) {
      hits += read(cache, chunk * CHUNK) ? 1 : 0;
    }
    assertThat(hits).isEqualTo(16);
  }

  @Test
  void anEntryIsACopyThatReadersShareWithoutCopying() {
    ChunkCache cache = new ChunkCache(CAPACITY);
    byte[] decoded = new byte[CHUNK];
    Arrays.fill(decoded, (byte) 7);
    cache.put(3, 64, decoded, 1000, 321);
    Arrays.fill(decoded, (byte) 9); // the reader's buffer is reused for its next chunk
    ChunkCache.Entry first = cache.get(3, 64);
    ChunkCache.Entry second = cache.get(3, 64);
    assertThat(first.data()).hasSize(1000).containsOnly((byte) 7);
    assertThat(first.storedLength()).isEqualTo(321);
    assertThat(second.data()).isSameAs(first.data());
    assertThat(cache.hits()).isEqualTo(2);
  }
}
