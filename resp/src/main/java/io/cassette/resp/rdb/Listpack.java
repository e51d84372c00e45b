package io.cassette.resp.rdb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis's listpack (the blob inside RDB types 16, 17, 18 and 20), read and written:
 *
 * <pre>
 *  total-bytes(4, LE) | count(2, LE; 65535 = count them) | entry* | 0xFF
 *  entry := encoding+data | backlen (1..5 bytes: the length of encoding+data, 7 bits a byte)
 *   0xxxxxxx                 7-bit unsigned integer
 *   10xxxxxx + data          string of up to 63 bytes
 *   110xxxxx yyyyyyyy        13-bit signed integer
 *   1110xxxx yyyyyyyy + data string of up to 4095 bytes
 *   11110000 len(4, LE) + data  longer string
 *   11110001/2/3/4 + 2/3/4/8 bytes LE   16/24/32/64-bit signed integer
 * </pre>
 *
 * Integers are returned as their decimal text, as Redis returns them. The writer encodes a
 * string that is a canonical 64-bit integer as an integer, as Redis's lpAppend does.
 */
final class Listpack {
  private Listpack() {}

  static List<byte[]> read(byte[] lp) throws RdbFormatException {
    if (lp.length < 7) {
      throw new RdbFormatException("listpack of " + lp.length + " bytes is too short");
    }
    long total = le(lp, 0, 4);
    if (total != lp.length) {
      throw new RdbFormatException("listpack header says " + total + " bytes, blob has " + lp.length);
    }
    int count = (int) le(lp, 4, 2);
    List<byte[]> out = new ArrayList<>(count == 65535 ? 16 : count);
    int p = 6;
    try {
      while ((lp[p] & 0xff) != 0xFF) {
        int b = lp[p] & 0xff;
        int start = p;
        if ((b & 0x80) == 0) {
          out.add(ascii(b & 0x7f));
          p += 1;
        } else if ((b & 0xC0) == 0x80) {
          int len = b & 0x3f;
          out.add(copy(lp, p + 1, len));
          p += 1 + len;
        } else if ((b & 0xE0) == 0xC0) {
          long v = ((b & 0x1f) << 8) | (lp[p + 1] & 0xff);
          out.add(ascii(v >= 1 << 12 ? v - (1 << 13) : v));
          p += 2;
        } else if ((b & 0xF0) == 0xE0) {
          int len = ((b & 0x0f) << 8) | (lp[p + 1] & 0xff);
          out.add(copy(lp, p + 2, len));
          p += 2 + len;
        } else if (b == 0xF0) {
          int len = (int) le(lp, p + 1, 4);
          out.add(copy(lp, p + 5, len));
          p += 5 + len;
        } else if (b >= 0xF1 && b <= 0xF4) {
          int n = b == 0xF1 ? 2 : b == 0xF2 ? 3 : b == 0xF3 ? 4 : 8;
          long v = le(lp, p + 1, n);
          int shift = 64 - 8 * n;
          out.add(ascii((v << shift) >> shift));
          p += 1 + n;
        } else {
          throw new RdbFormatException("listpack: bad entry encoding 0x" + Integer.toHexString(b) + " at " + p);
        }
        p += backlenSize(p - start);
      }
    } catch (IndexOutOfBoundsException e) {
      throw new RdbFormatException("listpack: entry runs past the end of the blob");
    }
    if (p != lp.length - 1) {
      throw new RdbFormatException("listpack: terminator at " + p + " of " + lp.length + " bytes");
    }
    if (count != 65535 && count != out.size()) {
      throw new RdbFormatException("listpack header counts " + count + " entries, found " + out.size());
    }
    return out;
  }

  /** A listpack builder; {@link #bytes()} then gives the blob. */
  static final class Writer {
    private final ByteArrayOutputStream entries = new ByteArrayOutputStream();
    private int count;

    int size() {
      return 6 + entries.size() + 1;
    }

    int count() {
      return count;
    }

    Writer add(byte[] s) {
      Long v = canonicalLong(s);
      int start = entries.size();
      if (v != null) {
        long x = v;
        if (x >= 0 && x <= 127) {
          entries.write((int) x);
        } else if (x >= -4096 && x <= 4095) {
          long u = x & 0x1fff;
          entries.write((int) (0xC0 | (u >> 8)));
          entries.write((int) (u & 0xff));
        } else if (x >= Short.MIN_VALUE && x <= Short.MAX_VALUE) {
          entries.write(0xF1);
          le(x, 2);
        } else if (x >= -(1 << 23) && x <= (1 << 23) - 1) {
          entries.write(0xF2);
          le(x, 3);
        } else if (x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE) {
          entries.write(0xF3);
          le(x, 4);
        } else {
          entries.write(0xF4);
          le(x, 8);
        }
      } else if (s.length < 64) {
        entries.write(0x80 | s.length);
        entries.writeBytes(s);
      } else if (s.length < 4096) {
        entries.write(0xE0 | (s.length >> 8));
        entries.write(s.length & 0xff);
        entries.writeBytes(s);
      } else {
        entries.write(0xF0);
        le(s.length, 4);
        entries.writeBytes(s);
      }
      writeBacklen(entries.size() - start);
      count++;
      return this;
    }

    private void le(long v, int n) {
      for (int i = 0; i < n; i++) {
        entries.write((int) (v >>> (8 * i)) & 0xff);
      }
    }

    private void writeBacklen(int l) {
      if (l <= 127) {
        entries.write(l);
      } else if (l < 16383) {
        entries.write(l >> 7);
        entries.write((l & 127) | 128);
      } else if (l < 2097151) {
        entries.write(l >> 14);
        entries.write(((l >> 7) & 127) | 128);
        entries.write((l & 127) | 128);
      } else if (l < 268435455) {
        entries.write(l >> 21);
        entries.write(((l >> 14) & 127) | 128);
        entries.write(((l >> 7) & 127) | 128);
        entries.write((l & 127) | 128);
      } else {
        entries.write(l >>> 28);
        entries.write(((l >> 21) & 127) | 128);
        entries.write(((l >> 14) & 127) | 128);
        entries.write(((l >> 7) & 127) | 128);
        entries.write((l & 127) | 128);
      }
    }

    byte[] bytes() {
      byte[] body = entries.toByteArray();
      byte[] lp = new byte[6 + body.length + 1];
      int total = lp.length;
      for (int i = 0; i < 4; i++) {
        lp[i] = (byte) (total >>> (8 * i));
      }
      int c = Math.min(count, 65535);
      lp[4] = (byte) c;
      lp[5] = (byte) (c >>> 8);
      System.arraycopy(body, 0, lp, 6, body.length);
      lp[lp.length - 1] = (byte) 0xFF;
      return lp;
    }
  }

  static int backlenSize(int l) {
    return l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
  }

  /** The value when {@code s} is a 64-bit integer in canonical form (Redis's string2ll), else null. */
  static Long canonicalLong(byte[] s) {
    if (s.length == 0 || s.length > 20) {
      return null;
    }
    if (s.length == 1 && s[0] == '0') {
      return 0L;
    }
    int i = 0;
    boolean negative = s[0] == '-';
    if (negative) {
      i = 1;
      if (s.length == 1) {
        return null;
      }
    }
    if (s[i] < '1' || s[i] > '9') {
      return null;
    }
    for (int k = i; k < s.length; k++) {
      if (s[k] < '0' || s[k] > '9') {
        return null;
      }
    }
    try {
      return Long.parseLong(new String(s, StandardCharsets.US_ASCII));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static long le(byte[] b, int off, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = (v << 8) | (b[off + i] & 0xff);
    }
    return v;
  }

  static byte[] ascii(long v) {
    return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] copy(byte[] b, int off, int len) {
    if (off + len > b.length) {
      throw new IndexOutOfBoundsException();
    }
    return java.util.Arrays.copyOfRange(b, off, off + len);
  }
}
