package io.cassette.storage.sstable;

import io.cassette.storage.DecoratedKey;

/**
 * A Bloom filter over partition keys, sized for a false-positive chance. Index i of a key
 * is {@code (h1 + i*h2) mod bits} with h1 the key's Murmur3 token and h2 a remix of it (the
 * token is already a good 64-bit hash; two keys with equal tokens are vanishingly rare).
 * Immutable after building; thread-safe to read.
 */
public final class BloomFilter {
  /** Cap on the filter's words (32 MB) so a huge estimate cannot exhaust a small heap. */
  static final int MAX_WORDS = 4 << 20;

  private final long[] words;
  private final int hashCount;

  BloomFilter(long[] words, int hashCount) {
    this.words = words;
    this.hashCount = hashCount;
  }

  static BloomFilter create(long expectedKeys, double fpChance) {
    double p = Math.min(0.5, Math.max(1e-6, fpChance));
    long n = Math.max(1, expectedKeys);
    long bits = (long) Math.ceil(-n * Math.log(p) / (Math.log(2) * Math.log(2)));
    int words = (int) Math.min(MAX_WORDS, Math.max(1, (bits + 63) / 64));
    int k = (int) Math.max(1, Math.min(20, Math.round((double) words * 64 / n * Math.log(2))));
    return new BloomFilter(new long[words], k);
  }

  private static long remix(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h | 1;
  }

  void add(DecoratedKey key) {
    long h1 = key.token();
    long h2 = remix(h1);
    long bits = (long) words.length * 64;
    for (int i = 0; i < hashCount; i++) {
      long idx = Math.floorMod(h1 + i * h2, bits);
      words[(int) (idx >>> 6)] |= 1L << idx;
    }
  }

  public boolean mightContain(DecoratedKey key) {
    long h1 = key.token();
    long h2 = remix(h1);
    long bits = (long) words.length * 64;
    for (int i = 0; i < hashCount; i++) {
      long idx = Math.floorMod(h1 + i * h2, bits);
      if ((words[(int) (idx >>> 6)] & (1L << idx)) == 0) {
        return false;
      }
    }
    return true;
  }

  long[] words() {
    return words;
  }

  int hashCount() {
    return hashCount;
  }

  public long sizeInBytes() {
    return (long) words.length * 8;
  }
}
