package io.cassette.resp.stream;

import io.cassette.resp.command.RedisException;
import java.nio.charset.StandardCharsets;

/**
 * A stream entry ID: two unsigned 64-bit numbers, milliseconds and sequence, ordered as
 * unsigned (Redis's streamID). Encoded as 16 big-endian bytes so byte order is ID order.
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {
  public static final StreamId MIN = new StreamId(0, 0);
  public static final StreamId MAX = new StreamId(-1L, -1L);
  static final String INVALID = "ERR Invalid stream ID specified as stream command argument";

  @Override
  public int compareTo(StreamId o) {
    int c = Long.compareUnsigned(ms, o.ms);
    return c != 0 ? c : Long.compareUnsigned(seq, o.seq);
  }

  public boolean isZero() {
    return ms == 0 && seq == 0;
  }

  /** The next ID, or null past the last possible one (streamIncrID). */
  public StreamId next() {
    if (seq == -1L) {
      return ms == -1L ? null : new StreamId(ms + 1, 0);
    }
    return new StreamId(ms, seq + 1);
  }

  /** The previous ID, or null before 0-0 (streamDecrID). */
  public StreamId previous() {
    if (seq == 0) {
      return ms == 0 ? null : new StreamId(ms - 1, -1L);
    }
    return new StreamId(ms, seq - 1);
  }

  @Override
  public String toString() {
    return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
  }

  public byte[] bytes() {
    return toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** 16 bytes, big-endian: ms then seq. */
  public void encode(byte[] out, int offset) {
    putLong(out, offset, ms);
    putLong(out, offset + 8, seq);
  }

  public static StreamId decode(byte[] in, int offset) {
    return new StreamId(getLong(in, offset), getLong(in, offset + 8));
  }

  static void putLong(byte[] out, int offset, long v) {
    for (int i = 7; i >= 0; i--) {
      out[offset + i] = (byte) v;
      v >>>= 8;
    }
  }

  static long getLong(byte[] in, int offset) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (in[offset + i] & 0xFF);
    }
    return v;
  }

  /** What a parsed ID argument said: the ID, and whether a sequence was given ("ms-*" not). */
  record Parsed(StreamId id, boolean seqGiven) {}

  /**
   * Redis's streamGenericParseIDOrReply: "-", "+", "ms", "ms-seq", and with {@code allowStar}
   * "ms-*" (seqGiven false). {@code strict} refuses "-" and "+". A missing sequence is
   * {@code missingSeq}.
   */
  static Parsed parse(byte[] arg, long missingSeq, boolean strict, boolean allowStar) {
    if (arg.length > 127) {
      throw new RedisException(INVALID);
    }
    if (arg.length == 1 && (arg[0] == '-' || arg[0] == '+')) {
      if (strict) {
        throw new RedisException(INVALID);
      }
      return new Parsed(arg[0] == '-' ? MIN : MAX, true);
    }
    int dash = -1;
    for (int i = 0; i < arg.length; i++) {
      if (arg[i] == '-') {
        dash = i;
        break;
      }
    }
    long ms = unsigned(arg, 0, dash < 0 ? arg.length : dash);
    if (dash < 0) {
      return new Parsed(new StreamId(ms, missingSeq), true);
    }
    if (allowStar && arg.length - dash - 1 == 1 && arg[dash + 1] == '*') {
      return new Parsed(new StreamId(ms, 0), false);
    }
    return new Parsed(new StreamId(ms, unsigned(arg, dash + 1, arg.length)), true);
  }

  /** A plain ID ("-" and "+" allowed), missing sequence {@code missingSeq}. */
  static StreamId parse(byte[] arg, long missingSeq) {
    return parse(arg, missingSeq, false, false).id;
  }

  /** A strict ID (no "-" or "+"), missing sequence 0. */
  static StreamId parseStrict(byte[] arg) {
    return parse(arg, 0, true, false).id;
  }

  /** An interval bound: "(" makes it exclusive (then strict); returns the inclusive bound or null. */
  static StreamId parseInterval(byte[] arg, long missingSeq, boolean start) {
    boolean exclusive = arg.length > 1 && arg[0] == '(';
    if (!exclusive) {
      return parse(arg, missingSeq);
    }
    byte[] rest = java.util.Arrays.copyOfRange(arg, 1, arg.length);
    StreamId id = parse(rest, missingSeq, true, false).id;
    StreamId moved = start ? id.next() : id.previous();
    if (moved == null) {
      throw new RedisException(start ? "ERR invalid start ID for the interval"
          : "ERR invalid end ID for the interval");
    }
    return moved;
  }

  /** Redis's string2ull: decimal digits only, no sign, fits 64 bits unsigned. */
  private static long unsigned(byte[] s, int from, int to) {
    int len = to - from;
    if (len <= 0 || len > 20) {
      throw new RedisException(INVALID);
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      int d = s[i] - '0';
      if (d < 0 || d > 9) {
        throw new RedisException(INVALID);
      }
      long hi = Math.multiplyHigh(v, 10) + ((v >> 63) & 10); // unsigned high word of v*10
      long lo = v * 10;
      if (hi != 0) {
        throw new RedisException(INVALID);
      }
      long sum = lo + d;
      if (Long.compareUnsigned(sum, lo) < 0) {
        throw new RedisException(INVALID);
      }
      v = sum;
    }
    return v;
  }
}
