package io.cassette.cql.transport.compression;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Raw LZ4 blocks (no framing), from lz4-java's pure-Java implementation: native code is never
 * loaded, so this works the same on every board.
 */
public final class Lz4Block {
  private static final LZ4Factory FACTORY = LZ4Factory.fastestJavaInstance();
  private static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();

  private Lz4Block() {}

  public static int maxCompressedLength(int length) {
    return COMPRESSOR.maxCompressedLength(length);
  }

  /** Compresses src[srcOff, srcOff+length) into dest at destOff; returns the compressed length. */
  public static int compress(byte[] src, int srcOff, int length, byte[] dest, int destOff) {
    return COMPRESSOR.compress(src, srcOff, length, dest, destOff, dest.length - destOff);
  }

  /**
   * Decompresses exactly {@code uncompressedLength} bytes into a new array.
   *
   * @throws CompressionException when the block is corrupt or of another length
   */
  public static byte[] decompress(byte[] src, int srcOff, int length, int uncompressedLength) {
    byte[] out = new byte[uncompressedLength];
    int n;
    try {
      n = DECOMPRESSOR.decompress(src, srcOff, length, out, 0, uncompressedLength);
    } catch (LZ4Exception e) {
      throw new CompressionException("corrupt LZ4 block of " + length + " bytes: " + e.getMessage());
    }
    if (n != uncompressedLength) {
      throw new CompressionException("LZ4 block decompressed to " + n + " bytes (expected: "
          + uncompressedLength + ")");
    }
    return out;
  }
}
