package io.cassette.resp.rdb;

/** LZF decompression (liblzf's format, as Redis compresses strings in RDB files and DUMP payloads). */
final class Lzf {
  private Lzf() {}

  /** Expands {@code in} into exactly {@code length} bytes. */
  static byte[] decompress(byte[] in, int length) throws RdbFormatException {
    byte[] out = new byte[length];
    int ip = 0;
    int op = 0;
    try {
      while (ip < in.length) {
        int ctrl = in[ip++] & 0xff;
        if (ctrl < 32) { // a literal run of ctrl+1 bytes
          int n = ctrl + 1;
          System.arraycopy(in, ip, out, op, n);
          ip += n;
          op += n;
        } else { // a back reference
          int len = ctrl >> 5;
          if (len == 7) {
            len += in[ip++] & 0xff;
          }
          int ref = op - ((ctrl & 0x1f) << 8) - 1 - (in[ip++] & 0xff);
          len += 2;
          if (ref < 0) {
            throw new RdbFormatException("LZF: reference before the start");
          }
          for (int i = 0; i < len; i++) {
            out[op++] = out[ref++];
          }
        }
      }
    } catch (IndexOutOfBoundsException e) {
      throw new RdbFormatException("LZF: compressed data does not expand to " + length + " bytes");
    }
    if (op != length) {
      throw new RdbFormatException("LZF: expanded to " + op + " bytes, expected " + length);
    }
    return out;
  }
}
