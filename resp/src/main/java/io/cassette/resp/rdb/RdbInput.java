package io.cassette.resp.rdb;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The primitive reads of the RDB format (lengths, strings, numbers) over a stream, keeping the
 * CRC-64 of everything read and the offset (for error messages). Not thread-safe.
 */
public final class RdbInput {
  private final InputStream in;
  private final byte[] one = new byte[1];
  private long crc;
  private long offset;

  public RdbInput(InputStream in) {
    this.in = in;
  }

  public long offset() {
    return offset;
  }

  /** The CRC-64 of every byte read so far. */
  public long crc() {
    return crc;
  }

  public int readByte() throws IOException {
    readFully(one, 0, 1);
    return one[0] & 0xff;
  }

  public byte[] readBytes(int n) throws IOException {
    byte[] b = new byte[n];
    readFully(b, 0, n);
    return b;
  }

  private void readFully(byte[] b, int off, int len) throws IOException {
    int done = 0;
    while (done < len) {
      int n = in.read(b, off + done, len - done);
      if (n < 0) {
        throw new EOFException("truncated: the data ends at offset " + (offset + done) + ", "
            + (len - done) + " more bytes expected");
      }
      done += n;
    }
    crc = Crc64.update(crc, b, off, len);
    offset += len;
  }

  /** Little-endian unsigned (up to 8 bytes). */
  public long readLe(int n) throws IOException {
    return Listpack.le(readBytes(n), 0, n);
  }

  /** A length; -1 - special for the 0xC_ string encodings (returns -(1 + kind)). */
  long readLengthOrEncoding() throws IOException {
    int b = readByte();
    switch (b >> 6) {
      case 0:
        return b & 0x3f;
      case 1:
        return ((b & 0x3f) << 8) | readByte();
      case 2:
        if (b == 0x80) {
          byte[] x = readBytes(4);
          return ((x[0] & 0xffL) << 24) | ((x[1] & 0xff) << 16) | ((x[2] & 0xff) << 8) | (x[3] & 0xff);
        }
        if (b == 0x81) {
          byte[] x = readBytes(8);
          long v = 0;
          for (byte y : x) {
            v = (v << 8) | (y & 0xff);
          }
          return v;
        }
        throw new RdbFormatException("bad length byte 0x" + Integer.toHexString(b) + " at offset " + (offset - 1));
      default:
        return -1 - (b & 0x3f);
    }
  }

  public long readLength() throws IOException {
    long n = readLengthOrEncoding();
    if (n < 0) {
      throw new RdbFormatException("a length was expected at offset " + (offset - 1) + ", found a string encoding");
    }
    return n;
  }

  public byte[] readString() throws IOException {
    long n = readLengthOrEncoding();
    if (n >= 0) {
      return readBytes(checkedSize(n));
    }
    int kind = (int) (-1 - n);
    switch (kind) {
      case 0:
        return Listpack.ascii((byte) readByte());
      case 1:
        return Listpack.ascii((short) readLe(2));
      case 2:
        return Listpack.ascii((int) readLe(4));
      case 3: {
        int compressed = checkedSize(readLength());
        int raw = checkedSize(readLength());
        return Lzf.decompress(readBytes(compressed), raw);
      }
      default:
        throw new RdbFormatException("unknown string encoding " + kind + " at offset " + (offset - 1));
    }
  }

  /** The old zset score: a length byte (253 nan, 254 +inf, 255 -inf) then ASCII. */
  double readDoubleText() throws IOException {
    int len = readByte();
    return switch (len) {
      case 253 -> Double.NaN;
      case 254 -> Double.POSITIVE_INFINITY;
      case 255 -> Double.NEGATIVE_INFINITY;
      default -> parseDouble(readBytes(len));
    };
  }

  double readBinaryDouble() throws IOException {
    return Double.longBitsToDouble(readLe(8));
  }

  static double parseDouble(byte[] text) throws RdbFormatException {
    String s = new String(text, java.nio.charset.StandardCharsets.US_ASCII).trim();
    switch (s.toLowerCase(java.util.Locale.ROOT)) {
      case "inf", "+inf", "infinity", "+infinity":
        return Double.POSITIVE_INFINITY;
      case "-inf", "-infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        try {
          return Double.parseDouble(s);
        } catch (NumberFormatException e) {
          throw new RdbFormatException("not a score: '" + s + "'");
        }
    }
  }

  private int checkedSize(long n) throws RdbFormatException {
    if (n > Integer.MAX_VALUE - 16) {
      throw new RdbFormatException("a string of " + n + " bytes at offset " + offset + " is larger than we hold");
    }
    return (int) n;
  }
}
