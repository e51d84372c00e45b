package org.xerial.snappy;

import java.nio.ByteBuffer;

/**
 * Test-only stand-in for snappy-java (which loads a native library, and is not available
 * offline): the Java driver's SnappyCompressor calls exactly these static methods. Backed by
 * iq80's pure-Java Snappy, so the driver's side of snappy is independent of our codec.
 * Semantics follow snappy-java: ByteBuffer variants work from position to limit and set the
 * output's limit to the end of what was written.
 */
public final class Snappy {
  private Snappy() {}

  public static int maxCompressedLength(int length) {
    return org.iq80.snappy.Snappy.maxCompressedLength(length);
  }

  public static int compress(byte[] in, int inOff, int length, byte[] out, int outOff) {
    return org.iq80.snappy.Snappy.compress(in, inOff, length, out, outOff);
  }

  public static int uncompress(byte[] in, int inOff, int length, byte[] out, int outOff) {
    return org.iq80.snappy.Snappy.uncompress(in, inOff, length, out, outOff);
  }

  public static int uncompressedLength(byte[] in, int inOff, int length) {
    return org.iq80.snappy.Snappy.getUncompressedLength(in, inOff);
  }

  public static boolean isValidCompressedBuffer(byte[] in, int inOff, int length) {
    try {
      byte[] out = new byte[org.iq80.snappy.Snappy.getUncompressedLength(in, inOff)];
      org.iq80.snappy.Snappy.uncompress(in, inOff, length, out, 0);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  public static int compress(ByteBuffer uncompressed, ByteBuffer compressed) {
    byte[] in = new byte[uncompressed.remaining()];
    uncompressed.duplicate().get(in);
    byte[] out = new byte[maxCompressedLength(in.length)];
    int n = compress(in, 0, in.length, out, 0);
    int pos = compressed.position();
    compressed.duplicate().put(out, 0, n);
    compressed.limit(pos + n);
    return n;
  }

  public static int uncompress(ByteBuffer compressed, ByteBuffer uncompressed) {
    byte[] in = new byte[compressed.remaining()];
    compressed.duplicate().get(in);
    byte[] out = org.iq80.snappy.Snappy.uncompress(in, 0, in.length);
    int pos = uncompressed.position();
    uncompressed.duplicate().put(out);
    uncompressed.limit(pos + out.length);
    return out.length;
  }

  public static int uncompressedLength(ByteBuffer compressed) {
    byte[] in = new byte[Math.min(compressed.remaining(), 5)];
    compressed.duplicate().get(in);
    return org.iq80.snappy.Snappy.getUncompressedLength(in, 0);
  }

  public static boolean isValidCompressedBuffer(ByteBuffer compressed) {
    byte[] in = new byte[compressed.remaining()];
    compressed.duplicate().get(in);
    return isValidCompressedBuffer(in, 0, in.length);
  }
}
