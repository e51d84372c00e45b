package io.cassette.cql.transport.frame;

import static io.cassette.cql.transport.frame.SegmentFormat.COMPRESSED_HEADER_LENGTH;
import static io.cassette.cql.transport.frame.SegmentFormat.CRC32_LENGTH;
import static io.cassette.cql.transport.frame.SegmentFormat.LENGTH_MASK;
import static io.cassette.cql.transport.frame.SegmentFormat.UNCOMPRESSED_HEADER_LENGTH;

import io.cassette.cql.ErrorCode;
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
 * A frame longer than {@code maxFrameBytes} (v5 envelope: body longer than
 * {@code maxMessageBytes}) is skipped (its bytes are read and dropped) and answered with
 * Cassandra's INVALID error on its stream, so the connection survives; a bad version, a
 * negative length or a checksum mismatch is fatal: nothing after it can be trusted.
 *
 * <p>Memory: before buffering a request's body the decoder reserves its size from the
 * {@link Admission} (request data in flight, node-wide and per client). When it does not fit,
 * reading from this socket stops until bytes are released (or, with throw-on-overload, the
 * request is skipped and answered OVERLOADED), so bodies announced by many clients are never
 * buffered beyond the bound. Each emitted envelope's reservation is handed to the connection
 * handler through {@link #takeReservation()}, in emission order.
 *
 * <p>Thread-safety: event-loop confined, like every Netty handler; the mode setters must be
 * called from the event loop (the connection handler does so while processing STARTUP).
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  private final int maxFrameBytes;
  private final int maxMessageBytes;
  private final Admission admission;
  /** Bytes reserved for the frame or envelope being received; 0 when none. */
  private long reservedForCurrent;
  /** Reservations of emitted envelopes not yet taken by the handler, in emission order. */
  private final Reservations reservations = new Reservations();
  /** Reading is paused until the admission wakes us up. */
  private boolean awaitingAdmission;
  private ChannelHandlerContext context;
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
  /** The segment being decoded did not fit the admission under throw-on-overload. */
  private boolean overloadedSegment;
  /** The version of the last good header, to answer fatal segment errors in. */
  private int lastVersion = ProtocolVersions.MAX;

  public FrameDecoder(int maxFrameBytes) {
    this(maxFrameBytes, maxFrameBytes, Admission.UNBOUNDED);
  }

  /**
   * @param maxFrameBytes   largest v3/v4 frame, header included ({@code native_transport_max_frame_size})
   * @param maxMessageBytes largest v5 envelope body ({@code native_transport_max_message_size})
   * @param admission       bounds on request data in flight
   */
  public FrameDecoder(int maxFrameBytes, int maxMessageBytes, Admission admission) {
    this.maxFrameBytes = maxFrameBytes;
    this.maxMessageBytes = maxMessageBytes;
    this.admission = admission;
  }

  /** Reading is paused until request bytes are released elsewhere. Event loop only. */
  public boolean isAwaitingAdmission() {
    return awaitingAdmission;
  }

  /** The reservation of the oldest emitted envelope not yet taken (0 if it had none). Event loop only. */
  public long takeReservation() {
    return reservations.isEmpty() ? 0 : reservations.poll();
  }

  /**
   * Reserves {@code bytes} for the request about to be buffered. When they do not fit, either
   * pauses reading until a release wakes us up (returns false, nothing consumed), or with
   * throw-on-overload returns false after the caller has been told to skip (see callers).
   */
  private boolean reserve(long bytes) {
    if (reservedForCurrent > 0) {
      return true;
    }
    if (admission.tryReserve(bytes, this::wakeUp)) {
      reservedForCurrent = bytes;
      return true;
    }
    if (!admission.throwOnOverload()) {
      awaitingAdmission = true;
      context.channel().config().setAutoRead(false);
      scheduleCloseProbe(context);
    }
    return false;
  }

  /**
   * While reading is paused the selector does not report the client's close, so a client gone
   * while waiting would keep its connection slot until the idle timeout: now and then read a
   * few bytes (see {@link PausedReadAllocator}) to see it. A client that keeps sending its body
   * is alive; it stops being probed once {@link #PROBE_MAX_BUFFERED} bytes wait here.
   */
  private void scheduleCloseProbe(ChannelHandlerContext ctx) {
    if (probeScheduled || !ctx.channel().isActive()) {
      return;
    }
    probeScheduled = true;
    ctx.executor().schedule(() -> {
      probeScheduled = false;
      if (!awaitingAdmission || ctx.isRemoved() || !ctx.channel().isActive()) {
        return;
      }
      ByteBuf buffered = internalBuffer();
      if (buffered.readableBytes() < PROBE_MAX_BUFFERED) {
        ctx.read();
        scheduleCloseProbe(ctx);
      }
    }, PROBE_INTERVAL_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** How often a connection paused for admission is checked for its client's close. */
  static final long PROBE_INTERVAL_MILLIS = 500;
  /** Bytes of an unadmitted request a paused connection may have buffered by its probes. */
  static final int PROBE_MAX_BUFFERED = 4096;
  private boolean probeScheduled;

  /**
   * While paused for admission only the close probe reads. Netty's decoder asks for another
   * read after every read that decoded nothing when auto-read is off, which here is every read:
   * a client trickling bytes would have them all read, 64 at a time and without end, into the
   * buffer of a request that was never admitted.
   */
  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    if (awaitingAdmission) {
      discardSomeReadBytes();
      ctx.fireChannelReadComplete();
      return;
    }
    super.channelReadComplete(ctx);
  }

  /** From any thread: capacity was released; resume reading and decode what is buffered. */
  private void wakeUp() {
    ChannelHandlerContext ctx = context;
    ctx.executor().execute(() -> {
      if (!awaitingAdmission || ctx.isRemoved()) {
        return;
      }
      awaitingAdmission = false;
      ctx.channel().config().setAutoRead(true);
      try {
        channelRead(ctx, Unpooled.EMPTY_BUFFER);
      } catch (Exception e) {
        ctx.fireExceptionCaught(e);
      }
    });
  }

  private void emitted(long reservation) {
    reservations.add(reservation);
  }

  private void releaseCurrent() {
    if (reservedForCurrent > 0) {
      admission.release(reservedForCurrent);
      reservedForCurrent = 0;
    }
  }

  private static final String OVERLOADED = "Server is in overloaded state. Cannot accept more requests at this point";

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
    var config = ctx.channel().config();
    config.setRecvByteBufAllocator(new PausedReadAllocator(config.getRecvByteBufAllocator(),
        this::isAwaitingAdmission));
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
    if (awaitingAdmission) {
      return;
    }
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
    if (ProtocolVersions.isBeta(version) && (flags & Envelope.FLAG_USE_BETA) == 0) {
      fail(in, out, new FrameError(version, stream, ProtocolVersions.betaFlagUnsetMessage(version), true));
      return;
    }
    if (length < 0) {
      fail(in, out, new FrameError(version, stream, "Invalid frame body length: " + length
          + " (expected: >= 0)", true));
      return;
    }
    if ((long) length + Envelope.HEADER_LENGTH > maxFrameBytes) {
      skipFrame(in, length);
      out.add(new FrameError(version, stream, ErrorCode.INVALID, tooBig(length), false));
      return;
    }
    if (!reserve((long) length + Envelope.HEADER_LENGTH)) {
      if (admission.throwOnOverload()) {
        skipFrame(in, length);
        out.add(new FrameError(version, stream, ErrorCode.OVERLOADED, OVERLOADED, false));
      }
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
        releaseCurrent();
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
        releaseCurrent();
        out.add(new FrameError(version, stream, "Cannot decompress " + bodyCompressor.name()
            + " frame body: " + e.getMessage(), false));
        return;
      }
      flags &= ~Envelope.FLAG_COMPRESSED;
    }
    out.add(new Envelope(version, flags, stream, opcode, body));
    emitted(reservedForCurrent);
    reservedForCurrent = 0;
  }

  /** Drops the header and {@code length} body bytes of the frame at the reader index, now or as they arrive. */
  private void skipFrame(ByteBuf in, int length) {
    in.skipBytes(Envelope.HEADER_LENGTH);
    bytesToDiscard = length;
    int n = (int) Math.min(bytesToDiscard, in.readableBytes());
    in.skipBytes(n);
    bytesToDiscard -= n;
  }

  /** Cassandra 5.0's answer to a v5 envelope over native_transport_max_message_size (body bytes). */
  private String messageTooBig(long bodyLength) {
    return "CQL Message of size " + bodyLength + " bytes exceeds allowed maximum of " + maxMessageBytes + " bytes";
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
    long need = admissionNeeded(in, payloadStart, payloadLength, uncompressedLength, selfContained);
    if (need > 0 && !reserve(need)) {
      if (!admission.throwOnOverload()) {
        return; // paused: the segment stays buffered and is decoded again on wake-up
      }
      overloadedSegment = true;
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
      if (overloadedSegment) {
        overloadedSegment = false;
        answerOverloaded(payload, selfContained, out);
      } else if (selfContained) {
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
      long own = (long) Envelope.HEADER_LENGTH + length;
      if (length > maxMessageBytes) {
        out.add(new FrameError(lastVersion, payload.getShort(at + 2), ErrorCode.INVALID, messageTooBig(length), false));
        payload.skipBytes((int) own);
        continue;
      }
      emitEnvelope(payload.readRetainedSlice((int) own), out);
      long taken = Math.min(own, reservedForCurrent);
      reservedForCurrent -= taken;
      emitted(taken);
    }
    releaseCurrent();
  }

  /**
   * Bytes to reserve before consuming this segment: its envelopes when self-contained, the
   * whole declared envelope for the first segment of a multi-segment one, else nothing.
   */
  private long admissionNeeded(ByteBuf in, int payloadStart, int payloadLength, int uncompressedLength,
                               boolean selfContained) {
    if (selfContained) {
      return uncompressedLength > 0 ? uncompressedLength : payloadLength;
    }
    if (partialEnvelope != null || oversizedEnvelopeBytesToSkip > 0) {
      return 0;
    }
    int length;
    if (uncompressedLength > 0) {
      try {
        byte[] plain = Lz4Block.decompress(ByteBufUtil.getBytes(in, payloadStart, payloadLength, false), 0,
            payloadLength, uncompressedLength);
        if (plain.length < Envelope.HEADER_LENGTH) {
          return 0;
        }
        length = Unpooled.wrappedBuffer(plain).getInt(5);
      } catch (CompressionException e) {
        return 0; // the decoding proper reports it
      }
    } else {
      if (payloadLength < Envelope.HEADER_LENGTH) {
        return 0;
      }
      length = in.getInt(payloadStart + 5);
    }
    if (length < 0 || length > maxMessageBytes) {
      return 0; // refused without buffering
    }
    return (long) length + Envelope.HEADER_LENGTH;
  }

  /** Throw-on-overload: the segment's requests are answered OVERLOADED and dropped. */
  private void answerOverloaded(ByteBuf payload, boolean selfContained, List<Object> out) {
    if (selfContained) {
      while (payload.readableBytes() >= Envelope.HEADER_LENGTH) {
        int at = payload.readerIndex();
        int length = payload.getInt(at + 5);
        out.add(new FrameError(lastVersion, payload.getShort(at + 2), ErrorCode.OVERLOADED, OVERLOADED, false));
        if (length < 0 || length > payload.readableBytes() - Envelope.HEADER_LENGTH) {
          break;
        }
        payload.skipBytes(Envelope.HEADER_LENGTH + length);
      }
      return;
    }
    int length = payload.getInt(payload.readerIndex() + 5);
    out.add(new FrameError(lastVersion, payload.getShort(payload.readerIndex() + 2), ErrorCode.OVERLOADED,
        OVERLOADED, false));
    oversizedEnvelopeBytesToSkip = Math.max(0, (long) length + Envelope.HEADER_LENGTH - payload.readableBytes());
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
      if (length > maxMessageBytes) {
        // Answer now and drop the following segments' bytes: they only carry this envelope.
        out.add(new FrameError(lastVersion, stream, ErrorCode.INVALID, messageTooBig(length), false));
        oversizedEnvelopeBytesToSkip = Math.max(0, total - payload.readableBytes());
        return;
      }
      // The declared length is reserved (admission), so the buffer is allocated once, whole:
      // no copies while it grows.
      partialEnvelope = Unpooled.buffer((int) total, (int) total);
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
      emitted(reservedForCurrent);
      reservedForCurrent = 0;
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
    releaseCurrent();
    in.skipBytes(in.readableBytes());
    out.add(error);
  }

  /** After the last envelopes were handed on: reservations nobody will take are returned. */
  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    super.channelInactive(ctx);
    releaseAll();
  }

  private void releaseAll() {
    awaitingAdmission = false;
    releaseCurrent();
    while (!reservations.isEmpty()) {
      admission.release(reservations.poll());
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (partialEnvelope != null) {
      partialEnvelope.release();
      partialEnvelope = null;
    }
    releaseAll();
  }

  private static long readLittleEndian(ByteBuf buf, int index, int byteCount) {
    long v = 0;
    for (int i = 0; i < byteCount; i++) {
      v |= (long) buf.getUnsignedByte(index + i) << (8 * i);
    }
    return v;
  }

  /** A FIFO of longs, grown by doubling: an ArrayDeque of Long boxed every frame's reservation. */
  private static final class Reservations {
    private long[] ring = new long[16];
    private int head;
    private int size;

    boolean isEmpty() {
      return size == 0;
    }

    void add(long r) {
      if (size == ring.length) {
        long[] bigger = new long[ring.length * 2];
        for (int i = 0; i < size; i++) {
          bigger[i] = ring[(head + i) & (ring.length - 1)];
        }
        ring = bigger;
        head = 0;
      }
      ring[(head + size++) & (ring.length - 1)] = r;
    }

    /** The oldest; call only when not empty. */
    long poll() {
      long r = ring[head];
      head = (head + 1) & (ring.length - 1);
      size--;
      return r;
    }
  }
}
