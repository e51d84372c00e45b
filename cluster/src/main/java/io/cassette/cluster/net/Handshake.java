package io.cassette.cluster.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * The first bytes each way on an internode connection. The connecting node sends HELLO; the
 * accepting node answers ACCEPT or REJECT and, on REJECT, closes. Only after ACCEPT do frames
 * ({@link FrameFormat}) flow, from the connecting node to the accepting one only: connections
 * are one-way, and answers travel on the answering node's own outbound connection.
 *
 * <pre>
 * handshake := magic:int32 (0xCA55E77E)  bodyLength:u16  body  crc32(body):int32
 * body      := HELLO  | ACCEPT | REJECT
 * HELLO     := 1:u8 version:int32 minVersion:int32 connectionType:u8 epoch:int64 hostId:uuid
 *              addressLength:u8 address port:u16 clusterName:text
 * ACCEPT    := 2:u8 version:int32 epoch:int64 hostId:uuid clusterName:text
 * REJECT    := 3:u8 refusal:u8 minVersion:int32 maxVersion:int32 reason:text
 * uuid      := msb:int64 lsb:int64;   text := length:u16 utf8
 * </pre>
 *
 * The address in HELLO is the sender's listen address: the one it is known by in the ring and
 * answers are sent to (also the socket's source address, since nodes bind it when connecting).
 */
final class Handshake {
  static final int MAGIC = 0xCA55E77E;
  static final int KIND_HELLO = 1;
  static final int KIND_ACCEPT = 2;
  static final int KIND_REJECT = 3;
  /** Far above any real handshake; stops a stray client from making us buffer much. */
  static final int MAX_BODY_BYTES = 1024;

  /** Why a handshake was refused; the code is on the wire. */
  public enum Refusal {
    /** The two nodes belong to different clusters ({@code cluster_name}). */
    CLUSTER_NAME(1),
    /** No messaging version both nodes speak. */
    VERSION(2),
    /** Not an internode handshake, or a damaged one. */
    BAD_HANDSHAKE(3);

    final int code;

    Refusal(int code) {
      this.code = code;
    }

    static Refusal fromCode(int code) {
      for (Refusal r : values()) {
        if (r.code == code) return r;
      }
      return BAD_HANDSHAKE;
    }
  }

  record Hello(int version, int minVersion, ConnectionType type, long epoch, UUID hostId,
      InetSocketAddress address, String clusterName) {}

  record Accept(int version, long epoch, UUID hostId, String clusterName) {}

  record Reject(Refusal refusal, int minVersion, int maxVersion, String reason) {}

  /** A handshake that cannot be parsed; the receiver logs it and closes the connection. */
  static final class BadHandshakeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadHandshakeException(String message) {
      super(message, null, false, false);
    }
  }

  private Handshake() {}

  static ByteBuf encode(ByteBufAllocator alloc, Object message) {
    ByteBuf body = Unpooled.buffer(128); // rare and small: not worth a pooled heap arena
    try {
      if (message instanceof Hello h) {
        body.writeByte(KIND_HELLO).writeInt(h.version).writeInt(h.minVersion).writeByte(h.type.code)
            .writeLong(h.epoch);
        writeUuid(body, h.hostId);
        byte[] addr = h.address.getAddress().getAddress();
        body.writeByte(addr.length).writeBytes(addr).writeShort(h.address.getPort());
        writeText(body, h.clusterName);
      } else if (message instanceof Accept a) {
        body.writeByte(KIND_ACCEPT).writeInt(a.version).writeLong(a.epoch);
        writeUuid(body, a.hostId);
        writeText(body, a.clusterName);
      } else if (message instanceof Reject r) {
        body.writeByte(KIND_REJECT).writeByte(r.refusal.code).writeInt(r.minVersion).writeInt(r.maxVersion);
        writeText(body, r.reason);
      } else {
        throw new IllegalArgumentException(String.valueOf(message));
      }
      ByteBuf out = alloc.buffer(10 + body.readableBytes());
      out.writeInt(MAGIC).writeShort(body.readableBytes()).writeBytes(body, body.readerIndex(), body.readableBytes());
      CRC32 crc = new CRC32();
      crc.update(body.nioBuffer());
      out.writeInt((int) crc.getValue());
      return out;
    } finally {
      body.release();
    }
  }

  /**
   * One handshake message (Hello, Accept or Reject) from {@code in}, or null when more bytes
   * are needed. Throws {@link BadHandshakeException} when the bytes are not a handshake.
   */
  static Object decode(ByteBuf in) {
    if (in.readableBytes() < 4) return null;
    int magic = in.getInt(in.readerIndex());
    if (magic != MAGIC) {
      throw new BadHandshakeException(String.format("not an internode handshake (magic %08x, expected %08x)", magic, MAGIC));
    }
    if (in.readableBytes() < 6) return null;
    int bodyLength = in.getUnsignedShort(in.readerIndex() + 4);
    if (bodyLength > MAX_BODY_BYTES) {
      throw new BadHandshakeException("handshake body length: " + bodyLength + " (expected: <= " + MAX_BODY_BYTES + ")");
    }
    if (in.readableBytes() < 6 + bodyLength + 4) return null;
    in.skipBytes(6);
    ByteBuf body = in.readSlice(bodyLength);
    int readCrc = in.readInt();
    CRC32 crc = new CRC32();
    crc.update(body.nioBuffer());
    if (readCrc != (int) crc.getValue()) throw new BadHandshakeException("handshake CRC32 mismatch");
    try {
      int kind = body.readUnsignedByte();
      switch (kind) {
        case KIND_HELLO: {
          int version = body.readInt();
          int minVersion = body.readInt();
          ConnectionType type = ConnectionType.fromCode(body.readUnsignedByte());
          if (type == null) throw new BadHandshakeException("unknown connection type");
          long epoch = body.readLong();
          UUID hostId = readUuid(body);
          byte[] addr = new byte[body.readUnsignedByte()];
          body.readBytes(addr);
          int port = body.readUnsignedShort();
          String clusterName = readText(body);
          return new Hello(version, minVersion, type, epoch, hostId,
              new InetSocketAddress(InetAddress.getByAddress(addr), port), clusterName);
        }
        case KIND_ACCEPT:
          return new Accept(body.readInt(), body.readLong(), readUuid(body), readText(body));
        case KIND_REJECT:
          return new Reject(Refusal.fromCode(body.readUnsignedByte()), body.readInt(), body.readInt(), readText(body));
        default:
          throw new BadHandshakeException("unknown handshake kind " + kind);
      }
    } catch (IndexOutOfBoundsException | UnknownHostException e) {
      throw new BadHandshakeException("truncated or malformed handshake: " + e.getMessage());
    }
  }

  private static void writeUuid(ByteBuf b, UUID id) {
    b.writeLong(id.getMostSignificantBits()).writeLong(id.getLeastSignificantBits());
  }

  private static UUID readUuid(ByteBuf b) {
    return new UUID(b.readLong(), b.readLong());
  }

  private static void writeText(ByteBuf b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    int n = Math.min(bytes.length, 512);
    b.writeShort(n).writeBytes(bytes, 0, n);
  }

  private static String readText(ByteBuf b) {
    int n = b.readUnsignedShort();
    byte[] bytes = new byte[n];
    b.readBytes(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
