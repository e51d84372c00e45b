package io.cassette.storage.io;

import java.nio.charset.StandardCharsets;

/**
 * A source of values written by a {@link DataWriter}. Reading past the end throws
 * {@link io.cassette.storage.StorageException} naming where. Not thread-safe.
 */
public interface DataReader {
  int readByte();

  void readFully(byte[] into, int offset, int length);

  void skip(long byteCount);

  default int readInt() {
    return (readByte() << 24) | (readByte() << 16) | (readByte() << 8) | readByte();
  }

  default long readLong() {
    return ((long) readInt() << 32) | (readInt() & 0xFFFFFFFFL);
  }

  default long readVarLong() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new io.cassette.storage.StorageException("malformed varint: longer than 10 bytes");
  }

  default int readVarInt() {
    long v = readVarLong();
    if (v > 0xFFFFFFFFL) {
      throw new io.cassette.storage.StorageException("malformed varint: " + v + " (expected: <= 2^32-1)");
    }
    return (int) v;
  }

  default byte[] readBytes(int length) {
    byte[] b = new byte[length];
    readFully(b, 0, length);
    return b;
  }

  default byte[] readLengthPrefixed(int maxLength) {
    int length = readVarInt();
    if (length < 0 || length > maxLength) {
      throw new io.cassette.storage.StorageException(
          "malformed length: " + (length & 0xFFFFFFFFL) + " (expected: <= " + maxLength + ")");
    }
    return readBytes(length);
  }

  default String readString() {
    return new String(readLengthPrefixed(1 << 20), StandardCharsets.UTF_8);
  }
}
