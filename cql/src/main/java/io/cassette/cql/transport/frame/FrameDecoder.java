package io.cassette.cql.transport.frame;

import static io.cassette.cql.transport.frame.SegmentFormat.COMPRESSED_HEADER_LENGTH;
import static io.cassette.cql.transport.frame.SegmentFormat.CRC32_LENGTH;
import static io.cassette.cql.transport.frame.SegmentFormat.LENGTH_MASK;
import static io.cassette.cql.transport.frame.SegmentFormat.UNCOMPRESSED_HEADER_LENGTH;

import io.cassette.cql.transport.compression.BodyCompressor;
import io.cassette.cql.transport.compression.CompressionException;
import io.cassette.cql.transport.compression.Lz4Block;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Turns the inbound byte stream into {@link Envelope}s, or {@link FrameError}s for what cannot
 * be decoded. Two modes, switched by the connection handler once STARTUP is answered:
 * <ul>
 *   <li>frames (v3/v4, and v5 before STARTUP): 9-byte header, body, optionally compressed body;</li>
 *   <li>segments (v5 after STARTUP): checksummed segments, see {@link SegmentFormat}.</li>
 * </ul>
 * A frame longer than {@code maxFrameBytes} is skipped (its bytes are read and dropped) and
 * answered with an error on its stream, so the connection survives; a bad version, a negative
 * length or a checksum mismatch is fatal: nothing after it can be trusted.
 *
 * <p>Thread-safety: event-loop confined, like every Netty handler; the mode setters must be
 * called from the event loop (the connection handler does so while processing STARTUP).
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  /** First allocation for a multi-segment envelope; it grows up to its declared length. */
  private static final int INITIAL_PARTIAL_ENVELOPE_BYTES = 256 * 1024;

  private final int maxFrameBytes;
  /** Envelopes are carried in v5 segments. */
  private boolean segmented;
  private boolean segmentsCompressed;
  /** v3/v4 body compression negotiated in STARTUP, or null. */
  private BodyCompressor bodyCompressor;
  /** After a fatal error all input is dropped until the channel closes. */
  private boolean failed;
  /** Bytes of an oversized frame still to drop. */
  private long bytesToDiscard;
  /** v5: an envelope being assembled from segments that are not self-contained, or null. */
  private ByteBuf partialEnvelope;
  private int partialEnvelopeLength;
  /** v5: bytes still to drop of an oversized envelope cut across segments; 0 when not skipping. */
  private long oversizedEnvelopeBytesToSkip;
  /** The version of the last good header, to answer fatal segment errors in. */
  private int lastVersion = ProtocolVersions.MAX;

  public FrameDecoder(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
  }

  /** From now on, envelopes arrive in v5 segments, LZ4-compressed when {@code lz4}. */
  public void switchToSegments(boolean lz4) {
    this.segmented = true;
    this.segmentsCompressed = lz4;
  }

  public void setBodyCompressor(BodyCompressor compressor) {
    this.bodyCompressor = compressor;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (bytesToDiscard > 0) {
      int n = (int) Math.min(bytesToDiscard, in.readableBytes());
      in.skipBytes(n);
      bytesToDiscard -= n;
      if (bytesToDiscard > 0) {
        return;
      }
    }
    if (segmented) {
      decodeSegment(in, out);
    } else {
      decodeFrame(in, out);
    }
  }

  private void decodeFrame(ByteBuf in, List<Object> out) {
    if (in.readableBytes() < 1) {
      return;
    }
    int start = in.readerIndex();
    int first = in.getUnsignedByte(start);
    int version = first & Envelope.VERSION_MASK;
    if (!ProtocolVersions.isSupported(version)) {
      // v1/v2 headers carry a one-byte stream id; later ones two bytes.
      int stream = 0;
      if (version < ProtocolVersions.MIN && in.readableBytes() >= 3) {
        stream = in.getByte(start + 2);
      } else if (version >= ProtocolVersions.MIN && in.readableBytes() >= 4) {
        stream = in.getShort(start + 2);
      }
      fail(in, out, new FrameError(ProtocolVersions.replyVersionFor(version), stream,
          ProtocolVersions.unsupportedMessage(version), true));
      return;
    }
    if ((first & Envelope.RESPONSE_BIT) != 0) {
      int opcode = in.readableBytes() >= 5 ? in.getUnsignedByte(start + 4) : -1;
      String name = opcode < 0 ? null : io.cassette.cql.transport.messages.Opcode.name(opcode);
      fail(in, out, new FrameError(version, 0, "Wrong protocol direction (expected REQUEST, got RESPONSE)"
          + (name == null ? "" : " for opcode " + opcode + " (" + name + ")"), true));
      return;
    }
    if (in.readableBytes() < Envelope.HEADER_LENGTH) {
      return;
    }
    int flags = in.getUnsignedByte(start + 1);
    int stream = in.getShort(start + 2);
    int opcode = in.getUnsignedByte(start + 4);
    int length = in.getInt(start + 5);
    if (length < 0) {
      fail(in, out, new FrameError(version, stream, "Invalid frame body length: " + length
          + " (expected: >= 0)", true));
      return;
    }
    if ((long) length + Envelope.HEADER_LENGTH > maxFrameBytes) {
      in.skipBytes(Envelope.HEADER_LENGTH);
      bytesToDiscard = length;
      int n = (int) Math.min(bytesToDiscard, in.readableBytes());
      in.skipBytes(n);
      bytesToDiscard -= n;
      out.add(new FrameError(version, stream, tooBig(length), false));
      return;
    }
    if (in.readableBytes() < Envelope.HEADER_LENGTH + length) {
      return;
    }
    lastVersion = version;
    in.skipBytes(Envelope.HEADER_LENGTH);
    ByteBuf body = in.readRetainedSlice(length);
    if ((flags & Envelope.FLAG_COMPRESSED) != 0) {
      if (bodyCompressor == null) {
        body.release();
        out.add(new FrameError(version, stream,
            "Received a compressed frame but no compression was negotiated in STARTUP", false));
        return;
      }
      try {
        ByteBuf plain = bodyCompressor.decompress(body, maxFrameBytes);
        body.release();
        body = plain;
      } catch (CompressionException e) {
        body.release();
        out.add(new FrameError(version, stream, "Cannot decompress " + bodyCompressor.name()
            + " frame body: " + e.getMessage(), false));
        return;
      }
      flags &= ~Envelope.FLAG_COMPRESSED;
    }
    out.add(new Envelope(version, flags, stream, opcode, body));
  }

  private String tooBig(long length) {
    return "Request is too big: length " + (length + Envelope.HEADER_LENGTH)
        + " exceeds maximum allowed length " + maxFrameBytes + ".";
  }

  private void decodeSegment(ByteBuf in, List<Object> out) {
    int headerLength = segmentsCompressed ? COMPRESSED_HEADER_LENGTH : UNCOMPRESSED_HEADER_LENGTH;
    int headerBytes = headerLength - SegmentFormat.CRC24_LENGTH;
    if (in.readableBytes() < headerLength) {
      return;
    }
    int start = in.readerIndex();
    long header = readLittleEndian(in, start, headerBytes);
    int expectedCrc = (int) readLittleEndian(in, start + headerBytes, SegmentFormat.CRC24_LENGTH);
    int actualCrc = Crc.crc24(header, headerBytes);
    if (expectedCrc != actualCrc) {
      fail(in, out, new FrameError(lastVersion, 0, String.format(
          "CRC mismatch on segment header: received 0x%06x, computed 0x%06x", expectedCrc, actualCrc), true));
      return;
    }
    int payloadLength = (int) (header & LENGTH_MASK);
    int uncompressedLength = segmentsCompressed ? (int) ((header >>> 17) & LENGTH_MASK) : 0;
    boolean selfContained = ((header >>> (segmentsCompressed ? 34 : 17)) & 1) != 0;
    if (in.readableBytes() < headerLength + payloadLength + CRC32_LENGTH) {
      return;
    }
    int payloadStart = start + headerLength;
    int expectedPayloadCrc = (int) readLittleEndian(in, payloadStart + payloadLength, CRC32_LENGTH);
    int actualPayloadCrc = Crc.crc32(in, payloadStart, payloadLength);
    if (expectedPayloadCrc != actualPayloadCrc) {
      fail(in, out, new FrameError(lastVersion, 0, String.format(
          "CRC mismatch on segment payload of %d bytes: received 0x%08x, computed 0x%08x",
          payloadLength, expectedPayloadCrc, actualPayloadCrc), true));
      return;
    }
    ByteBuf payload;
    if (uncompressedLength > 0) {
      byte[] compressed = ByteBufUtil.getBytes(in, payloadStart, payloadLength, false);
      try {
        payload = Unpooled.wrappedBuffer(Lz4Block.decompress(compressed, 0, payloadLength, uncompressedLength));
      } catch (CompressionException e) {
        fail(in, out, new FrameError(lastVersion, 0, "Cannot decompress segment: " + e.getMessage(), true));
        return;
      }
    } else {
      payload = in.retainedSlice(payloadStart, payloadLength);
    }
    in.skipBytes(headerLength + payloadLength + CRC32_LENGTH);
    try {
      if (selfContained) {
        readSelfContained(payload, in, out);
      } else {
        readPart(payload, in, out);
      }
    } finally {
      payload.release();
    }
  }

  private void readSelfContained(ByteBuf payload, ByteBuf in, List<Object> out) {
    if (partialEnvelope != null || oversizedEnvelopeBytesToSkip > 0) {
      fail(in, out, new FrameError(lastVersion, 0,
          "Self-contained segment received while a multi-segment envelope was incomplete", true));
      return;
    }
    while (payload.isReadable()) {
      if (payload.readableBytes() < Envelope.HEADER_LENGTH) {
        fail(in, out, new FrameError(lastVersion, 0, "Self-contained segment ends inside an envelope header ("
            + payload.readableBytes() + " bytes left, expected: >= " + Envelope.HEADER_LENGTH + ")", true));
        return;
      }
      int at = payload.readerIndex();
      int length = payload.getInt(at + 5);
      if (length < 0 || length > payload.readableBytes() - Envelope.HEADER_LENGTH) {
        fail(in, out, new FrameError(lastVersion, payload.getShort(at + 2), "Envelope body length " + length
            + " does not fit its self-contained segment (expected: 0.."
            + (payload.readableBytes() - Envelope.HEADER_LENGTH) + ")", true));
        return;
      }
      emitEnvelope(payload.readRetainedSlice(Envelope.HEADER_LENGTH + length), out);
    }
  }

  private void readPart(ByteBuf payload, ByteBuf in, List<Object> out) {
    if (oversizedEnvelopeBytesToSkip > 0) {
      oversizedEnvelopeBytesToSkip = Math.max(0, oversizedEnvelopeBytesToSkip - payload.readableBytes());
      return;
    }
    if (partialEnvelope == null) {
      if (payload.readableBytes() < Envelope.HEADER_LENGTH) {
        fail(in, out, new FrameError(lastVersion, 0,
            "First segment of a multi-segment envelope is shorter than an envelope header", true));
        return;
      }
      int length = payload.getInt(payload.readerIndex() + 5);
      int stream = payload.getShort(payload.readerIndex() + 2);
      if (length < 0) {
        fail(in, out, new FrameError(lastVersion, stream, "Invalid envelope body length: " + length, true));
        return;
      }
      long total = (long) length + Envelope.HEADER_LENGTH;
      if (total > maxFrameBytes) {
        // Answer now and drop the following segments' bytes: they only carry this envelope.
        out.add(new FrameError(lastVersion, stream, tooBig(length), false));
        oversizedEnvelopeBytesToSkip = Math.max(0, total - payload.readableBytes());
        return;
      }
      // Grow as segments arrive rather than trusting the declared length up front.
      partialEnvelope = Unpooled.buffer((int) Math.min(total, INITIAL_PARTIAL_ENVELOPE_BYTES), (int) total);
      partialEnvelopeLength = (int) total;
    }
    int missing = partialEnvelopeLength - partialEnvelope.readableBytes();
    if (payload.readableBytes() > missing) {
      fail(in, out, new FrameError(lastVersion, 0, "Segment carries " + payload.readableBytes()
          + " bytes but the envelope being assembled needs only " + missing, true));
      return;
    }
    partialEnvelope.writeBytes(payload);
    if (partialEnvelope.readableBytes() == partialEnvelopeLength) {
      ByteBuf whole = partialEnvelope;
      partialEnvelope = null;
      emitEnvelope(whole, out);
    }
  }

  /** {@code bytes} holds exactly one envelope (header and body); ownership passes to the envelope. */
  private void emitEnvelope(ByteBuf bytes, List<Object> out) {
    int first = bytes.readUnsignedByte();
    int flags = bytes.readUnsignedByte();
    int stream = bytes.readShort();
    int opcode = bytes.readUnsignedByte();
    bytes.skipBytes(4);
    out.add(new Envelope(first & Envelope.VERSION_MASK, flags, stream, opcode, bytes));
  }

  private void fail(ByteBuf in, List<Object> out, FrameError error) {
    failed = true;
    in.skipBytes(in.readableBytes());
    out.add(error);
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (partialEnvelope != null) {
      partialEnvelope.release();
      partialEnvelope = null;
    }
  }

  private static long readLittleEndian(ByteBuf buf, int index, int byteCount) {
    long v = 0;
    for (int i = 0; i < byteCount; i++) {
      v |= (long) buf.getUnsignedByte(index + i) << (8 * i);
    }
    return v;
  }
}
