package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.metrics.MetricsRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Frames in and out without sockets: packing, splitting, and every checksum and bound. */
class FrameCodecTest {
  static final InetSocketAddress PEER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7000);

  static Message msg(long id, Verb verb, byte[] payload) {
    return Message.out(verb, payload).stamped(id, Message.FLAG_EXPECTS_RESPONSE, 7, 1_700_000_000_000L, 2000);
  }

  static ByteBuf encode(int maxPayload, Message... messages) {
    List<ByteBuf> frames = new ArrayList<>();
    FrameWriter w = new FrameWriter(ByteBufAllocator.DEFAULT, maxPayload, frames::add);
    for (Message m : messages) w.write(m);
    w.flush();
    return Unpooled.wrappedBuffer(frames.toArray(new ByteBuf[0]));
  }

  static EmbeddedChannel decoder(InternodeMetrics metrics) {
    return new EmbeddedChannel(new FrameDecoder(PEER, 1 << 20, metrics));
  }

  @Test
  void crc24MatchesTheReferenceAlgorithm() {
    // Bitwise CRC-24 (init 0x875060, poly 0x1974F0B) of bytes 01 02 03, computed independently.
    int crc = 0x875060;
    for (int b : new int[] {1, 2, 3}) {
      crc ^= b << 16;
      for (int i = 0; i < 8; i++) {
        crc <<= 1;
        if ((crc & 0x1000000) != 0) crc ^= 0x1974F0B;
      }
    }
    assertThat(Crc24.of(0x030201, 3)).isEqualTo(crc & 0xffffff);
    assertThat(Crc24.of(0x030201, 3)).isNotEqualTo(Crc24.of(0x030202, 3));
  }

  @Test
  void smallMessagesShareFramesAndRoundTrip() {
    Message a = msg(1, Verb.MUTATION_REQ, "alpha".getBytes());
    Message b = msg(2, Verb.READ_RSP, new byte[0]);
    ByteBuf wire = encode(FrameFormat.MAX_PAYLOAD_BYTES, a, b);
    assertThat(wire.readableBytes()).isEqualTo(FrameFormat.OVERHEAD_BYTES + 2 * MessageSerializer.OVERHEAD_BYTES + 5);
    EmbeddedChannel ch = decoder(new InternodeMetrics(new MetricsRegistry()));
    ch.writeInbound(wire);
    Message ra = ch.readInbound();
    Message rb = ch.readInbound();
    assertThat(ra).isEqualTo(a);
    assertThat(ra.from()).isEqualTo(PEER);
    assertThat(ra.epoch()).isEqualTo(7);
    assertThat(ra.createdAtMillis()).isEqualTo(1_700_000_000_000L);
    assertThat(ra.expiresInMillis()).isEqualTo(2000);
    assertThat(rb).isEqualTo(b);
  }

  @Test
  void bigMessagesAreSplitAndSurviveByteAtATimeDelivery() {
    byte[] big = new byte[1000];
    for (int i = 0; i < big.length; i++) big[i] = (byte) i;
    Message m = msg(9, Verb.RANGE_RSP, big);
    ByteBuf wire = encode(100, msg(8, Verb.PING_REQ, new byte[0]), m, msg(10, Verb.PING_RSP, new byte[0]));
    EmbeddedChannel ch = decoder(new InternodeMetrics(new MetricsRegistry()));
    while (wire.isReadable()) ch.writeInbound(wire.readRetainedSlice(1));
    assertThat(((Message) ch.readInbound()).id()).isEqualTo(8);
    Message r = ch.readInbound();
    assertThat(r.payload()).isEqualTo(big);
    assertThat(((Message) ch.readInbound()).id()).isEqualTo(10);
  }

  @Test
  void everySingleBitFlipIsDetected() {
    ByteBuf clean = encode(FrameFormat.MAX_PAYLOAD_BYTES, msg(1, Verb.MUTATION_REQ, "payload bytes".getBytes()));
    int bits = clean.readableBytes() * 8;
    for (int bit = 0; bit < bits; bit++) {
      // Every header and trailer bit, every 5th payload bit: enough, and quick.
      boolean edge = bit < FrameFormat.HEADER_BYTES * 8 || bit >= bits - FrameFormat.TRAILER_BYTES * 8;
      if (!edge && bit % 5 != 0) continue;
      ByteBuf bad = clean.copy();
      bad.setByte(bit / 8, bad.getByte(bit / 8) ^ (1 << (bit % 8)));
      InternodeMetrics metrics = new InternodeMetrics(new MetricsRegistry());
      EmbeddedChannel ch = decoder(metrics);
      // A flipped length bit can leave the decoder waiting for bytes that never come: also safe.
      try {
        ch.writeInbound(bad);
        assertThat((Object) ch.readInbound()).as("bit " + bit).isNull();
      } catch (CorruptFrameException e) {
        assertThat(metrics.corruptFrameCount()).isEqualTo(1);
      }
      ch.finishAndReleaseAll();
    }
  }

  @Test
  void aCorruptPayloadNamesThePeerAndTheChecksums() {
    ByteBuf bad = encode(FrameFormat.MAX_PAYLOAD_BYTES, msg(1, Verb.MUTATION_REQ, "payload".getBytes()));
    bad.setByte(FrameFormat.HEADER_BYTES + 3, bad.getByte(FrameFormat.HEADER_BYTES + 3) ^ 0x40);
    EmbeddedChannel ch = decoder(new InternodeMetrics(new MetricsRegistry()));
    assertThatThrownBy(() -> ch.writeInbound(bad)).isInstanceOf(CorruptFrameException.class)
        .hasMessageContaining("payload CRC32 mismatch").hasMessageContaining(PEER.toString());
  }

  @Test
  void aSplitMessageAboveTheLimitIsRefusedBeforeBuffering() {
    ByteBuf wire = encode(100, msg(1, Verb.MUTATION_REQ, new byte[5000]));
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(PEER, 4096, new InternodeMetrics(new MetricsRegistry())));
    assertThatThrownBy(() -> ch.writeInbound(wire)).isInstanceOf(CorruptFrameException.class)
        .hasMessageContaining("internode_max_message_size");
  }

  @Test
  void unknownVerbsAreSkippedNotFatal() {
    ByteBuf wire = encode(FrameFormat.MAX_PAYLOAD_BYTES, msg(1, Verb.MUTATION_REQ, "a".getBytes()),
        msg(2, Verb.MUTATION_REQ, "b".getBytes()));
    // Rewrite the first message's verb id (after frame header, size prefix and id) to 999: unknown.
    wire.setShort(FrameFormat.HEADER_BYTES + 4 + 8, 999);
    // ... and fix the payload CRC32 so the frame itself is sound.
    int len = wire.readableBytes() - FrameFormat.OVERHEAD_BYTES;
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(wire.nioBuffer(FrameFormat.HEADER_BYTES, len));
    wire.setInt(FrameFormat.HEADER_BYTES + len, (int) crc.getValue());
    InternodeMetrics metrics = new InternodeMetrics(new MetricsRegistry());
    EmbeddedChannel ch = decoder(metrics);
    ch.writeInbound(wire);
    assertThat(((Message) ch.readInbound()).payloadAsString()).isEqualTo("b");
    assertThat((Object) ch.readInbound()).isNull();
  }

  @Test
  void handshakeRoundTripsAndRejectsStrangers() {
    Handshake.Hello hello = new Handshake.Hello(1, 1, ConnectionType.URGENT, 5, java.util.UUID.randomUUID(),
        new InetSocketAddress(TestRing.address(1), 7000), "Board Ring");
    ByteBuf b = Handshake.encode(ByteBufAllocator.DEFAULT, hello);
    assertThat(Handshake.decode(b.readRetainedSlice(7))).isNull(); // incomplete: wait
    b.readerIndex(0);
    assertThat(Handshake.decode(b)).isEqualTo(hello);
    ByteBuf cql = Unpooled.wrappedBuffer(new byte[] {5, 0, 0, 1, 5, 0, 0, 0, 0});
    assertThatThrownBy(() -> Handshake.decode(cql)).isInstanceOf(Handshake.BadHandshakeException.class)
        .hasMessageContaining("not an internode handshake");
  }
}
