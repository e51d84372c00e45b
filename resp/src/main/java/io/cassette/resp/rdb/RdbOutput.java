package io.cassette.resp.rdb;

import java.io.IOException;
import java.io.OutputStream;

/** The primitive writes of the RDB format over a stream, keeping the CRC-64 of what was written. */
public final class RdbOutput {
  private final OutputStream out;
  private long crc;
  private final byte[] one = new byte[1];

  public RdbOutput(OutputStream out) {
    this.out = out;
  }

  public long crc() {
    return crc;
  }

  public void writeBytes(byte[] b) throws IOException {
    out.write(b);
    crc = Crc64.update(crc, b, 0, b.length);
  }

  public void writeByte(int b) throws IOException {
    one[0] = (byte) b;
    writeBytes(one);
  }

  public void writeLe(long v, int n) throws IOException {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    writeBytes(b);
  }

  public void writeLength(long n) throws IOException {
    if (n < 64) {
      writeByte((int) n);
    } else if (n < 16384) {
      writeBytes(new byte[] {(byte) (0x40 | (n >> 8)), (byte) n});
    } else if (n <= 0xffffffffL) {
      writeBytes(new byte[] {(byte) 0x80, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    } else {
      byte[] b = new byte[9];
      b[0] = (byte) 0x81;
      for (int i = 0; i < 8; i++) {
        b[1 + i] = (byte) (n >>> (56 - 8 * i));
      }
      writeBytes(b);
    }
  }

  /**
   * A string as Redis's rdbSaveRawString writes it (with rdbcompression on, its default): a short
   * canonical integer in the integer encoding; over 20 bytes LZF-compressed when that saves at
   * least 4 bytes; otherwise verbatim.
   */
  public void writeString(byte[] s) throws IOException {
    if (s.length <= 11) {
      Long v = Listpack.canonicalLong(s);
      if (v != null) {
        long x = v;
        if (x >= Byte.MIN_VALUE && x <= Byte.MAX_VALUE) {
          writeBytes(new byte[] {(byte) 0xC0, (byte) x});
          return;
        } else if (x >= Short.MIN_VALUE && x <= Short.MAX_VALUE) {
          writeByte(0xC1);
          writeLe(x, 2);
          return;
        } else if (x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE) {
          writeByte(0xC2);
          writeLe(x, 4);
          return;
        }
      }
    }
    if (s.length > 20) {
      byte[] packed = Lzf.compress(s, s.length - 4);
      if (packed != null) {
        writeByte(0xC3); // RDB_ENCVAL << 6 | RDB_ENC_LZF
        writeLength(packed.length);
        writeLength(s.length);
        writeBytes(packed);
        return;
      }
    }
    writeLength(s.length);
    writeBytes(s);
  }

  public void flush() throws IOException {
    out.flush();
  }
}
