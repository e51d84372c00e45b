package io.cassette.storage.io;

/** Stores chunks as they are (only checksummed). */
final class NoCompressor implements Compressor {
  @Override
  public int id() {
    return 0;
  }

  @Override
  public String name() {
    return "NoopCompressor";
  }

  @Override
  public int maxCompressedLength(int length) {
    return length;
  }

  @Override
  public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
    System.arraycopy(src, srcOff, dst, dstOff, length);
    return length;
  }

  @Override
  public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength) {
    if (length != uncompressedLength) {
      throw new IllegalArgumentException("stored length " + length + " != " + uncompressedLength);
    }
    System.arraycopy(src, srcOff, dst, dstOff, length);
  }
}
