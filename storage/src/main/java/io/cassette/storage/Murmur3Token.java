package io.cassette.storage;

/**
 * The token of a partition key, bit for bit as Cassandra's Murmur3Partitioner computes it:
 * the first half of MurmurHash3 x64_128 with seed 0, including Cassandra's quirk of
 * sign-extending the tail bytes, and {@code Long.MIN_VALUE} mapped to {@code Long.MAX_VALUE}.
 * Drivers route by these tokens, so they must agree exactly.
 */
public final class Murmur3Token {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3Token() {}

  public static long of(byte[] key) {
    long h = hash64(key);
    return h == Long.MIN_VALUE ? Long.MAX_VALUE : h;
  }

  private static long hash64(byte[] key) {
    int length = key.length;
    int nblocks = length >> 4;
    long h1 = 0;
    long h2 = 0;
    for (int i = 0; i < nblocks; i++) {
      long k1 = block(key, i * 16);
      long k2 = block(key, i * 16 + 8);
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = nblocks * 16;
    long k1 = 0;
    long k2 = 0;
    // Cassandra reads tail bytes as signed (sign-extended) values: kept for token identity.
    switch (length & 15) {
      case 15: k2 ^= ((long) key[tail + 14]) << 48;
      case 14: k2 ^= ((long) key[tail + 13]) << 40;
      case 13: k2 ^= ((long) key[tail + 12]) << 32;
      case 12: k2 ^= ((long) key[tail + 11]) << 24;
      case 11: k2 ^= ((long) key[tail + 10]) << 16;
      case 10: k2 ^= ((long) key[tail + 9]) << 8;
      case 9:
        k2 ^= key[tail + 8];
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        k2 *= C1;
        h2 ^= k2;
      case 8: k1 ^= ((long) key[tail + 7]) << 56;
      case 7: k1 ^= ((long) key[tail + 6]) << 48;
      case 6: k1 ^= ((long) key[tail + 5]) << 40;
      case 5: k1 ^= ((long) key[tail + 4]) << 32;
      case 4: k1 ^= ((long) key[tail + 3]) << 24;
      case 3: k1 ^= ((long) key[tail + 2]) << 16;
      case 2: k1 ^= ((long) key[tail + 1]) << 8;
      case 1:
        k1 ^= key[tail];
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        k1 *= C2;
        h1 ^= k1;
        break;
      default:
        break;
    }
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    return h1;
  }

  private static long block(byte[] key, int offset) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (key[offset + i] & 0xFFL);
    }
    return v;
  }

  private static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
