package io.cassette.resp.rdb;

/**
 * LZF (liblzf 3.6's format), as Redis compresses strings in RDB files and DUMP payloads. The
 * compressor follows Redis's lzf_c.c step for step with Redis's settings (HLOG 16, VERY_FAST,
 * a fresh hash table), so a DUMP payload is byte-identical to the one Redis writes.
 */
final class Lzf {
  private static final int HLOG = 16;
  private static final int HSIZE = 1 << HLOG;
  private static final int MAX_LIT = 1 << 5;
  private static final int MAX_OFF = 1 << 13;
  private static final int MAX_REF = (1 << 8) + (1 << 3);

  private Lzf() {}

  /**
   * {@code in} compressed into at most {@code maxLength} bytes, or null when it does not fit (as
   * lzf_compress returns 0). Position 0 is never a back-reference target (lzf_c.c's
   * {@code ref > in_data}), so 0 in the hash table doubles as "empty".
   */
  static byte[] compress(byte[] in, int maxLength) {
    int inEnd = in.length;
    if (inEnd == 0 || maxLength <= 0) {
      return null;
    }
    byte[] out = new byte[maxLength];
    int outEnd = maxLength;
    int[] htab = new int[HSIZE];
    int ip = 0;
    int op = 1; // the first literal run's length byte
    int lit = 0;
    int hval = inEnd > 2 ? first(in, ip) : 0;
    while (ip < inEnd - 2) {
      hval = next(hval, in, ip);
      int slot = index(hval);
      int ref = htab[slot];
      htab[slot] = ip;
      int off = ip - ref - 1;
      if (ref > 0 && off < MAX_OFF && in[ref + 2] == in[ip + 2] && in[ref] == in[ip] && in[ref + 1] == in[ip + 1]) {
        int len = 2;
        int maxLen = Math.min(inEnd - ip - len, MAX_REF);
        if (op + 3 + 1 >= outEnd && op - (lit == 0 ? 1 : 0) + 3 + 1 >= outEnd) {
          return null;
        }
        out[op - lit - 1] = (byte) (lit - 1); // end the literal run
        op -= lit == 0 ? 1 : 0; // or take back its length byte when it is empty
        matching:
        {
          if (maxLen > 16) { // lzf_c.c's unrolled loop: 16 steps without the bound check
            for (int k = 0; k < 16; k++) {
              len++;
              if (in[ref + len] != in[ip + len]) {
                break matching;
              }
            }
          }
          do {
            len++;
          } while (len < maxLen && in[ref + len] == in[ip + len]);
        }
        len -= 2; // now the match length - 1
        ip++;
        if (len < 7) {
          out[op++] = (byte) ((off >>> 8) + (len << 5));
        } else {
          out[op++] = (byte) ((off >>> 8) + (7 << 5));
          out[op++] = (byte) (len - 7);
        }
        out[op++] = (byte) off;
        lit = 0;
        op++; // the next literal run's length byte
        ip += len + 1;
        if (ip >= inEnd - 2) {
          break;
        }
        ip -= 2; // VERY_FAST: hash the two positions before the match's end
        hval = first(in, ip);
        hval = next(hval, in, ip);
        htab[index(hval)] = ip;
        ip++;
        hval = next(hval, in, ip);
        htab[index(hval)] = ip;
        ip++;
      } else {
        if (op >= outEnd) {
          return null;
        }
        lit++;
        out[op++] = in[ip++];
        if (lit == MAX_LIT) {
          out[op - lit - 1] = (byte) (lit - 1);
          lit = 0;
          op++;
        }
      }
    }
    if (op + 3 > outEnd) { // at most 3 bytes can be missing here
      return null;
    }
    while (ip < inEnd) {
      lit++;
      out[op++] = in[ip++];
      if (lit == MAX_LIT) {
        out[op - lit - 1] = (byte) (lit - 1);
        lit = 0;
        op++;
      }
    }
    out[op - lit - 1] = (byte) (lit - 1);
    op -= lit == 0 ? 1 : 0;
    return java.util.Arrays.copyOf(out, op);
  }

  private static int first(byte[] in, int p) {
    return ((in[p] & 0xff) << 8) | (in[p + 1] & 0xff);
  }

  private static int next(int v, byte[] in, int p) {
    return (v << 8) | (in[p + 2] & 0xff);
  }

  /** lzf_c.c's IDX for VERY_FAST, in unsigned 32-bit arithmetic. */
  private static int index(int h) {
    return ((h >>> (3 * 8 - HLOG)) - h * 5) & (HSIZE - 1);
  }

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
