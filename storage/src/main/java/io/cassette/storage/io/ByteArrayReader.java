package io.cassette.storage.io;

import io.cassette.storage.StorageException;

/** A {@link DataReader} over a region of a byte array. Not thread-safe. */
public final class ByteArrayReader implements DataReader {
  private final byte[] bytes;
  private int position;
  private final int limit;

  public ByteArrayReader(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.position = offset;
    this.limit = offset + length;
  }

  public ByteArrayReader(byte[] bytes) {
    this(bytes, 0, bytes.length);
  }

  private void need(long n) {
    if (n > limit - position) {
      throw new StorageException("unexpected end of record at " + position + " (need " + n
          + " bytes, " + (limit - position) + " left)");
    }
  }

  @Override
  public int readByte() {
    need(1);
    return bytes[position++] & 0xFF;
  }

  @Override
  public void readFully(byte[] into, int offset, int length) {
    need(length);
    System.arraycopy(bytes, position, into, offset, length);
    position += length;
  }

  @Override
  public void skip(long byteCount) {
    need(byteCount);
    position += (int) byteCount;
  }

  /** Compares in place: no copy of the value. */
  @Override
  public int compareLengthPrefixed(byte[] other, int maxLength) {
    int length = readLength(maxLength);
    need(length);
    int c = java.util.Arrays.compareUnsigned(bytes, position, position + length, other, 0, other.length);
    position += length;
    return c;
  }

  /** Decoded in place, a recent name shared (see {@link RecentStrings}): no byte[] per string. */
  @Override
  public String readString() {
    int length = readLength(MAX_STRING_LENGTH);
    need(length);
    String s = RecentStrings.decode(bytes, position, length);
    position += length;
    return s;
  }

  public int remaining() {
    return limit - position;
  }
}
