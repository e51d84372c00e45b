package io.cassette.cql.transport.frame;

import static io.cassette.cql.transport.frame.SegmentFormat.MAX_PAYLOAD_LENGTH;

import io.cassette.cql.transport.compression.BodyCompressor;
import io.cassette.cql.transport.compression.Lz4Block;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Writes outbound {@link Envelope}s as frames (v3/v4, and v5 until STARTUP is answered) or as
 * v5 segments, the mirror of {@link FrameDecoder}. A small envelope goes out as one
 * self-contained segment; a larger one is cut into segments that are not self-contained.
 *
 * <p>Thread-safety: event-loop confined; mode setters are called from the event loop after
 * the STARTUP answer has been written (that answer itself is never in segments).
 */
public final class FrameEncoder extends ChannelOutboundHandlerAdapter {
  private boolean segmented;
  private boolean segmentsCompressed;
  private BodyCompressor bodyCompressor;

  public void switchToSegments(boolean lz4) {
    this.segmented = true;
    this.segmentsCompressed = lz4;
  }

  public void setBodyCompressor(BodyCompressor compressor) {
    this.bodyCompressor = compressor;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (!(msg instanceof Envelope envelope)) {
      ctx.write(msg, promise);
      return;
    }
    ByteBuf body = envelope.body();
    // Every response in a beta version says so, as Cassandra's do.
    int flags = envelope.flags() | (ProtocolVersions.isBeta(envelope.version()) ? Envelope.FLAG_USE_BETA : 0);
    if (!segmented && bodyCompressor != null && body.isReadable()) {
      ByteBuf compressed = bodyCompressor.compress(body);
      body.release();
      body = compressed;
      flags |= Envelope.FLAG_COMPRESSED;
    }
    int version = envelope.version();
    if (segmented && !segmentsCompressed
        && Envelope.HEADER_LENGTH + body.readableBytes() <= MAX_PAYLOAD_LENGTH) {
      writeSelfContainedSegment(ctx, envelope, body, promise);
      return;
    }
    int headerLength = version < ProtocolVersions.MIN ? Envelope.LEGACY_V2_HEADER_LENGTH : Envelope.HEADER_LENGTH;
    ByteBuf frame = ctx.alloc().buffer(headerLength + (segmented ? body.readableBytes() : 0));
    frame.writeByte(Envelope.RESPONSE_BIT | version);
    frame.writeByte(flags);
    if (headerLength == Envelope.LEGACY_V2_HEADER_LENGTH) {
      frame.writeByte(envelope.streamId());
    } else {
      frame.writeShort(envelope.streamId());
    }
    frame.writeByte(envelope.opcode());
    frame.writeInt(body.readableBytes());
    if (!segmented) {
      ctx.write(frame, ctx.voidPromise());
      ctx.write(body, promise);
      return;
    }
    frame.writeBytes(body);
    body.release();
    try {
      writeSegments(ctx, frame, promise);
    } finally {
      frame.release();
    }
  }

  /**
   * The common case of v5 without compression, built in one buffer with one copy of the body:
   * segment header, envelope header, body, payload CRC32.
   */
  private static void writeSelfContainedSegment(ChannelHandlerContext ctx, Envelope envelope, ByteBuf body,
                                                ChannelPromise promise) {
    int payloadLength = Envelope.HEADER_LENGTH + body.readableBytes();
    if (body.readerIndex() >= ResponseBodies.HEADROOM && body.refCnt() == 1 && !body.isReadOnly()) {
      writeInPlace(ctx, envelope, body, payloadLength, promise);
      return;
    }
    ByteBuf out = ctx.alloc().buffer(SegmentFormat.UNCOMPRESSED_HEADER_LENGTH + payloadLength
        + SegmentFormat.CRC32_LENGTH);
    long header = payloadLength | (1L << 17);
    writeLittleEndian(out, header, 3);
    writeLittleEndian(out, Crc.crc24(header, 3), 3);
    int payloadStart = out.writerIndex();
    out.writeByte(Envelope.RESPONSE_BIT | envelope.version());
    out.writeByte(envelope.flags() | (ProtocolVersions.isBeta(envelope.version()) ? Envelope.FLAG_USE_BETA : 0));
    out.writeShort(envelope.streamId());
    out.writeByte(envelope.opcode());
    out.writeInt(body.readableBytes());
    out.writeBytes(body, body.readerIndex(), body.readableBytes());
    body.release();
    writeLittleEndian(out, Crc.crc32(out, payloadStart, payloadLength), 4);
    ctx.write(out, promise);
  }

  /**
   * As above in the body's own buffer (a {@link ResponseBodies} one, which the envelope hands
   * over): the headers go into the room before the body, the CRC32 after it.
   */
  private static void writeInPlace(ChannelHandlerContext ctx, Envelope envelope, ByteBuf body, int payloadLength,
                                   ChannelPromise promise) {
    int bodyLength = body.readableBytes();
    int start = body.readerIndex() - ResponseBodies.HEADROOM;
    int payloadStart = start + SegmentFormat.UNCOMPRESSED_HEADER_LENGTH;
    long header = payloadLength | (1L << 17);
    body.setMediumLE(start, (int) header);
    body.setMediumLE(start + 3, Crc.crc24(header, 3));
    body.setByte(payloadStart, Envelope.RESPONSE_BIT | envelope.version());
    body.setByte(payloadStart + 1,
        envelope.flags() | (ProtocolVersions.isBeta(envelope.version()) ? Envelope.FLAG_USE_BETA : 0));
    body.setShort(payloadStart + 2, envelope.streamId());
    body.setByte(payloadStart + 4, envelope.opcode());
    body.setInt(payloadStart + 5, bodyLength);
    body.readerIndex(start);
    body.writeIntLE(Crc.crc32(body, payloadStart, payloadLength));
    ctx.write(body, promise);
  }

  private void writeSegments(ChannelHandlerContext ctx, ByteBuf envelope, ChannelPromise promise) {
    boolean selfContained = envelope.readableBytes() <= MAX_PAYLOAD_LENGTH;
    while (envelope.isReadable()) {
      int length = Math.min(MAX_PAYLOAD_LENGTH, envelope.readableBytes());
      ByteBuf segment = segmentsCompressed
          ? compressedSegment(ctx, envelope, length, selfContained)
          : uncompressedSegment(ctx, envelope, length, selfContained);
      envelope.skipBytes(length);
      ctx.write(segment, envelope.isReadable() ? ctx.voidPromise() : promise);
    }
  }

  private static ByteBuf uncompressedSegment(ChannelHandlerContext ctx, ByteBuf src, int length,
                                             boolean selfContained) {
    ByteBuf out = ctx.alloc().buffer(SegmentFormat.UNCOMPRESSED_HEADER_LENGTH + length + SegmentFormat.CRC32_LENGTH);
    long header = length | (selfContained ? 1L << 17 : 0);
    writeLittleEndian(out, header, 3);
    writeLittleEndian(out, Crc.crc24(header, 3), 3);
    out.writeBytes(src, src.readerIndex(), length);
    writeLittleEndian(out, Crc.crc32(src, src.readerIndex(), length), 4);
    return out;
  }

  private static ByteBuf compressedSegment(ChannelHandlerContext ctx, ByteBuf src, int length,
                                           boolean selfContained) {
    byte[] plain = ByteBufUtil.getBytes(src, src.readerIndex(), length, false);
    byte[] packed = new byte[Lz4Block.maxCompressedLength(length)];
    int packedLength = Lz4Block.compress(plain, 0, length, packed, 0);
    boolean worthIt = packedLength < length;
    byte[] payload = worthIt ? packed : plain;
    int payloadLength = worthIt ? packedLength : length;
    ByteBuf out = ctx.alloc().buffer(SegmentFormat.COMPRESSED_HEADER_LENGTH + payloadLength + SegmentFormat.CRC32_LENGTH);
    long header = payloadLength | ((long) (worthIt ? length : 0) << 17) | (selfContained ? 1L << 34 : 0);
    writeLittleEndian(out, header, 5);
    writeLittleEndian(out, Crc.crc24(header, 5), 3);
    int payloadStart = out.writerIndex();
    out.writeBytes(payload, 0, payloadLength);
    writeLittleEndian(out, Crc.crc32(out, payloadStart, payloadLength), 4);
    return out;
  }

  private static void writeLittleEndian(ByteBuf out, long value, int byteCount) {
    for (int i = 0; i < byteCount; i++) {
      out.writeByte((int) (value >>> (8 * i)));
    }
  }
}
