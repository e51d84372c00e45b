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

  /**
   * Decompresses the same block in steps, for a reader that needs only a prefix of it: resumes
   * from {@code state} (0 to start, else what the previous call returned) and decodes at least
   * up to output offset {@code until}; returns the new state, whose low 32 bits are the output
   * bytes decoded so far (the block is done when they reach {@code uncompressedLength}). The
   * default decodes the whole block at once; LZ4 decodes only as far as asked.
   */
  default long decompressPart(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength,
                              long state, int until) {
    if ((int) state == uncompressedLength) {
      return state;
    }
    decompress(src, srcOff, length, dst, dstOff, uncompressedLength);
    return (long) length << 32 | uncompressedLength;
  }
}
