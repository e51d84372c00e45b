package io.cassette.storage.io;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * LZ4 block format: compressed by lz4-java's pure-Java implementation (never the JNI one),
 * decoded by {@link Lz4BlockDecoder}.
 */
final class Lz4Compressor implements Compressor {
  private static final LZ4Factory FACTORY = LZ4Factory.fastestJavaInstance();
  private final LZ4Compressor compressor = FACTORY.fastCompressor();

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
    return compressor.maxCompressedLength(length);
  }

  @Override
  public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
    return compressor.compress(src, srcOff, length, dst, dstOff);
  }

  /** Decoded by {@link Lz4BlockDecoder}: bounds-checked, and faster than lz4-java's safe decoder. */
  @Override
  public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength) {
    Lz4BlockDecoder.decode(src, srcOff, length, dst, dstOff, uncompressedLength);
  }
}
