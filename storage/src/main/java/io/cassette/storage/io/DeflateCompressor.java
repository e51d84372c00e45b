package io.cassette.storage.io;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** zlib Deflate through java.util.zip; slow but small. Per-thread codec instances. */
final class DeflateCompressor implements Compressor {
  private static final ThreadLocal<Deflater> DEFLATER = ThreadLocal.withInitial(Deflater::new);
  private static final ThreadLocal<Inflater> INFLATER = ThreadLocal.withInitial(Inflater::new);

  @Override
  public int id() {
    return 3;
  }

  @Override
  public String name() {
    return "DeflateCompressor";
  }

  @Override
  public int maxCompressedLength(int length) {
    // zlib's bound: stored blocks cost 5 bytes per 16 KB plus the header and adler32.
    return length + (length >> 12) + (length >> 14) + 64;
  }

  @Override
  public int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
    Deflater d = DEFLATER.get();
    d.reset();
    d.setInput(src, srcOff, length);
    d.finish();
    int n = d.deflate(dst, dstOff, dst.length - dstOff);
    if (!d.finished()) {
      throw new IllegalStateException("deflate output larger than its bound");
    }
    return n;
  }

  @Override
  public void decompress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int uncompressedLength) {
    Inflater inf = INFLATER.get();
    inf.reset();
    inf.setInput(src, srcOff, length);
    try {
      int n = inf.inflate(dst, dstOff, uncompressedLength);
      if (n != uncompressedLength || !inf.finished()) {
        throw new IllegalArgumentException("deflate block inflated to " + n + " bytes, expected " + uncompressedLength);
      }
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("malformed deflate block: " + e.getMessage(), e);
    }
  }
}
