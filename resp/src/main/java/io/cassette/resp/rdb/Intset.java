package io.cassette.resp.rdb;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis's intset (RDB type 11): {@code encoding(4, LE: 2, 4 or 8) | count(4, LE) | values},
 * each value little-endian in {@code encoding} bytes, ascending.
 */
final class Intset {
  /** Redis's set-max-intset-entries default: a larger set of integers is written as a plain set. */
  static final int MAX_ENTRIES = 512;

  private Intset() {}

  static List<byte[]> read(byte[] is) throws RdbFormatException {
    if (is.length < 8) {
      throw new RdbFormatException("intset of " + is.length + " bytes is too short");
    }
    int width = (int) Listpack.le(is, 0, 4);
    long count = Listpack.le(is, 4, 4);
    if ((width != 2 && width != 4 && width != 8) || 8 + count * width != is.length) {
      throw new RdbFormatException("intset: encoding " + width + " and " + count + " values do not fill "
          + is.length + " bytes");
    }
    List<byte[]> out = new ArrayList<>((int) count);
    int shift = 64 - 8 * width;
    for (int i = 0; i < count; i++) {
      out.add(Listpack.ascii((Listpack.le(is, 8 + i * width, width) << shift) >> shift));
    }
    return out;
  }

  /** The intset of {@code values} (sorted here), or null when one is not a canonical integer. */
  static byte[] write(List<byte[]> members) {
    if (members.isEmpty() || members.size() > MAX_ENTRIES) {
      return null;
    }
    long[] v = new long[members.size()];
    int width = 2;
    for (int i = 0; i < v.length; i++) {
      Long x = Listpack.canonicalLong(members.get(i));
      if (x == null) {
        return null;
      }
      v[i] = x;
      if (x < Short.MIN_VALUE || x > Short.MAX_VALUE) {
        width = Math.max(width, x < Integer.MIN_VALUE || x > Integer.MAX_VALUE ? 8 : 4);
      }
    }
    java.util.Arrays.sort(v);
    byte[] out = new byte[8 + v.length * width];
    put(out, 0, width, 4);
    put(out, 4, v.length, 4);
    for (int i = 0; i < v.length; i++) {
      put(out, 8 + i * width, v[i], width);
    }
    return out;
  }

  private static void put(byte[] b, int off, long v, int n) {
    for (int i = 0; i < n; i++) {
      b[off + i] = (byte) (v >>> (8 * i));
    }
  }
}
