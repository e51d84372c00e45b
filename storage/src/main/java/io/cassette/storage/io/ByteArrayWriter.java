package io.cassette.storage.io;

import java.util.Arrays;

/** A growable in-heap {@link DataWriter}; {@link #reset()} reuses its buffer. Not thread-safe. */
public final class ByteArrayWriter implements DataWriter {
  private byte[] buffer;
  private int length;

  public ByteArrayWriter(int initialCapacity) {
    buffer = new byte[Math.max(16, initialCapacity)];
  }

  private void ensure(int extra) {
    if (length + extra > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + extra));
    }
  }

  @Override
  public void writeByte(int b) {
    ensure(1);
    buffer[length++] = (byte) b;
  }

  @Override
  public void writeBytes(byte[] bytes, int offset, int count) {
    ensure(count);
    System.arraycopy(bytes, offset, buffer, length, count);
    length += count;
  }

  @Override
  public void writeInt(int v) {
    ensure(4);
    buffer[length] = (byte) (v >>> 24);
    buffer[length + 1] = (byte) (v >>> 16);
    buffer[length + 2] = (byte) (v >>> 8);
    buffer[length + 3] = (byte) v;
    length += 4;
  }

  /** Overwrites 4 bytes at {@code position} (for length prefixes patched after the fact). */
  public void putInt(int position, int v) {
    buffer[position] = (byte) (v >>> 24);
    buffer[position + 1] = (byte) (v >>> 16);
    buffer[position + 2] = (byte) (v >>> 8);
    buffer[position + 3] = (byte) v;
  }

  public int length() {
    return length;
  }

  /** The backing array; valid up to {@link #length()} until the next write. */
  public byte[] buffer() {
    return buffer;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buffer, length);
  }

  public void reset() {
    length = 0;
  }
}
