package io.cassette.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.DecoratedKey;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Bloom filter's bits are on disk (Meta.db): every key must set and test exactly the bits
 * of the original formula, index i = floorMod(h1 + i*h2, bits) with 64-bit wrapping, however
 * the filter computes them.
 */
class BloomFilterTest {
  @Test
  void setsTheBitsOfTheOriginalFormula() {
    Random r = new Random(21);
    for (int round = 0; round < 300; round++) {
      int words = round < 50 ? 1 + round : 1 + r.nextInt(round < 290 ? 5_000 : 1 << 20);
      int hashCount = 1 + r.nextInt(20);
      BloomFilter filter = new BloomFilter(new long[words], hashCount);
      long[] expected = new long[words];
      for (int k = 0; k < 200; k++) {
        long token = switch (k) {
          case 0 -> Long.MIN_VALUE;
          case 1 -> Long.MAX_VALUE;
          case 2 -> 0;
          case 3 -> -1;
          default -> r.nextLong();
        };
        DecoratedKey key = new DecoratedKey(token, new byte[] {1});
        filter.add(key);
        reference(expected, hashCount, token);
        assertThat(filter.mightContain(key)).isTrue();
      }
      assertThat(filter.words()).as("round %d: %d words, %d hashes", round, words, hashCount).isEqualTo(expected);
      for (int k = 0; k < 200; k++) {
        long token = r.nextLong();
        assertThat(filter.mightContain(new DecoratedKey(token, new byte[] {1})))
            .isEqualTo(referenceContains(expected, hashCount, token));
      }
    }
  }

  private static long remix(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h | 1;
  }

  private static void reference(long[] words, int hashCount, long h1) {
    long h2 = remix(h1);
    long bits = (long) words.length * 64;
    for (int i = 0; i < hashCount; i++) {
      long idx = Math.floorMod(h1 + i * h2, bits);
      words[(int) (idx >>> 6)] |= 1L << idx;
    }
  }

  private static boolean referenceContains(long[] words, int hashCount, long h1) {
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
}
