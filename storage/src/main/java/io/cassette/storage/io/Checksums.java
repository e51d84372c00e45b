package io.cassette.storage.io;

import java.util.zip.CRC32C;

/** CRC32C, the checksum of every record, chunk and file footer Cassette writes. */
public final class Checksums {
  private static final ThreadLocal<CRC32C> CRC = ThreadLocal.withInitial(CRC32C::new);

  private Checksums() {}

  public static int crc32c(byte[] bytes, int offset, int length) {
    CRC32C crc = CRC.get();
    crc.reset();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
