package io.cassette.resp.command;

import java.util.Arrays;

/**
 * Redis 7.0's HyperLogLog string, byte for byte (hyperloglog.c), so a value written here is a
 * valid HLL for Redis and the other way round, with the same counts:
 *
 * <pre>
 *  +------+----------+---------+--------------------------+-----------------------------+
 *  | HYLL | encoding | 3 unused| cached cardinality (8 LE) | registers (dense or sparse) |
 *  +------+----------+---------+--------------------------+-----------------------------+
 *  encoding 0 dense: 16384 registers of 6 bits, little-endian bit order (12288 bytes)
 *  encoding 1 sparse: opcodes ZERO 00xxxxxx (1..64 zero registers), XZERO 01xxxxxx xxxxxxxx
 *  (1..16384), VAL 1vvvvvxx (value 1..32, 1..4 registers)
 *  the cached cardinality's most significant bit set = cache invalid
 * </pre>
 *
 * A new HLL is sparse; it becomes dense when a register exceeds 32 or the sparse form would
 * grow past hll-sparse-max-bytes. Not thread-safe (one command's working copy).
 */
final class HyperLogLog {
  static final int P = 14;
  static final int Q = 64 - P;
  static final int REGISTERS = 1 << P;
  static final int P_MASK = REGISTERS - 1;
  static final int BITS = 6;
  static final int REGISTER_MAX = (1 << BITS) - 1;
  static final int HDR = 16;
  static final int DENSE_SIZE = HDR + (REGISTERS * BITS + 7) / 8;
  static final int DENSE = 0;
  static final int SPARSE = 1;
  static final int VAL_MAX_VALUE = 32;
  static final int VAL_MAX_LEN = 4;
  static final int ZERO_MAX_LEN = 64;
  static final int XZERO_MAX_LEN = 16384;
  static final double ALPHA_INF = 0.721347520444481703680;

  static final String INVALID = "INVALIDOBJ Corrupted HLL object detected";
  static final String NOT_HLL = "WRONGTYPE Key is not a valid HyperLogLog string value.";

  /** The value; only the first {@code len} bytes count (sparse edits grow and shrink it). */
  byte[] buf;
  int len;

  HyperLogLog(byte[] value) {
    buf = value.clone();
    len = value.length;
  }

  /** createHLLObject: sparse, every register zero (XZERO opcodes). */
  static HyperLogLog create() {
    int sparselen = HDR + ((REGISTERS + (XZERO_MAX_LEN - 1)) / XZERO_MAX_LEN) * 2;
    byte[] s = new byte[sparselen];
    s[0] = 'H';
    s[1] = 'Y';
    s[2] = 'L';
    s[3] = 'L';
    s[4] = SPARSE;
    int p = HDR;
    int aux = REGISTERS;
    while (aux > 0) {
      int xzero = Math.min(XZERO_MAX_LEN, aux);
      setXzero(s, p, xzero);
      p += 2;
      aux -= xzero;
    }
    HyperLogLog h = new HyperLogLog(new byte[0]);
    h.buf = s;
    h.len = s.length;
    return h;
  }

  byte[] bytes() {
    return Arrays.copyOf(buf, len);
  }

  int encoding() {
    return buf[4];
  }

  /** isHLLObjectOrReply's checks. */
  static boolean valid(byte[] v) {
    if (v.length < HDR || v[0] != 'H' || v[1] != 'Y' || v[2] != 'L' || v[3] != 'L') {
      return false;
    }
    if ((v[4] & 0xFF) > SPARSE) {
      return false;
    }
    return v[4] != DENSE || v.length == DENSE_SIZE;
  }

  void invalidateCache() {
    buf[15] |= (byte) 0x80;
  }

  boolean cacheValid() {
    return (buf[15] & 0x80) == 0;
  }

  long cachedCard() {
    long card = 0;
    for (int i = 7; i >= 0; i--) {
      card = (card << 8) | (buf[8 + i] & 0xFF);
    }
    return card;
  }

  void cacheCard(long card) {
    for (int i = 0; i < 8; i++) {
      buf[8 + i] = (byte) (card >>> (8 * i));
    }
  }

  // ---- MurmurHash64A and the pattern length -------------------------------------------

  static long murmurHash64A(byte[] key, int seed) {
    final long m = 0xc6a4a7935bd1e995L;
    final int r = 47;
    int len = key.length;
    long h = (seed & 0xFFFFFFFFL) ^ (len * m);
    int end = len - (len & 7);
    for (int i = 0; i < end; i += 8) {
      long k = 0;
      for (int b = 7; b >= 0; b--) {
        k = (k << 8) | (key[i + b] & 0xFF);
      }
      k *= m;
      k ^= k >>> r;
      k *= m;
      h ^= k;
      h *= m;
    }
    int rest = len & 7;
    if (rest > 0) {
      for (int b = rest - 1; b >= 0; b--) {
        h ^= (long) (key[end + b] & 0xFF) << (8 * b);
      }
      h *= m;
    }
    h ^= h >>> r;
    h *= m;
    h ^= h >>> r;
    return h;
  }

  /** hllPatLen: {register index, run length of zeroes + 1}. */
  static int[] patLen(byte[] ele) {
    long hash = murmurHash64A(ele, 0xadc83b19);
    int index = (int) (hash & P_MASK);
    hash >>>= P;
    hash |= 1L << Q;
    long bit = 1;
    int count = 1;
    while ((hash & bit) == 0) {
      count++;
      bit <<= 1;
    }
    return new int[] {index, count};
  }

  // ---- dense ---------------------------------------------------------------------------

  static int denseGet(byte[] p, int off, int regnum) {
    int b = off + regnum * BITS / 8;
    int fb = regnum * BITS & 7;
    int b0 = p[b] & 0xFF;
    int b1 = b + 1 < p.length ? p[b + 1] & 0xFF : 0;
    return ((b0 >> fb) | (b1 << (8 - fb))) & REGISTER_MAX;
  }

  static void denseSet(byte[] p, int off, int regnum, int val) {
    int b = off + regnum * BITS / 8;
    int fb = regnum * BITS & 7;
    int fb8 = 8 - fb;
    p[b] = (byte) ((p[b] & ~(REGISTER_MAX << fb)) | (val << fb));
    if (b + 1 < p.length) {
      p[b + 1] = (byte) ((p[b + 1] & ~(REGISTER_MAX >> fb8)) | (val >> fb8));
    }
  }

  private boolean denseSetMax(int index, int count) {
    if (count > denseGet(buf, HDR, index)) {
      denseSet(buf, HDR, index, count);
      return true;
    }
    return false;
  }

  // ---- sparse --------------------------------------------------------------------------

  private static boolean isZero(int op) {
    return (op & 0xc0) == 0;
  }

  private static boolean isXzero(int op) {
    return (op & 0xc0) == 0x40;
  }

  private static void setXzero(byte[] s, int p, int len) {
    int l = len - 1;
    s[p] = (byte) ((l >> 8) | 0x40);
    s[p + 1] = (byte) (l & 0xff);
  }

  private static byte val(int value, int len) {
    return (byte) (((value - 1) << 2 | (len - 1)) | 0x80);
  }

  private static byte zero(int len) {
    return (byte) (len - 1);
  }

  private int xzeroLen(int p) {
    if (p + 1 >= len) {
      throw new RedisException(INVALID);
    }
    return (((buf[p] & 0x3f) << 8) | (buf[p + 1] & 0xFF)) + 1;
  }

  /** hllSparseToDense; false when the sparse form is corrupt. */
  boolean toDense() {
    if (encoding() == DENSE) {
      return true;
    }
    byte[] dense = new byte[DENSE_SIZE];
    System.arraycopy(buf, 0, dense, 0, HDR);
    dense[4] = DENSE;
    int idx = 0;
    int p = HDR;
    while (p < len) {
      int op = buf[p] & 0xFF;
      if (isZero(op)) {
        idx += (op & 0x3f) + 1;
        p++;
      } else if (isXzero(op)) {
        if (p + 1 >= len) {
          return false;
        }
        idx += xzeroLen(p);
        p += 2;
      } else {
        int runlen = (op & 3) + 1;
        int regval = ((op >> 2) & 0x1f) + 1;
        if (runlen + idx > REGISTERS) {
          break;
        }
        while (runlen-- > 0) {
          denseSet(dense, HDR, idx, regval);
          idx++;
        }
        p++;
      }
    }
    if (idx != REGISTERS) {
      return false;
    }
    buf = dense;
    len = dense.length;
    return true;
  }

  /** hllSparseSet: 1 updated, 0 not, -1 corrupt. Promotes to dense when needed. */
  int sparseSet(int index, int count, long sparseMaxBytes) {
    if (count > VAL_MAX_VALUE) {
      return promote(index, count);
    }
    int p = HDR;
    int end = len;
    int first = 0;
    int prev = -1;
    int span = 0;
    while (p < end) {
      int op = buf[p] & 0xFF;
      int oplen = 1;
      if (isZero(op)) {
        span = (op & 0x3f) + 1;
      } else if ((op & 0x80) != 0) {
        span = (op & 3) + 1;
      } else {
        span = xzeroLen(p);
        oplen = 2;
      }
      if (index <= first + span - 1) {
        break;
      }
      prev = p;
      p += oplen;
      first += span;
    }
    if (span == 0 || p >= end) {
      return -1;
    }
    int op = buf[p] & 0xFF;
    int next = isXzero(op) ? p + 2 : p + 1;
    if (next >= end) {
      next = -1;
    }
    boolean isZero = false;
    boolean isXzero = false;
    boolean isVal = false;
    int runlen;
    if (isZero(op)) {
      isZero = true;
      runlen = (op & 0x3f) + 1;
    } else if (isXzero(op)) {
      isXzero = true;
      runlen = xzeroLen(p);
    } else {
      isVal = true;
      runlen = (op & 3) + 1;
    }
    boolean updatedInPlace = false;
    if (isVal) {
      int oldcount = ((op >> 2) & 0x1f) + 1;
      if (oldcount >= count) {
        return 0;
      }
      if (runlen == 1) {
        buf[p] = val(count, 1);
        updatedInPlace = true;
      }
    }
    if (!updatedInPlace && isZero && runlen == 1) {
      buf[p] = val(count, 1);
      updatedInPlace = true;
    }
    if (!updatedInPlace) {
      byte[] seq = new byte[5];
      int n = 0;
      int last = first + span - 1;
      if (isZero || isXzero) {
        if (index != first) {
          int l = index - first;
          if (l > ZERO_MAX_LEN) {
            setXzero(seq, n, l);
            n += 2;
          } else {
            seq[n++] = zero(l);
          }
        }
        seq[n++] = val(count, 1);
        if (index != last) {
          int l = last - index;
          if (l > ZERO_MAX_LEN) {
            setXzero(seq, n, l);
            n += 2;
          } else {
            seq[n++] = zero(l);
          }
        }
      } else {
        int curval = ((op >> 2) & 0x1f) + 1;
        if (index != first) {
          seq[n++] = val(curval, index - first);
        }
        seq[n++] = val(count, 1);
        if (index != last) {
          seq[n++] = val(curval, last - index);
        }
      }
      int oldlen = isXzero ? 2 : 1;
      int delta = n - oldlen;
      if (delta > 0 && (long) len + delta > sparseMaxBytes) {
        return promote(index, count);
      }
      if (len + delta > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + delta));
      }
      if (delta != 0 && next >= 0) {
        System.arraycopy(buf, next, buf, next + delta, end - next);
      }
      len += delta;
      System.arraycopy(seq, 0, buf, p, n);
      end += delta;
    }
    // Step 4: merge adjacent VAL opcodes of the same value.
    p = prev >= 0 ? prev : HDR;
    int scanlen = 5;
    while (p < end && scanlen-- > 0) {
      int o = buf[p] & 0xFF;
      if (isXzero(o)) {
        p += 2;
        continue;
      } else if (isZero(o)) {
        p++;
        continue;
      }
      if (p + 1 < end && (buf[p + 1] & 0x80) != 0) {
        int v1 = ((o >> 2) & 0x1f) + 1;
        int o2 = buf[p + 1] & 0xFF;
        int v2 = ((o2 >> 2) & 0x1f) + 1;
        if (v1 == v2) {
          int l = (o & 3) + 1 + (o2 & 3) + 1;
          if (l <= VAL_MAX_LEN) {
            buf[p + 1] = val(v1, l);
            System.arraycopy(buf, p + 1, buf, p, end - p - 1);
            len--;
            end--;
            continue;
          }
        }
      }
      p++;
    }
    invalidateCache();
    return 1;
  }

  private int promote(int index, int count) {
    if (!toDense()) {
      return -1;
    }
    denseSetMax(index, count);
    return 1;
  }

  /** hllAdd: 1 when a register changed, 0 if not, -1 corrupt. */
  int add(byte[] ele, long sparseMaxBytes) {
    int[] pl = patLen(ele);
    return switch (encoding()) {
      case DENSE -> denseSetMax(pl[0], pl[1]) ? 1 : 0;
      case SPARSE -> sparseSet(pl[0], pl[1], sparseMaxBytes);
      default -> -1;
    };
  }

  /** hllMerge into {@code max} (one byte per register); false when corrupt. */
  boolean mergeInto(byte[] max) {
    if (encoding() == DENSE) {
      for (int i = 0; i < REGISTERS; i++) {
        int v = denseGet(buf, HDR, i);
        if (v > max[i]) {
          max[i] = (byte) v;
        }
      }
      return true;
    }
    int i = 0;
    int p = HDR;
    while (p < len) {
      int op = buf[p] & 0xFF;
      if (isZero(op)) {
        i += (op & 0x3f) + 1;
        p++;
      } else if (isXzero(op)) {
        if (p + 1 >= len) {
          return false;
        }
        i += xzeroLen(p);
        p += 2;
      } else {
        int runlen = (op & 3) + 1;
        int regval = ((op >> 2) & 0x1f) + 1;
        if (runlen + i > REGISTERS) {
          break;
        }
        while (runlen-- > 0) {
          if (regval > max[i]) {
            max[i] = (byte) regval;
          }
          i++;
        }
        p++;
      }
    }
    return i == REGISTERS;
  }

  /** The register histogram of this HLL; null when the sparse form is corrupt. */
  int[] histogram() {
    int[] h = new int[64];
    if (encoding() == DENSE) {
      for (int i = 0; i < REGISTERS; i++) {
        h[denseGet(buf, HDR, i)]++;
      }
      return h;
    }
    int idx = 0;
    int p = HDR;
    while (p < len) {
      int op = buf[p] & 0xFF;
      if (isZero(op)) {
        int r = (op & 0x3f) + 1;
        idx += r;
        h[0] += r;
        p++;
      } else if (isXzero(op)) {
        if (p + 1 >= len) {
          return null;
        }
        int r = xzeroLen(p);
        idx += r;
        h[0] += r;
        p += 2;
      } else {
        int r = (op & 3) + 1;
        idx += r;
        h[((op >> 2) & 0x1f) + 1] += r;
        p++;
      }
    }
    return idx == REGISTERS ? h : null;
  }

  static int[] rawHistogram(byte[] registers) {
    int[] h = new int[64];
    for (byte b : registers) {
      h[b]++;
    }
    return h;
  }

  static double sigma(double x) {
    if (x == 1.) {
      return Double.POSITIVE_INFINITY;
    }
    double zPrime;
    double y = 1;
    double z = x;
    do {
      x *= x;
      zPrime = z;
      z += x * y;
      y += y;
    } while (zPrime != z);
    return z;
  }

  static double tau(double x) {
    if (x == 0. || x == 1.) {
      return 0.;
    }
    double zPrime;
    double y = 1.0;
    double z = 1 - x;
    do {
      x = Math.sqrt(x);
      zPrime = z;
      y *= 0.5;
      z -= (1 - x) * (1 - x) * y;
    } while (zPrime != z);
    return z / 3;
  }

  /** hllCount from a register histogram (Ertl's improved estimator, as Redis 7.0). */
  static long count(int[] reghisto) {
    double m = REGISTERS;
    double z = m * tau((m - reghisto[Q + 1]) / m);
    for (int j = Q; j >= 1; --j) {
      z += reghisto[j];
      z *= 0.5;
    }
    z += m * sigma(reghisto[0] / m);
    return Math.round(ALPHA_INF * m * m / z);
  }
}
