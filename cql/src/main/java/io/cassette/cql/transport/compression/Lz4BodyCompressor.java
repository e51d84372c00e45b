package io.cassette.cql.transport.compression;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * v3/v4 LZ4 body compression: {@code [int uncompressed length][LZ4 block]}, as the v4 spec
 * (section 5) describes.
 */
public final class Lz4BodyCompressor implements BodyCompressor {
  public static final Lz4BodyCompressor INSTANCE = new Lz4BodyCompressor();

  private Lz4BodyCompressor() {}

  @Override
  public String name() {
    return "lz4";
  }

  @Override
  public ByteBuf compress(ByteBuf body) {
    int length = body.readableBytes();
    byte[] src = ByteBufUtil.getBytes(body, body.readerIndex(), length, false);
    byte[] out = new byte[4 + Lz4Block.maxCompressedLength(length)];
    int n = Lz4Block.compress(src, 0, length, out, 4);
    ByteBuf result = Unpooled.wrappedBuffer(out, 0, 4 + n);
    result.setInt(0, length);
    return result;
  }

  @Override
  public ByteBuf decompress(ByteBuf body, int maxLength) {
    if (body.readableBytes() < 4) {
      throw new CompressionException("LZ4 body of " + body.readableBytes()
          + " bytes has no uncompressed length (expected: >= 4 bytes)");
    }
    int uncompressed = body.getInt(body.readerIndex());
    if (uncompressed < 0 || uncompressed > maxLength) {
      throw new CompressionException("LZ4 body declares " + uncompressed
          + " uncompressed bytes (expected: 0.." + maxLength + ")");
    }
    int length = body.readableBytes() - 4;
    byte[] src = ByteBufUtil.getBytes(body, body.readerIndex() + 4, length, false);
    return Unpooled.wrappedBuffer(Lz4Block.decompress(src, 0, length, uncompressed));
  }
}
