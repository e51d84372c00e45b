package io.cassette.cluster.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * Packs messages into frames ({@link FrameFormat}): small messages share a frame until it is
 * full; a message bigger than a frame is split across frames. Finished frames go to the sink
 * (the channel's write). Not thread-safe: one per connection, used on its event loop.
 */
final class FrameWriter {
  private final ByteBufAllocator alloc;
  private final int maxPayload;
  private final Consumer<ByteBuf> sink;
  private final CRC32 crc = new CRC32();
  private ByteBuf frame; // open self-contained frame, writerIndex past the header

  FrameWriter(ByteBufAllocator alloc, int maxPayload, Consumer<ByteBuf> sink) {
    if (maxPayload < MessageSerializer.OVERHEAD_BYTES || maxPayload > FrameFormat.MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException("frame payload: " + maxPayload + " (expected: "
          + MessageSerializer.OVERHEAD_BYTES + ".." + FrameFormat.MAX_PAYLOAD_BYTES + ")");
    }
    this.alloc = alloc;
    this.maxPayload = maxPayload;
    this.sink = sink;
  }

  /** Appends one message; it is on the wire after the next {@link #flush()} at the latest. */
  void write(Message m) {
    int size = 4 + MessageSerializer.bodySize(m);
    if (size > maxPayload) {
      flush();
      writeSplit(m, size);
      return;
    }
    if (frame != null && frame.writerIndex() - FrameFormat.HEADER_BYTES + size > maxPayload) flush();
    if (frame == null) {
      frame = alloc.buffer(FrameFormat.OVERHEAD_BYTES + Math.max(size, Math.min(maxPayload, 4096)));
      frame.writerIndex(FrameFormat.HEADER_BYTES);
    }
    MessageSerializer.write(m, frame);
  }

  /** Closes the open frame, if any, and hands it to the sink. */
  void flush() {
    if (frame == null) return;
    ByteBuf f = frame;
    frame = null;
    seal(f, true);
    sink.accept(f);
  }

  /** Drops the open frame (connection closing). */
  void discard() {
    if (frame != null) {
      frame.release();
      frame = null;
    }
  }

  private void writeSplit(Message m, int size) {
    ByteBuf whole = alloc.buffer(size);
    try {
      MessageSerializer.write(m, whole);
      while (whole.isReadable()) {
        int n = Math.min(maxPayload, whole.readableBytes());
        ByteBuf f = alloc.buffer(FrameFormat.OVERHEAD_BYTES + n);
        f.writerIndex(FrameFormat.HEADER_BYTES);
        f.writeBytes(whole, n);
        seal(f, false);
        sink.accept(f);
      }
    } finally {
      whole.release();
    }
  }

  /** Fills in the header of a frame whose payload starts at HEADER_BYTES and appends CRC32. */
  private void seal(ByteBuf f, boolean selfContained) {
    int payloadLength = f.writerIndex() - FrameFormat.HEADER_BYTES;
    crc.reset();
    crc.update(f.nioBuffer(FrameFormat.HEADER_BYTES, payloadLength));
    f.writeInt((int) crc.getValue());
    int header = payloadLength | (selfContained ? FrameFormat.SELF_CONTAINED_BIT : 0);
    f.setMediumLE(0, header);
    f.setMediumLE(3, Crc24.of(header, 3));
  }
}
