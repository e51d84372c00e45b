package io.cassette.cql.transport.frame;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

/**
 * One protocol message with its header, what the specs call a frame (v3/v4) or an envelope
 * (v5, where frames are carried inside segments).
 *
 * <pre>
 *  0         8        16                32        40                        72
 *  +---------+---------+-----------------+---------+-------------------------+
 *  | version |  flags  |   stream (i16)  | opcode  |    body length (i32)    |  then body
 *  +---------+---------+-----------------+---------+-------------------------+
 *  version: bit 7 = direction (0 request, 1 response), bits 0-6 = protocol version
 *  v1/v2 (only ever answered, to say they are unsupported): stream is one byte, header 8 bytes
 * </pre>
 *
 * <p>Ownership: the envelope owns one reference to {@code body}; whoever consumes it releases it.
 * Reference counting delegates to the body, so Netty frees an envelope it drops (a write to a
 * channel that has closed meanwhile).
 *
 * @param version  protocol version number without the direction bit
 * @param flags    header flags ({@link #FLAG_COMPRESSED} ...)
 * @param streamId stream id; -1 for server-pushed events
 * @param opcode   message opcode
 * @param body     the message body (after decompression, on the inbound side)
 */
public record Envelope(int version, int flags, int streamId, int opcode, ByteBuf body) implements ReferenceCounted {
  /** Header length of v3 and later. */
  public static final int HEADER_LENGTH = 9;
  /** Header length of v1/v2 (one-byte stream id). */
  public static final int LEGACY_V2_HEADER_LENGTH = 8;
  /** Direction bit of the version byte: set on responses. */
  public static final int RESPONSE_BIT = 0x80;
  public static final int VERSION_MASK = 0x7F;

  public static final int FLAG_COMPRESSED = 0x01;
  public static final int FLAG_TRACING = 0x02;
  public static final int FLAG_CUSTOM_PAYLOAD = 0x04;
  public static final int FLAG_WARNING = 0x08;
  public static final int FLAG_USE_BETA = 0x10;

  @Override
  public int refCnt() {
    return body.refCnt();
  }

  @Override
  public Envelope retain() {
    body.retain();
    return this;
  }

  @Override
  public Envelope retain(int increment) {
    body.retain(increment);
    return this;
  }

  @Override
  public Envelope touch() {
    body.touch();
    return this;
  }

  @Override
  public Envelope touch(Object hint) {
    body.touch(hint);
    return this;
  }

  @Override
  public boolean release() {
    return body.release();
  }

  @Override
  public boolean release(int decrement) {
    return body.release(decrement);
  }
}
