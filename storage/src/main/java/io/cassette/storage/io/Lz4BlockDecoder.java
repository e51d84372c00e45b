package io.cassette.storage.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decodes one LZ4 block (the raw block format, no frame) in pure Java, checking every
 * length and offset against both buffers, so malformed or hostile input raises
 * {@link IllegalArgumentException} and never reads or writes outside its ranges.
 *
 * <p>Why not lz4-java's safe decompressor: it copies every literal run and match with
 * {@code System.arraycopy} or byte by byte; most sequences are a few bytes long, where the
 * call costs more than the copy. Here short runs are copied 8 bytes at a time through a
 * {@link VarHandle} view of the byte array (bounds-checked by the JVM, and correct at any
 * alignment on every platform, 32-bit ARM included: the JVM splits an unaligned access where
 * the CPU cannot do it), writing up to 7 bytes past the run's end when the output has room:
 * those bytes are always overwritten by the sequences that follow, since a block must fill
 * its output exactly.
 *
 * <pre>
 * block    := sequence* lastLiterals
 * sequence := token:u8 [litLen ext] literal* offset:u16le [matchLen ext]
 * token    := litLen:4 | matchLen-4:4     (a nibble of 15: add ext bytes while they are 255)
 * </pre>
 */
public final class Lz4BlockDecoder {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** Shortest match LZ4 encodes (a match-length nibble of 0 means 4 bytes). */
  private static final int MIN_MATCH = 4;
  /** Bytes copied per step of a wild copy; a wild copy may write this many past its end. */
  private static final int STEP = 8;

  private Lz4BlockDecoder() {}

  /**
   * Decodes {@code src[srcOff, srcOff+srcLength)} into {@code dst} at {@code dstOff}; the block
   * must decode to exactly {@code dstLength} bytes. Bytes of {@code dst} in
   * {@code [dstOff, dstOff+dstLength)} are overwritten (garbage if the input is malformed).
   *
   * @throws IllegalArgumentException if the block is malformed, truncated, or decodes to
   *     another length
   */
  public static void decode(byte[] src, int srcOff, int srcLength, byte[] dst, int dstOff, int dstLength) {
    decodePart(src, srcOff, srcLength, dst, dstOff, dstLength, 0, dstLength);
  }

  /**
   * Decodes the same block as {@link #decode} in steps: resumes where the {@code state} a
   * previous call returned left off (0 to start) and stops after the first sequence that
   * reaches output offset {@code until} (relative to {@code dstOff}), or at the block's end.
   * Returns the new state: input bytes consumed in the high 32 bits, output bytes decoded
   * (final from {@code dstOff} on) in the low 32 bits; the block is done when the latter is
   * {@code dstLength}. A point read needs a row, not the whole 16 KiB chunk it lies in: it
   * decodes up to the row's end, half a chunk on average. Every check of {@link #decode} is
   * made as the sequences are reached. Requires: {@code state} returned by this method for
   * the same block and buffers, whose decoded bytes were not modified.
   */
  public static long decodePart(byte[] src, int srcOff, int srcLength, byte[] dst, int dstOff, int dstLength,
                                long state, int until) {
    java.util.Objects.checkFromIndexSize(srcOff, srcLength, src.length);
    java.util.Objects.checkFromIndexSize(dstOff, dstLength, dst.length);
    int sp = srcOff + (int) (state >>> 32);
    int srcEnd = srcOff + srcLength;
    int dp = dstOff + (int) state;
    int dstEnd = dstOff + dstLength;
    int stop = dstOff + Math.min(Math.max(until, 0), dstLength);
    if (srcLength == 0) {
      throw malformed("empty block", sp - srcOff);
    }
    if (sp - srcOff > srcLength || dp > dstEnd || sp < srcOff || dp < dstOff) {
      throw new IllegalArgumentException("bad LZ4 decode state " + Long.toHexString(state));
    }
    if (sp == srcEnd) {
      return state; // already done
    }
    while (true) {
      int token = src[sp++] & 0xFF;
      // literals
      int literals = token >>> 4;
      if (literals == 15) {
        int b;
        do {
          if (sp >= srcEnd) {
            throw malformed("truncated literal length", sp - srcOff);
          }
          b = src[sp++] & 0xFF;
          literals += b;
          if (literals < 0) {
            throw malformed("literal length overflows", sp - srcOff);
          }
        } while (b == 255);
      }
      if (literals > srcEnd - sp) {
        throw malformed("literal run of " + literals + " bytes past the input's end", sp - srcOff);
      }
      if (literals > dstEnd - dp) {
        throw malformed("literal run of " + literals + " bytes past the output's end", sp - srcOff);
      }
      if (literals <= 2 * STEP && srcEnd - sp >= 2 * STEP && dstEnd - dp >= 2 * STEP) {
        LONG.set(dst, dp, (long) LONG.get(src, sp));
        LONG.set(dst, dp + STEP, (long) LONG.get(src, sp + STEP));
      } else {
        System.arraycopy(src, sp, dst, dp, literals);
      }
      sp += literals;
      dp += literals;
      if (sp == srcEnd) {
        break; // the last sequence has literals only
      }
      // match
      if (srcEnd - sp < 2) {
        throw malformed("truncated match offset", sp - srcOff);
      }
      int offset = (src[sp] & 0xFF) | (src[sp + 1] & 0xFF) << 8;
      sp += 2;
      if (offset == 0 || offset > dp - dstOff) {
        throw malformed("match offset " + offset + " before the output's start", sp - srcOff);
      }
      int match = token & 0x0F;
      if (match == 15) {
        int b;
        do {
          if (sp >= srcEnd) {
            throw malformed("truncated match length", sp - srcOff);
          }
          b = src[sp++] & 0xFF;
          match += b;
          if (match > Integer.MAX_VALUE - 255 - MIN_MATCH) {
            throw malformed("match length overflows", sp - srcOff);
          }
        } while (b == 255);
      }
      match += MIN_MATCH;
      if (match > dstEnd - dp) {
        throw malformed("match of " + match + " bytes past the output's end", sp - srcOff);
      }
      copyMatch(dst, dp - offset, dp, match, offset, dstEnd);
      dp += match;
      if (sp >= srcEnd) {
        throw malformed("block ends with a match, not literals", sp - srcOff);
      }
      if (dp >= stop && dp < dstEnd) {
        // part done: the bytes past dp written by a wild copy are not final yet (their
        // sequences overwrite them); the caller reads only below dp
        return (long) (sp - srcOff) << 32 | (dp - dstOff);
      }
    }
    if (dp != dstEnd) {
      throw new IllegalArgumentException("LZ4 block decompressed to " + (dp - dstOff) + " bytes, expected " + dstLength);
    }
    return (long) (sp - srcOff) << 32 | (dp - dstOff);
  }

  /** Copies {@code length} bytes from {@code from} to {@code to} (earlier), which may overlap it. */
  private static void copyMatch(byte[] dst, int from, int to, int length, int offset, int dstEnd) {
    int end = to + length;
    if (offset >= STEP && end + STEP <= dstEnd) {
      // Each 8-byte step reads bytes already final: from + 8 <= to for every step.
      do {
        LONG.set(dst, to, (long) LONG.get(dst, from));
        to += STEP;
        from += STEP;
      } while (to < end);
    } else if (offset >= length) {
      System.arraycopy(dst, from, dst, to, length);
    } else if (offset == 1) {
      java.util.Arrays.fill(dst, to, end, dst[from]);
    } else {
      // A short repeating pattern: byte by byte, each byte may be one just written.
      for (; to < end; to++, from++) {
        dst[to] = dst[from];
      }
    }
  }

  private static IllegalArgumentException malformed(String what, int inputPosition) {
    return new IllegalArgumentException("malformed LZ4 block: " + what + " (input position " + inputPosition + ")");
  }
}
