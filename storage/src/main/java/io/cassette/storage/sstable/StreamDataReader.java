package io.cassette.storage.sstable;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.DataReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;

/** A {@link DataReader} over a stream that checksums everything read. Not thread-safe. */
final class StreamDataReader implements DataReader {
  private final InputStream in;
  private final String name;
  private final CRC32C crc = new CRC32C();
  private long offset;

  StreamDataReader(InputStream in, String name) {
    this.in = in;
    this.name = name;
  }

  @Override
  public int readByte() {
    int b;
    try {
      b = in.read();
    } catch (IOException e) {
      throw new StorageException("cannot read " + name + " at offset " + offset + ": " + e, e);
    }
    if (b < 0) {
      throw new StorageException("truncated file " + name + " at offset " + offset);
    }
    crc.update(b);
    offset++;
    return b;
  }

  @Override
  public void readFully(byte[] into, int off, int length) {
    try {
      int done = 0;
      while (done < length) {
        int n = in.read(into, off + done, length - done);
        if (n < 0) {
          throw new EOFException();
        }
        done += n;
      }
    } catch (EOFException e) {
      throw new StorageException("truncated file " + name + " at offset " + offset);
    } catch (IOException e) {
      throw new StorageException("cannot read " + name + " at offset " + offset + ": " + e, e);
    }
    crc.update(into, off, length);
    offset += length;
  }

  @Override
  public void skip(long byteCount) {
    while (byteCount-- > 0) {
      readByte();
    }
  }

  int checksum() {
    return (int) crc.getValue();
  }

  long offset() {
    return offset;
  }
}
