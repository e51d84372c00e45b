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

  /** The next {@code length} bytes, copied; an empty value is one shared empty array, never written. */
  default byte[] readBytes(int length) {
    if (length == 0) {
      return io.cassette.storage.Bytes.EMPTY; // clusterings of static rows, empty values: no allocation
    }
    byte[] b = new byte[length];
    readFully(b, 0, length);
    return b;
  }

  default byte[] readLengthPrefixed(int maxLength) {
    return readBytes(readLength(maxLength));
  }

  /** The length prefix of a value written by {@code writeLengthPrefixed}, checked against {@code maxLength}. */
  default int readLength(int maxLength) {
    int length = readVarInt();
    if (length < 0 || length > maxLength) {
      throw new io.cassette.storage.StorageException(
          "malformed length: " + (length & 0xFFFFFFFFL) + " (expected: <= " + maxLength + ")");
    }
    return length;
  }

  /** The most bytes {@link #readString} accepts. */
  int MAX_STRING_LENGTH = 1 << 20;

  /**
   * Reads a value written by {@code writeLengthPrefixed} and compares it, unsigned and
   * lexicographically as {@link io.cassette.storage.Bytes#compare}, with {@code other}. For
   * callers that only compare (the key of an index entry or of a partition header): a reader
   * over a buffer compares in place instead of copying the value out.
   */
  default int compareLengthPrefixed(byte[] other, int maxLength) {
    return java.util.Arrays.compareUnsigned(readLengthPrefixed(maxLength), other);
  }

  default String readString() {
    return new String(readLengthPrefixed(MAX_STRING_LENGTH), StandardCharsets.UTF_8);
  }
}
