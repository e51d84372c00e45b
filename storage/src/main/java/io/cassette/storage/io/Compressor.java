package io.cassette.storage.io;

/**
 * A block codec for SSTable chunks. Implementations are pure Java and thread-safe.
 * {@link #id()} is stored in file headers: do not change the values, they are on disk.
 */
public interface Compressor {
  /** On-disk id of the codec (0 none, 1 LZ4, 2 Snappy, 3 Deflate). */
  int id();

  /** Cassandra's class name, e.g. {@code LZ4Compressor}. */
  String name();

  int maxCompressedLength(int length);

  /** Compresses src[srcOff, srcOff+length) into dst at dstOff; returns the compressed length. */
  int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff);

  /**
   * Decompresses exactly {@code uncompressedLength} bytes into dst; throws
   * {@link IllegalArgumentException} when the input is malformed.
   */
  void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength);
}
