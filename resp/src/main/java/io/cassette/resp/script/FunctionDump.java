package io.cassette.resp.script;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * FUNCTION DUMP's payload in Redis 7.0's own format, so a dump moves between Redis and
 * Cassette:
 * <pre>
 *   ( 0xF5 (RDB_OPCODE_FUNCTION2)  rdb-length(code)  code ) *
 *   rdb-version (2 bytes, little-endian: 10)
 *   crc64 (8 bytes, little-endian; Jones polynomial, over everything before it)
 * </pre>
 * An rdb-length is 6 bits (00xxxxxx), 14 bits (01xxxxxx xxxxxxxx), 0x80 + 4 bytes or
 * 0x81 + 8 bytes big-endian.
 */
final class FunctionDump {
  static final int OPCODE_FUNCTION2 = 0xF5;
  static final int RDB_VERSION = 10;

  private FunctionDump() {}

  static byte[] write(List<byte[]> codes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] code : codes) {
      out.write(OPCODE_FUNCTION2);
      length(out, code.length);
      out.write(code, 0, code.length);
    }
    out.write(RDB_VERSION & 0xff);
    out.write((RDB_VERSION >> 8) & 0xff);
    byte[] body = out.toByteArray();
    long crc = Crc64.of(body, 0, body.length);
    for (int i = 0; i < 8; i++) {
      out.write((int) (crc >>> (8 * i)) & 0xff);
    }
    return out.toByteArray();
  }

  /** The libraries' codes; null when the version or checksum is wrong or the payload torn. */
  static List<byte[]> read(byte[] payload) {
    if (payload.length < 10) {
      return null;
    }
    int footer = payload.length - 10;
    int version = (payload[footer] & 0xff) | (payload[footer + 1] & 0xff) << 8;
    if (version > RDB_VERSION) {
      return null;
    }
    long crc = 0;
    for (int i = 7; i >= 0; i--) {
      crc = (crc << 8) | (payload[footer + 2 + i] & 0xff);
    }
    if (crc != Crc64.of(payload, 0, footer + 2)) {
      return null;
    }
    List<byte[]> codes = new ArrayList<>();
    int[] pos = {0};
    while (pos[0] < footer) {
      if ((payload[pos[0]++] & 0xff) != OPCODE_FUNCTION2) {
        return null;
      }
      long n = length(payload, pos);
      if (n < 0 || pos[0] + n > footer) {
        return null;
      }
      codes.add(java.util.Arrays.copyOfRange(payload, pos[0], pos[0] + (int) n));
      pos[0] += (int) n;
    }
    return codes;
  }

  private static void length(ByteArrayOutputStream out, long n) {
    if (n < 64) {
      out.write((int) n);
    } else if (n < 16384) {
      out.write(0x40 | (int) (n >> 8));
      out.write((int) n & 0xff);
    } else if (n <= 0xffffffffL) {
      out.write(0x80);
      for (int i = 3; i >= 0; i--) {
        out.write((int) (n >>> (8 * i)) & 0xff);
      }
    } else {
      out.write(0x81);
      for (int i = 7; i >= 0; i--) {
        out.write((int) (n >>> (8 * i)) & 0xff);
      }
    }
  }

  private static long length(byte[] b, int[] pos) {
    if (pos[0] >= b.length) {
      return -1;
    }
    int first = b[pos[0]++] & 0xff;
    switch (first >> 6) {
      case 0:
        return first & 0x3f;
      case 1:
        if (pos[0] >= b.length) {
          return -1;
        }
        return ((first & 0x3f) << 8) | (b[pos[0]++] & 0xff);
      default:
        int bytes = first == 0x80 ? 4 : first == 0x81 ? 8 : -1;
        if (bytes < 0 || pos[0] + bytes > b.length) {
          return -1;
        }
        long v = 0;
        for (int i = 0; i < bytes; i++) {
          v = (v << 8) | (b[pos[0]++] & 0xff);
        }
        return v;
    }
  }

  /** Redis's CRC-64 (Jones polynomial 0xad93d23594c935a9, reflected, init 0). */
  static final class Crc64 {
    private static final long[] TABLE = new long[256];

    static {
      long poly = 0x95ac9329ac4bc9b5L; // 0xad93d23594c935a9 reflected
      for (int i = 0; i < 256; i++) {
        long crc = i;
        for (int j = 0; j < 8; j++) {
          crc = (crc & 1) != 0 ? (crc >>> 1) ^ poly : crc >>> 1;
        }
        TABLE[i] = crc;
      }
    }

    private Crc64() {}

    static long of(byte[] b, int off, int len) {
      long crc = 0;
      for (int i = off; i < off + len; i++) {
        crc = TABLE[(int) ((crc ^ b[i]) & 0xff)] ^ (crc >>> 8);
      }
      return crc;
    }
  }
}
