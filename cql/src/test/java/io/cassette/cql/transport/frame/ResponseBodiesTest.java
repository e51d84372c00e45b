package io.cassette.cql.transport.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** A v5 answer framed in its body's own buffer is the same bytes as one framed by a copy. */
class ResponseBodiesTest {
  @Test
  void aSegmentWrittenInPlaceIsByteForByteTheCopiedOne() {
    for (int length : new int[] {0, 4, 300, 5_000}) {
      byte[] rows = new byte[length];
      for (int i = 0; i < length; i++) {
        rows[i] = (byte) (i * 31 + 7);
      }
      ByteBuf inPlace = ResponseBodies.buffer(UnpooledByteBufAllocator.DEFAULT, 16); // grows past 16
      inPlace.writeBytes(rows);
      assertThat(frame(inPlace)).isEqualTo(frame(Unpooled.wrappedBuffer(rows)));
    }
  }

  private static String frame(ByteBuf body) {
    FrameEncoder encoder = new FrameEncoder();
    encoder.switchToSegments(false);
    EmbeddedChannel channel = new EmbeddedChannel(encoder);
    channel.writeOutbound(new Envelope(5, Envelope.FLAG_WARNING, 0x1234, 0x08, body));
    ByteBuf out = channel.readOutbound();
    try {
      assertThat(channel.<Object>readOutbound()).isNull();
      return ByteBufUtil.hexDump(out);
    } finally {
      out.release();
      channel.finishAndReleaseAll();
    }
  }
}
