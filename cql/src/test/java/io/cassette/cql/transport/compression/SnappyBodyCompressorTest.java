package io.cassette.cql.transport.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The CQL side of Snappy (the codec itself is tested in storage against iq80's). */
class SnappyBodyCompressorTest {
  private final SnappyBodyCompressor snappy = SnappyBodyCompressor.INSTANCE;

  @Test
  void bodiesRoundTrip() {
    byte[] body = "SELECT k, v FROM ks.kv WHERE k = ?".repeat(100).getBytes(StandardCharsets.UTF_8);
    ByteBuf packed = snappy.compress(Unpooled.wrappedBuffer(body));
    assertThat(packed.readableBytes()).isLessThan(body.length / 10);
    assertThat(ByteBufUtil.getBytes(snappy.decompress(packed, body.length))).isEqualTo(body);
  }

  @Test
  void oversizedOrCorruptBodiesAreCompressionErrorsWithAReason() {
    ByteBuf packed = snappy.compress(Unpooled.wrappedBuffer("hello hello hello hello hello".getBytes(StandardCharsets.UTF_8)));
    assertThatThrownBy(() -> snappy.decompress(packed.duplicate(), 10))
        .isInstanceOf(CompressionException.class).hasMessageContaining("expected: <= 10");
    assertThatThrownBy(() -> snappy.decompress(packed.slice(0, packed.readableBytes() - 2), 1000))
        .isInstanceOf(CompressionException.class).hasMessageContaining("Snappy");
    ByteBuf badOffset = Unpooled.wrappedBuffer(new byte[] {10, 0b0000_0001 | (5 << 2), 100}); // copy before any output
    assertThatThrownBy(() -> snappy.decompress(badOffset, 1000))
        .isInstanceOf(CompressionException.class).hasMessageContaining("out of bounds");
  }
}
