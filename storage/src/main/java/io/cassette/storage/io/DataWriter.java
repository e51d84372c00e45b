package io.cassette.storage.io;

import java.nio.charset.StandardCharsets;

/**
 * A sink of primitive values in Cassette's on-disk encoding: big-endian fixed-width
 * integers and unsigned LEB128 varints. Not thread-safe.
 */
public interface DataWriter {
  void writeByte(int b);

  void writeBytes(byte[] bytes, int offset, int length);

  default void writeBytes(byte[] bytes) {
    writeBytes(bytes, 0, bytes.length);
  }

  default void writeInt(int v) {
    writeByte(v >>> 24);
    writeByte(v >>> 16);
    writeByte(v >>> 8);
    writeByte(v);
  }

  default void writeLong(long v) {
    writeInt((int) (v >>> 32));
    writeInt((int) v);
  }

  /** Unsigned varint, 7 bits per byte, low bits first. */
  default void writeVarLong(long v) {
    while ((v & ~0x7FL) != 0) {
      writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    writeByte((int) v);
  }

  default void writeVarInt(int v) {
    writeVarLong(v & 0xFFFFFFFFL);
  }

  /** A varint length followed by the bytes. */
  default void writeLengthPrefixed(byte[] bytes) {
    writeVarInt(bytes.length);
    writeBytes(bytes, 0, bytes.length);
  }

  default void writeString(String s) {
    writeLengthPrefixed(s.getBytes(StandardCharsets.UTF_8));
  }
}
