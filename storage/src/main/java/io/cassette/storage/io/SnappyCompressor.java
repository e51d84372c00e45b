package io.cassette.storage.io;

/** SSTable chunks in Snappy's raw block format: {@link Snappy}, Cassette's one Snappy codec. */
final class SnappyCompressor implements Compressor {
  @Override
  public int id() {
    return 2;
  }

  @Override
  public String name() {
    return "SnappyCompressor";
  }

  @Override
  public int maxCompressedLength(int length) {
    return Snappy.maxCompressedLength(length);
  }

  @Override
  public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
    return Snappy.compress(src, srcOff, length, dst, dstOff);
  }

  @Override
  public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength) {
    Snappy.uncompress(src, srcOff, length, dst, dstOff, uncompressedLength);
  }
}
