package io.cassette.cluster.net;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * A message's bytes inside a frame. Every message is preceded in the frame stream by its body
 * size (a 32-bit int); the body is:
 *
 * <pre>
 *  offset  size  field
 *       0     8  id                (answers carry their request's id)
 *       8     2  verb id           (unsigned; {@link Verb#id})
 *      10     1  flags             ({@link Message#FLAG_EXPECTS_RESPONSE} ...)
 *      11     8  sender epoch      (cluster metadata epoch)
 *      19     8  created at        (sender's wall clock, ms since 1970)
 *      27     4  expires in        (ms after sending)
 *      31     n  payload           (the rest of the body)
 * </pre>
 *
 * So the fixed cost of a message is {@link #OVERHEAD_BYTES} = 35 bytes, plus 10 bytes per frame
 * (see {@link FrameFormat}) shared by all the messages a frame carries.
 */
final class MessageSerializer {
  static final int HEADER_BYTES = 31;
  /** Size prefix plus header: what each message adds to its payload on the wire. */
  static final int OVERHEAD_BYTES = 4 + HEADER_BYTES;

  private MessageSerializer() {}

  static int bodySize(Message m) {
    return HEADER_BYTES + m.payload().length;
  }

  /** Writes size prefix and body. */
  static void write(Message m, ByteBuf out) {
    out.writeInt(bodySize(m));
    out.writeLong(m.id());
    out.writeShort(m.verb().id);
    out.writeByte(m.flags());
    out.writeLong(m.epoch());
    out.writeLong(m.createdAtMillis());
    out.writeInt(m.expiresInMillis());
    out.writeBytes(m.payload());
  }

  /**
   * Reads one body of {@code bodySize} bytes. Returns null, having skipped the body, when the
   * verb is unknown to this node (a newer peer); the caller counts it.
   */
  static Message read(ByteBuf in, int bodySize, InetSocketAddress from, long arrivalNanos) {
    if (bodySize < HEADER_BYTES) {
      throw new CorruptFrameException("message body of " + bodySize + " bytes (expected: >= " + HEADER_BYTES + ")");
    }
    long id = in.readLong();
    int verbId = in.readUnsignedShort();
    int flags = in.readUnsignedByte();
    long epoch = in.readLong();
    long createdAt = in.readLong();
    int expiresIn = in.readInt();
    Verb verb = Verb.fromId(verbId);
    int payloadSize = bodySize - HEADER_BYTES;
    if (verb == null) {
      in.skipBytes(payloadSize);
      return null;
    }
    byte[] payload = new byte[payloadSize];
    in.readBytes(payload);
    return new Message(id, verb, flags, epoch, createdAt, expiresIn, payload, from, arrivalNanos);
  }
}
