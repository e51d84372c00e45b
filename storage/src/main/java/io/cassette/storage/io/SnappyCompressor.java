package io.cassette.storage.io;

/**
 * Snappy's raw block format in pure Java (no native library: the reason Cassandra's Snappy
 * fails on ARM boards). The compressor is a greedy single-probe hash matcher, like the
 * reference implementation's fast path; the decompressor accepts any valid Snappy block.
 *
 * <pre>
 * block   := uncompressedLength:varint element*
 * element := literal | copy1 | copy2 | copy4     (low 2 bits of the tag byte)
 * literal := tag(00, len-1 in high 6 bits, or 60..63 = 1..4 length bytes follow) bytes
 * copy1   := tag(01, len-4 in bits 2-4, offset bits 8-10 in bits 5-7) offsetLow:byte
 * copy2   := tag(10, len-1 in high 6 bits) offset:u16le
 * copy4   := tag(11, len-1 in high 6 bits) offset:u32le
 * </pre>
 */
final class SnappyCompressor implements Compressor {
  private static final int HASH_BITS = 14;
  private static final int MAX_OFFSET = 65535;
  private static final ThreadLocal<int[]> TABLE = ThreadLocal.withInitial(() -> new int[1 << HASH_BITS]);

  @Override
  public int id() {
    return 2;
  }

  @Override
  public String name() {
    return "SnappyCompressor";
  }

  @Override
  public int maxCompressedLength(int length) {
    return 32 + length + length / 6;
  }

  private static int load32(byte[] b, int i) {
    return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
  }

  private static int hash(int v) {
    return (v * 0x1e35a7bd) >>> (32 - HASH_BITS);
  }

  @Override
  public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
    int op = dstOff;
    int v = length;
    while ((v & ~0x7F) != 0) {
      dst[op++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    dst[op++] = (byte) v;
    int end = srcOff + length;
    int[] table = TABLE.get();
    java.util.Arrays.fill(table, -1);
    int literalStart = srcOff;
    int ip = srcOff;
    int matchLimit = end - 4;
    while (ip <= matchLimit) {
      int cur = load32(src, ip);
      int h = hash(cur);
      int candidate = table[h];
      table[h] = ip;
      if (candidate >= 0 && ip - candidate <= MAX_OFFSET && load32(src, candidate) == cur) {
        op = emitLiteral(src, literalStart, ip - literalStart, dst, op);
        int matchLength = 4;
        while (ip + matchLength < end && src[candidate + matchLength] == src[ip + matchLength]) {
          matchLength++;
        }
        op = emitCopy(ip - candidate, matchLength, dst, op);
        ip += matchLength;
        literalStart = ip;
      } else {
        ip++;
      }
    }
    return emitLiteral(src, literalStart, end - literalStart, dst, op) - dstOff;
  }

  private static int emitLiteral(byte[] src, int from, int length, byte[] dst, int op) {
    if (length == 0) {
      return op;
    }
    int n = length - 1;
    if (n < 60) {
      dst[op++] = (byte) (n << 2);
    } else if (n < 1 << 8) {
      dst[op++] = (byte) (60 << 2);
      dst[op++] = (byte) n;
    } else if (n < 1 << 16) {
      dst[op++] = (byte) (61 << 2);
      dst[op++] = (byte) n;
      dst[op++] = (byte) (n >>> 8);
    } else if (n < 1 << 24) {
      dst[op++] = (byte) (62 << 2);
      dst[op++] = (byte) n;
      dst[op++] = (byte) (n >>> 8);
      dst[op++] = (byte) (n >>> 16);
    } else {
      dst[op++] = (byte) (63 << 2);
      dst[op++] = (byte) n;
      dst[op++] = (byte) (n >>> 8);
      dst[op++] = (byte) (n >>> 16);
      dst[op++] = (byte) (n >>> 24);
    }
    System.arraycopy(src, from, dst, op, length);
    return op + length;
  }

  private static int emitCopy(int offset, int length, byte[] dst, int op) {
    // Copies of up to 64 bytes; keep the last piece at least 4 bytes long.
    while (length >= 68) {
      op = emitCopy2(offset, 64, dst, op);
      length -= 64;
    }
    if (length > 64) {
      op = emitCopy2(offset, 60, dst, op);
      length -= 60;
    }
    return emitCopy2(offset, length, dst, op);
  }

  private static int emitCopy2(int offset, int length, byte[] dst, int op) {
    dst[op++] = (byte) (((length - 1) << 2) | 2);
    dst[op++] = (byte) offset;
    dst[op++] = (byte) (offset >>> 8);
    return op;
  }

  @Override
  public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength) {
    int ip = srcOff;
    int end = srcOff + length;
    long declared = 0;
    for (int shift = 0; ; shift += 7) {
      check(ip < end && shift <= 28, "bad length varint");
      int b = src[ip++] & 0xFF;
      declared |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    check(declared == uncompressedLength, "declared length " + declared + " != " + uncompressedLength);
    int op = dstOff;
    int opEnd = dstOff + uncompressedLength;
    while (ip < end) {
      int tag = src[ip++] & 0xFF;
      int kind = tag & 3;
      if (kind == 0) {
        int n = tag >>> 2;
        if (n >= 60) {
          int bytes = n - 59;
          check(ip + bytes <= end, "truncated literal length");
          n = 0;
          for (int i = 0; i < bytes; i++) {
            n |= (src[ip++] & 0xFF) << (8 * i);
          }
        }
        long len = (n & 0xFFFFFFFFL) + 1;
        check(len <= end - ip && len <= opEnd - op, "literal overruns block");
        System.arraycopy(src, ip, dst, op, (int) len);
        ip += (int) len;
        op += (int) len;
      } else {
        int len;
        int offset;
        if (kind == 1) {
          check(ip < end, "truncated copy1");
          len = ((tag >>> 2) & 7) + 4;
          offset = ((tag >>> 5) << 8) | (src[ip++] & 0xFF);
        } else if (kind == 2) {
          check(ip + 2 <= end, "truncated copy2");
          len = (tag >>> 2) + 1;
          offset = (src[ip] & 0xFF) | (src[ip + 1] & 0xFF) << 8;
          ip += 2;
        } else {
          check(ip + 4 <= end, "truncated copy4");
          len = (tag >>> 2) + 1;
          offset = load32(src, ip);
          ip += 4;
        }
        check(offset > 0 && offset <= op - dstOff && len <= opEnd - op, "copy out of range");
        int from = op - offset;
        for (int i = 0; i < len; i++) {
          dst[op++] = dst[from + i];
        }
      }
    }
    check(op == opEnd, "block decompressed to " + (op - dstOff) + " bytes, expected " + uncompressedLength);
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalArgumentException("malformed Snappy block: " + what);
    }
  }
}
