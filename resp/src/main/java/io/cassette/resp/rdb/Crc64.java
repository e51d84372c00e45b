package io.cassette.resp.rdb;

/**
 * Redis's CRC-64 (Jones polynomial 0xad93d23594c935a9, reflected, initial value 0, no final
 * xor): the footer of RDB files and DUMP payloads. {@code crc64("123456789") == 0xe9c6d914c4b8d9ca}.
 */
public final class Crc64 {
  private static final long[] TABLE = new long[256];

  static {
    long poly = 0x95ac9329ac4bc9b5L; // 0xad93d23594c935a9 bit-reflected
    for (int i = 0; i < 256; i++) {
      long crc = i;
      for (int k = 0; k < 8; k++) {
        crc = (crc & 1) != 0 ? (crc >>> 1) ^ poly : crc >>> 1;
      }
      TABLE[i] = crc;
    }
  }

  private Crc64() {}

  /** Continues {@code crc} over {@code len} bytes of {@code b} from {@code off}. */
  public static long update(long crc, byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      crc = TABLE[(int) ((crc ^ b[i]) & 0xff)] ^ (crc >>> 8);
    }
    return crc;
  }

  public static long of(byte[] b, int off, int len) {
    return update(0, b, off, len);
  }
}
