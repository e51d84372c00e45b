package io.cassette.storage.io;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/** LZ4 block format through lz4-java's pure-Java implementation (never the JNI one). */
final class Lz4Compressor implements Compressor {
  private static final LZ4Factory FACTORY = LZ4Factory.fastestJavaInstance();
  private final LZ4Compressor compressor = FACTORY.fastCompressor();
  private final LZ4SafeDecompressor decompressor = FACTORY.safeDecompressor();

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

  @Override
  public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength) {
    int n;
    try {
      n = decompressor.decompress(src, srcOff, length, dst, dstOff, uncompressedLength);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("malformed LZ4 block: " + e.getMessage(), e);
    }
    if (n != uncompressedLength) {
      throw new IllegalArgumentException("LZ4 block decompressed to " + n + " bytes, expected " + uncompressedLength);
    }
  }
}
