package io.cassette.resp.rdb;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis's ziplist, read only (RDB types 10, 12, 13 and the nodes of type 14, written by Redis
 * before 7.0; Redis 7.0 still loads them, and so do we):
 *
 * <pre>
 *  zlbytes(4, LE) | zltail(4, LE) | zllen(2, LE) | entry* | 0xFF
 *  entry := prevlen (1 byte, or 0xFE + 4 bytes LE) | encoding | data
 *   00pppppp / 01pppppp qqqqqqqq / 10000000 len(4, BE)   string of that length
 *   11000000 int16 | 11010000 int32 | 11100000 int64 | 11110000 int24 | 11111110 int8 (LE)
 *   1111xxxx                                             immediate 0..12 (xxxx - 1)
 * </pre>
 */
final class Ziplist {
  private Ziplist() {}

  static List<byte[]> read(byte[] zl) throws RdbFormatException {
    if (zl.length < 11 || Listpack.le(zl, 0, 4) != zl.length) {
      throw new RdbFormatException("ziplist header does not match its " + zl.length + " bytes");
    }
    List<byte[]> out = new ArrayList<>();
    int p = 10;
    try {
      while ((zl[p] & 0xff) != 0xFF) {
        p += (zl[p] & 0xff) < 254 ? 1 : 5;
        int b = zl[p] & 0xff;
        switch (b >> 6) {
          case 0 -> {
            int len = b & 0x3f;
            out.add(Listpack.copy(zl, p + 1, len));
            p += 1 + len;
          }
          case 1 -> {
            int len = ((b & 0x3f) << 8) | (zl[p + 1] & 0xff);
            out.add(Listpack.copy(zl, p + 2, len));
            p += 2 + len;
          }
          case 2 -> {
            int len = ((zl[p + 1] & 0xff) << 24) | ((zl[p + 2] & 0xff) << 16) | ((zl[p + 3] & 0xff) << 8)
                | (zl[p + 4] & 0xff);
            out.add(Listpack.copy(zl, p + 5, len));
            p += 5 + len;
          }
          default -> {
            int n;
            long v;
            if (b == 0xC0) {
              n = 2;
            } else if (b == 0xD0) {
              n = 4;
            } else if (b == 0xE0) {
              n = 8;
            } else if (b == 0xF0) {
              n = 3;
            } else if (b == 0xFE) {
              n = 1;
            } else if (b >= 0xF1 && b <= 0xFD) {
              n = 0;
            } else {
              throw new RdbFormatException("ziplist: bad encoding 0x" + Integer.toHexString(b) + " at " + p);
            }
            if (n == 0) {
              v = (b & 0x0f) - 1;
            } else {
              int shift = 64 - 8 * n;
              v = (Listpack.le(zl, p + 1, n) << shift) >> shift;
            }
            out.add(Listpack.ascii(v));
            p += 1 + n;
          }
        }
      }
    } catch (IndexOutOfBoundsException e) {
      throw new RdbFormatException("ziplist: entry runs past the end of the blob");
    }
    return out;
  }
}
