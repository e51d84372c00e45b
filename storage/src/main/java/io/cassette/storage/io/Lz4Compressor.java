package io.cassette.storage.io;

/**
 * LZ4 block format: encoded by {@link Lz4BlockEncoder} (pure Java, as lz4-java's fast
 * compressor does but reading 4 and 8 bytes at a time), decoded by {@link Lz4BlockDecoder}.
 */
final class Lz4Compressor implements Compressor {

  @Override
  public int id() {
    return 1;
  }

  @Override
  public String name() {
    return "LZ4Compressor";
  }

  @Override
  public int maxCompressedLength(int length) {
    return Lz4BlockEncoder.maxEncodedLength(length);
  }

  @Override
  public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
    return Lz4BlockEncoder.encode(src, srcOff, length, dst, dstOff);
  }

  /** Decoded by {@link Lz4BlockDecoder}: bounds-checked, and faster than lz4-java's safe decoder. */
  @Override
  public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength) {
    Lz4BlockDecoder.decode(src, srcOff, length, dst, dstOff, uncompressedLength);
  }

  @Override
  public long decompressPart(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength,
                             long state, int until) {
    return Lz4BlockDecoder.decodePart(src, srcOff, length, dst, dstOff, uncompressedLength, state, until);
  }
}
