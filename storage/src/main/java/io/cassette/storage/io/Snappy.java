package io.cassette.storage.io;

import java.util.Arrays;

/**
 * Cassette's one Snappy codec: the raw Snappy block format (google/snappy
 * format_description.txt) in pure Java, for SSTable chunks ({@link Compressors#SNAPPY}) and the
 * CQL protocol's "snappy" body compression. No native library: the native Snappy that
 * Cassandra and its drivers load is what fails on many ARM boards.
 *
 * <pre>
 * block   := varint(uncompressed length) element*
 * element := literal | copy
 * tag byte, low 2 bits:
 *   00 literal: len-1 in the high 6 bits when < 60; 60..63 mean 1..4 little-endian length bytes follow
 *   01 copy, 1-byte offset: len = 4 + bits 2-4, offset = bits 5-7 (high) + next byte (11 bits)
 *   10 copy, 2-byte offset: len = 1 + bits 2-7, then offset as 2 little-endian bytes
 *   11 copy, 4-byte offset: len = 1 + bits 2-7, then offset as 4 little-endian bytes
 * </pre>
 *
 * <p>The compressor works in 64 KiB blocks (as the reference does) so every offset fits in two
 * bytes, finds matches through a hash of the next four bytes, and skips ahead faster the
 * longer it finds none (incompressible input costs little). The decompressor accepts any valid
 * block, checks every length and offset against both buffers, and throws
 * {@link IllegalArgumentException} saying what is wrong. Thread-safety: stateless (the match
 * table is per thread).
 */
public final class Snappy {
  /** Input is matched in blocks of this size so copy offsets stay below 2^16. */
  private static final int BLOCK_SIZE = 1 << 16;
  private static final int HASH_BITS = 14;
  /** Misses before the compressor starts skipping ahead faster on incompressible input (reference value). */
  private static final int SKIP_START = 32;
  private static final int MIN_BLOCK_TO_MATCH = 15;

  /** The match table, reused per thread: 64 KiB not allocated per compressed block. */
  private static final ThreadLocal<int[]> HASH_TABLE = ThreadLocal.withInitial(() -> new int[1 << HASH_BITS]);

  private Snappy() {}

  /** The largest output {@link #compress} can produce for {@code length} input bytes. */
  public static int maxCompressedLength(int length) {
    return 32 + length + length / 6;
  }

  /**
   * Compresses {@code in[inOff, inOff+length)} into {@code out} from {@code outOff}.
   *
   * <p>Requires: {@code out} has at least {@link #maxCompressedLength} bytes from {@code outOff}.
   *
   * @return the compressed length
   */
  public static int compress(byte[] in, int inOff, int length, byte[] out, int outOff) {
    int op = writeVarint(out, outOff, length);
    int[] table = HASH_TABLE.get();
    for (int start = 0; start < length; start += BLOCK_SIZE) {
      op = compressBlock(in, inOff + start, Math.min(BLOCK_SIZE, length - start), out, op, table);
    }
    return op - outOff;
  }

  private static int compressBlock(byte[] in, int base, int n, byte[] out, int op, int[] table) {
    int literalStart = 0;
    if (n >= MIN_BLOCK_TO_MATCH) {
      Arrays.fill(table, -1);
      int limit = n - 4;
      int i = 0;
      int skip = SKIP_START;
      while (i <= limit) {
        int word = readInt(in, base + i);
        int h = (word * 0x1e35a7bd) >>> (32 - HASH_BITS);
        int candidate = table[h];
        table[h] = i;
        if (candidate >= 0 && readInt(in, base + candidate) == word) {
          int matched = 4;
          while (i + matched < n && in[base + candidate + matched] == in[base + i + matched]) {
            matched++;
          }
          if (literalStart < i) {
            op = emitLiteral(in, base + literalStart, i - literalStart, out, op);
          }
          op = emitCopy(out, op, i - candidate, matched);
          i += matched;
          literalStart = i;
          skip = SKIP_START;
        } else {
          i += skip++ >> 5;
        }
      }
    }
    if (literalStart < n) {
      op = emitLiteral(in, base + literalStart, n - literalStart, out, op);
    }
    return op;
  }

  private static int emitLiteral(byte[] in, int from, int length, byte[] out, int op) {
    int n = length - 1;
    if (n < 60) {
      out[op++] = (byte) (n << 2);
    } else if (n < (1 << 8)) {
      out[op++] = (byte) (60 << 2);
      out[op++] = (byte) n;
    } else if (n < (1 << 16)) {
      out[op++] = (byte) (61 << 2);
      out[op++] = (byte) n;
      out[op++] = (byte) (n >>> 8);
    } else if (n < (1 << 24)) {
      out[op++] = (byte) (62 << 2);
      out[op++] = (byte) n;
      out[op++] = (byte) (n >>> 8);
      out[op++] = (byte) (n >>> 16);
    } else {
      out[op++] = (byte) (63 << 2);
      out[op++] = (byte) n;
      out[op++] = (byte) (n >>> 8);
      out[op++] = (byte) (n >>> 16);
      out[op++] = (byte) (n >>> 24);
    }
    System.arraycopy(in, from, out, op, length);
    return op + length;
  }

  /** Requires: {@code length >= 4} and {@code 0 < offset < 2^16}. */
  private static int emitCopy(byte[] out, int op, int offset, int length) {
    while (length >= 68) {
      op = emitCopy2(out, op, offset, 64);
      length -= 64;
    }
    if (length > 64) {
      op = emitCopy2(out, op, offset, 60);
      length -= 60;
    }
    if (length < 12 && offset < 2048) {
      out[op++] = (byte) (1 | ((length - 4) << 2) | ((offset >>> 8) << 5));
      out[op++] = (byte) offset;
      return op;
    }
    return emitCopy2(out, op, offset, length);
  }

  private static int emitCopy2(byte[] out, int op, int offset, int length) {
    out[op++] = (byte) (2 | ((length - 1) << 2));
    out[op++] = (byte) offset;
    out[op++] = (byte) (offset >>> 8);
    return op;
  }

  /**
   * The uncompressed length a block declares in its preamble (not yet checked against its
   * contents: {@link #uncompress} does that).
   *
   * @throws IllegalArgumentException when the preamble is missing or longer than 32 bits
   */
  public static long declaredLength(byte[] in, int inOff, int length) {
    int end = inOff + length;
    int p = inOff;
    long declared = 0;
    for (int shift = 0; ; shift += 7) {
      if (p >= end || shift > 28) {
        throw new IllegalArgumentException("Snappy block of " + length + " bytes has a bad length preamble");
      }
      int b = in[p++] & 0xff;
      declared |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return declared;
      }
    }
  }

  /**
   * Decompresses one block that declares {@code uncompressedLength} bytes into
   * {@code out[outOff, outOff+uncompressedLength)}.
   *
   * @throws IllegalArgumentException when the block is malformed, declares another length, or
   *     does not decompress to exactly that length
   */
  public static void uncompress(byte[] in, int inOff, int length, byte[] out, int outOff, int uncompressedLength) {
    int end = inOff + length;
    int p = inOff;
    long declared = declaredLength(in, inOff, length);
    while ((in[p++] & 0x80) != 0) {
      // past the preamble declaredLength has checked
    }
    if (declared != uncompressedLength) {
      throw new IllegalArgumentException("Snappy block declares " + declared
          + " uncompressed bytes (expected: " + uncompressedLength + ")");
    }
    int op = outOff;
    int opEnd = outOff + uncompressedLength;
    while (p < end) {
      int tag = in[p++] & 0xff;
      int len;
      int offset;
      switch (tag & 3) {
        case 0 -> {
          len = tag >>> 2;
          if (len >= 60) {
            int lengthBytes = len - 59;
            if (p + lengthBytes > end) {
              throw truncated(length);
            }
            len = readLittleEndian(in, p, lengthBytes);
            p += lengthBytes;
          }
          len += 1;
          if (len <= 0 || len > end - p || len > opEnd - op) {
            throw new IllegalArgumentException("Snappy literal of " + len + " bytes at offset "
                + (p - inOff) + " overruns the block");
          }
          System.arraycopy(in, p, out, op, len);
          p += len;
          op += len;
          continue;
        }
        case 1 -> {
          if (p + 1 > end) {
            throw truncated(length);
          }
          len = 4 + ((tag >>> 2) & 7);
          offset = ((tag >>> 5) << 8) | (in[p++] & 0xff);
        }
        case 2 -> {
          if (p + 2 > end) {
            throw truncated(length);
          }
          len = (tag >>> 2) + 1;
          offset = readLittleEndian(in, p, 2);
          p += 2;
        }
        default -> {
          if (p + 4 > end) {
            throw truncated(length);
          }
          len = (tag >>> 2) + 1;
          offset = readLittleEndian(in, p, 4);
          p += 4;
        }
      }
      if (offset <= 0 || offset > op - outOff || len > opEnd - op) {
        throw new IllegalArgumentException("Snappy copy (offset " + offset + ", length " + len
            + ") at output position " + (op - outOff) + " is out of bounds");
      }
      int from = op - offset;
      for (int i = 0; i < len; i++) {
        out[op + i] = out[from + i];
      }
      op += len;
    }
    if (op != opEnd) {
      throw new IllegalArgumentException("Snappy block decompressed to " + (op - outOff)
          + " bytes (expected: " + uncompressedLength + ")");
    }
  }

  /**
   * Decompresses one block of unknown length into a new array.
   *
   * @throws IllegalArgumentException when the block is malformed or declares more than
   *     {@code maxLength} bytes (checked before anything is allocated)
   */
  public static byte[] uncompress(byte[] in, int inOff, int length, int maxLength) {
    long declared = declaredLength(in, inOff, length);
    if (declared > maxLength) {
      throw new IllegalArgumentException("Snappy block declares " + declared
          + " uncompressed bytes (expected: <= " + maxLength + ")");
    }
    byte[] out = new byte[(int) declared];
    uncompress(in, inOff, length, out, 0, out.length);
    return out;
  }

  private static IllegalArgumentException truncated(int length) {
    return new IllegalArgumentException("Snappy block of " + length + " bytes is truncated");
  }

  private static int readLittleEndian(byte[] in, int p, int byteCount) {
    int v = 0;
    for (int i = 0; i < byteCount; i++) {
      v |= (in[p + i] & 0xff) << (8 * i);
    }
    return v;
  }

  private static int readInt(byte[] in, int p) {
    return (in[p] & 0xff) | (in[p + 1] & 0xff) << 8 | (in[p + 2] & 0xff) << 16 | (in[p + 3] & 0xff) << 24;
  }

  private static int writeVarint(byte[] out, int op, int value) {
    while ((value & ~0x7f) != 0) {
      out[op++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out[op++] = (byte) value;
    return op;
  }
}
