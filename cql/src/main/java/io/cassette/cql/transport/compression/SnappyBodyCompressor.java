package io.cassette.cql.transport.compression;

import io.cassette.storage.io.Snappy;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * v3/v4 Snappy body compression: the body is one raw Snappy block, coded by storage's
 * {@link Snappy} (the same pure-Java codec as SSTable chunks).
 */
public final class SnappyBodyCompressor implements BodyCompressor {
  public static final SnappyBodyCompressor INSTANCE = new SnappyBodyCompressor();

  private SnappyBodyCompressor() {}

  @Override
  public String name() {
    return "snappy";
  }

  @Override
  public ByteBuf compress(ByteBuf body) {
    int length = body.readableBytes();
    byte[] src = ByteBufUtil.getBytes(body, body.readerIndex(), length, false);
    byte[] out = new byte[Snappy.maxCompressedLength(length)];
    int n = Snappy.compress(src, 0, length, out, 0);
    return Unpooled.wrappedBuffer(out, 0, n);
  }

  @Override
  public ByteBuf decompress(ByteBuf body, int maxLength) {
    int length = body.readableBytes();
    byte[] src = ByteBufUtil.getBytes(body, body.readerIndex(), length, false);
    try {
      return Unpooled.wrappedBuffer(Snappy.uncompress(src, 0, length, maxLength));
    } catch (IllegalArgumentException e) {
      throw new CompressionException(e.getMessage());
    }
  }
}
