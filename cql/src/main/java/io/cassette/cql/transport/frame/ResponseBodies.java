package io.cassette.cql.transport.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Buffers for response bodies with room for their framing: a v5 self-contained segment's
 * header and the envelope header in front, the payload CRC32 behind. {@link FrameEncoder}
 * then writes those in place and sends the body's own buffer: no second buffer and no copy of
 * the rows per answer. Any other framing (v3/v4, compression, several segments) reads the body
 * from its reader index as before, so a body from elsewhere works too, only with the copy.
 */
public final class ResponseBodies {
  /** Bytes before the body: segment header (6) + envelope header (9). */
  public static final int HEADROOM = SegmentFormat.UNCOMPRESSED_HEADER_LENGTH + Envelope.HEADER_LENGTH;
  /** Bytes after the body: the segment's payload CRC32. */
  public static final int TAILROOM = SegmentFormat.CRC32_LENGTH;

  private ResponseBodies() {}

  /** An empty body buffer for about {@code capacity} bytes (it grows as any buffer does). */
  public static ByteBuf buffer(ByteBufAllocator alloc, int capacity) {
    ByteBuf out = alloc.buffer(HEADROOM + capacity + TAILROOM);
    out.writerIndex(HEADROOM).readerIndex(HEADROOM);
    return out;
  }
}
