package io.cassette.cluster.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Frames to messages on an inbound connection ({@link FrameFormat}): checks the header's CRC24
 * before trusting its length and the payload's CRC32 before reading any message from it, and
 * bounds every size. Any failure throws {@link CorruptFrameException}, which closes the
 * connection. Emits {@link Message}s; messages with verbs this node does not know are skipped
 * and counted.
 */
final class FrameDecoder extends ByteToMessageDecoder {
  private final InetSocketAddress from;
  private final int maxMessageSize;
  private final InternodeMetrics metrics;
  private final CRC32 crc = new CRC32();
  /** The message being assembled from frames that are not self-contained, or null. */
  private ByteBuf large;
  private int largeSize;
  /** After a corrupt frame nothing more on this stream can be trusted; the channel is closing. */
  private boolean failed;

  FrameDecoder(InetSocketAddress from, int maxMessageSize, InternodeMetrics metrics) {
    this.from = from;
    this.maxMessageSize = maxMessageSize;
    this.metrics = metrics;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    while (in.readableBytes() >= FrameFormat.HEADER_BYTES) {
      int start = in.readerIndex();
      int header = in.getUnsignedMediumLE(start);
      int headerCrc = in.getUnsignedMediumLE(start + 3);
      int expectedCrc = Crc24.of(header, 3);
      if (headerCrc != expectedCrc) {
        throw corrupt(String.format("frame header CRC24 mismatch at stream offset ~%d: read %06x, computed %06x",
            start, headerCrc, expectedCrc));
      }
      int payloadLength = header & FrameFormat.MAX_PAYLOAD_BYTES;
      boolean selfContained = (header & FrameFormat.SELF_CONTAINED_BIT) != 0;
      int frameLength = FrameFormat.OVERHEAD_BYTES + payloadLength;
      if (in.readableBytes() < frameLength) return; // need more bytes
      int payloadStart = start + FrameFormat.HEADER_BYTES;
      crc.reset();
      crc.update(in.nioBuffer(payloadStart, payloadLength));
      int readCrc = in.getInt(payloadStart + payloadLength);
      if (readCrc != (int) crc.getValue()) {
        throw corrupt(String.format("frame payload CRC32 mismatch (%d bytes): read %08x, computed %08x",
            payloadLength, readCrc, (int) crc.getValue()));
      }
      ByteBuf payload = in.slice(payloadStart, payloadLength);
      in.readerIndex(start + frameLength);
      long now = System.nanoTime();
      if (selfContained) {
        if (large != null) throw corrupt("self-contained frame inside a split message");
        readMessages(payload, out, now);
      } else {
        appendLarge(ctx, payload, out, now);
      }
    }
  }

  private void readMessages(ByteBuf payload, List<Object> out, long now) {
    while (payload.isReadable()) {
      if (payload.readableBytes() < 4) throw corrupt("truncated message size in frame");
      int size = payload.readInt();
      if (size < MessageSerializer.HEADER_BYTES || size > payload.readableBytes()) {
        throw corrupt("message size " + size + " does not fit its frame (" + payload.readableBytes() + " bytes left)");
      }
      emit(MessageSerializer.read(payload, size, from, now), out);
    }
  }

  private void appendLarge(ChannelHandlerContext ctx, ByteBuf payload, List<Object> out, long now) {
    if (large == null) {
      if (payload.readableBytes() < 4) throw corrupt("split message frame without a size");
      largeSize = payload.readInt();
      if (largeSize < MessageSerializer.HEADER_BYTES || largeSize > maxMessageSize) {
        throw corrupt("message size: " + largeSize + " (expected: " + MessageSerializer.HEADER_BYTES
            + ".." + maxMessageSize + ", internode_max_message_size)");
      }
      // Unpooled heap: becomes the payload byte[] anyway; pooled heap arenas would pin 4 MiB chunks.
      large = Unpooled.buffer(largeSize, largeSize);
    }
    if (payload.readableBytes() > large.writableBytes()) {
      throw corrupt("split message overruns its size " + largeSize);
    }
    large.writeBytes(payload);
    if (large.writerIndex() == largeSize) {
      try {
        emit(MessageSerializer.read(large, largeSize, from, now), out);
      } finally {
        large.release();
        large = null;
      }
    }
  }

  private void emit(Message m, List<Object> out) {
    if (m == null) {
      metrics.droppedUnknownVerb();
    } else {
      out.add(m);
    }
  }

  private CorruptFrameException corrupt(String what) {
    failed = true;
    metrics.corruptFrame();
    return new CorruptFrameException(what + " on connection from " + from);
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (large != null) {
      large.release();
      large = null;
    }
  }
}
