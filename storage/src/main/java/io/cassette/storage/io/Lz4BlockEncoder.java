package io.cassette.storage.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Encodes one LZ4 block (the raw block format {@link Lz4BlockDecoder} reads, no frame), as
 * LZ4's own fast compressor does (acceleration 1: a 4,096-entry hash table of 4-byte
 * sequences, a step that grows while nothing matches). Any LZ4 decoder reads its blocks.
 *
 * <p>Why not lz4-java's pure-Java compressor: it assembles every 4-byte read and compare from
 * single bytes (two thirds of a flush's CPU went there, JFR, bench/results/2026-12-02-flushpack.md);
 * here they are one read through a {@link VarHandle} view of the array (bounds-checked by the
 * JVM, correct at any alignment on every platform), and match lengths are found 8 bytes at a
 * time. The input is the engine's own data: no reads outside {@code src}'s range are possible
 * (every read is checked against the block's end first).
 */
public final class Lz4BlockEncoder {
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int MIN_MATCH = 4;
  /** The last match must start at least this many bytes before the end. */
  private static final int MF_LIMIT = 12;
  /** The last bytes are always literals. */
  private static final int LAST_LITERALS = 5;
  private static final int MIN_LENGTH = MF_LIMIT + 1;
  private static final int MAX_DISTANCE = 65535;
  private static final int HASH_LOG = 12;
  /** The search step grows by one every 2^6 probes without a match (incompressible data goes fast). */
  private static final int SKIP_STRENGTH = 6;
  private static final int RUN_MASK = 15;
  /** One table per thread: the codec instance is shared by flushes and compactions. */
  private static final ThreadLocal<int[]> TABLES = ThreadLocal.withInitial(() -> new int[1 << HASH_LOG]);

  private Lz4BlockEncoder() {}

  /** The most bytes a block of {@code length} bytes encodes to. */
  public static int maxEncodedLength(int length) {
    return length + length / 255 + 16;
  }

  private static int readInt(byte[] b, int i) {
    return (int) INT.get(b, i);
  }

  private static int hash(int v) {
    return (v * -1640531535) >>> (32 - HASH_LOG);
  }

  /**
   * Encodes {@code src[srcOff, srcOff+length)} into {@code dst} at {@code dstOff}; returns the
   * block's length. Requires: {@code dst} has {@link #maxEncodedLength(int)} bytes from {@code dstOff}.
   */
  public static int encode(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
    if (dst.length - dstOff < maxEncodedLength(length)) {
      throw new IllegalArgumentException("output of " + (dst.length - dstOff) + " bytes for a block of " + length);
    }
    final int srcEnd = srcOff + length;
    int anchor = srcOff;
    int d = dstOff;
    if (length >= MIN_LENGTH) {
      final int[] table = TABLES.get();
      Arrays.fill(table, srcOff); // a stale entry would point into another block
      final int mfLimit = srcEnd - MF_LIMIT;
      final int matchLimit = srcEnd - LAST_LITERALS;
      int s = srcOff;
      table[hash(readInt(src, s))] = s;
      s++;
      int forwardHash = hash(readInt(src, s));
      main:
      while (true) {
        // find a match: probe ahead, farther apart the longer nothing matched
        int forward = s;
        int step = 1;
        int probes = 1 << SKIP_STRENGTH;
        int ref;
        do {
          s = forward;
          forward += step;
          step = probes++ >>> SKIP_STRENGTH;
          if (forward > mfLimit) {
            break main;
          }
          ref = table[forwardHash];
          table[forwardHash] = s;
          forwardHash = hash(readInt(src, forward));
        } while (s - ref > MAX_DISTANCE || s <= ref || readInt(src, ref) != readInt(src, s));
        // extend it backwards over equal bytes
        while (s > anchor && ref > srcOff && src[s - 1] == src[ref - 1]) {
          s--;
          ref--;
        }
        int literals = s - anchor;
        int token = d++;
        if (literals >= RUN_MASK) {
          dst[token] = (byte) (RUN_MASK << 4);
          d = writeLength(dst, d, literals - RUN_MASK);
        } else {
          dst[token] = (byte) (literals << 4);
        }
        System.arraycopy(src, anchor, dst, d, literals);
        d += literals;
        while (true) {
          int distance = s - ref;
          dst[d] = (byte) distance;
          dst[d + 1] = (byte) (distance >>> 8);
          d += 2;
          s += MIN_MATCH;
          int matchLength = commonBytes(src, ref + MIN_MATCH, s, matchLimit);
          s += matchLength;
          if (matchLength >= RUN_MASK) {
            dst[token] |= (byte) RUN_MASK;
            d = writeLength(dst, d, matchLength - RUN_MASK);
          } else {
            dst[token] |= (byte) matchLength;
          }
          if (s > mfLimit) {
            anchor = s;
            break main;
          }
          table[hash(readInt(src, s - 2))] = s - 2;
          // a match right here: a sequence without literals
          int h = hash(readInt(src, s));
          ref = table[h];
          table[h] = s;
          if (s - ref <= MAX_DISTANCE && s > ref && readInt(src, ref) == readInt(src, s)) {
            token = d++;
            dst[token] = 0;
            continue;
          }
          break;
        }
        anchor = s++;
        forwardHash = hash(readInt(src, s));
      }
    }
    int literals = srcEnd - anchor;
    if (literals >= RUN_MASK) {
      dst[d++] = (byte) (RUN_MASK << 4);
      d = writeLength(dst, d, literals - RUN_MASK);
    } else {
      dst[d++] = (byte) (literals << 4);
    }
    System.arraycopy(src, anchor, dst, d, literals);
    d += literals;
    return d - dstOff;
  }

  private static int writeLength(byte[] dst, int d, int length) {
    while (length >= 255) {
      dst[d++] = (byte) 255;
      length -= 255;
    }
    dst[d++] = (byte) length;
    return d;
  }

  /** How many bytes from {@code ref} equal those from {@code s}, {@code s} not passing {@code limit}. */
  private static int commonBytes(byte[] b, int ref, int s, int limit) {
    int start = s;
    while (s <= limit - 8) {
      long diff = (long) LONG.get(b, ref) ^ (long) LONG.get(b, s);
      if (diff != 0) {
        return s - start + (Long.numberOfTrailingZeros(diff) >>> 3);
      }
      s += 8;
      ref += 8;
    }
    while (s < limit && b[ref] == b[s]) {
      s++;
      ref++;
    }
    return s - start;
  }
}
