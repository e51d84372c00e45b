package io.cassette.storage.sstable;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.DataWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/** A {@link DataWriter} over a stream that checksums everything written. Not thread-safe. */
final class StreamDataWriter implements DataWriter {
  private final OutputStream out;
  private final CRC32C crc = new CRC32C();

  StreamDataWriter(OutputStream out) {
    this.out = out;
  }

  @Override
  public void writeByte(int b) {
    try {
      out.write(b);
    } catch (IOException e) {
      throw new StorageException("write failed: " + e, e);
    }
    crc.update(b);
  }

  @Override
  public void writeBytes(byte[] bytes, int offset, int length) {
    try {
      out.write(bytes, offset, length);
    } catch (IOException e) {
      throw new StorageException("write failed: " + e, e);
    }
    crc.update(bytes, offset, length);
  }

  int checksum() {
    return (int) crc.getValue();
  }
}
