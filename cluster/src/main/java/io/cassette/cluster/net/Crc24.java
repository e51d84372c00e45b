package io.cassette.cluster.net;

/**
 * CRC-24 over a few bytes, for frame headers: the same polynomial (0x1974F0B) and initial value
 * (0x875060) as Cassandra's internode and native-protocol-v5 frame headers. Three check bytes
 * on a three-byte header catch any burst error in it; the payload has its own CRC32.
 */
final class Crc24 {
  static final int INIT = 0x875060;
  static final int POLY = 0x1974F0B;

  private Crc24() {}

  /** CRC-24 of the low {@code byteCount} bytes of {@code value}, least significant first. */
  static int of(long value, int byteCount) {
    int crc = INIT;
    for (int i = 0; i < byteCount; i++) {
      crc ^= (int) ((value >>> (8 * i)) & 0xff) << 16;
      for (int bit = 0; bit < 8; bit++) {
        crc <<= 1;
        if ((crc & 0x1000000) != 0) crc ^= POLY;
      }
    }
    return crc & 0xffffff;
  }
}
