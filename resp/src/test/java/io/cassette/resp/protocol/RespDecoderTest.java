package io.cassette.resp.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decoder state machine fed through an EmbeddedChannel. */
class RespDecoderTest {
  private static final RespLimits LIMITS = new RespLimits(1024, 100, 256);

  private static List<Object> feed(boolean authenticated, byte[]... chunks) {
    EmbeddedChannel ch = new EmbeddedChannel(new RespDecoder(LIMITS, authenticated));
    for (byte[] c : chunks) {
      ch.writeInbound(Unpooled.wrappedBuffer(c));
    }
    List<Object> out = new ArrayList<>();
    Object o;
    while ((o = ch.readInbound()) != null) {
      out.add(o);
    }
    ch.finishAndReleaseAll();
    return out;
  }

  private static List<String> args(Object request) {
    List<String> out = new ArrayList<>();
    for (byte[] a : ((Request) request).args()) {
      out.add(new String(a, StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  void decodesWhenFedOneByteAtATime() {
    byte[] all = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\nPING\r\n*0\r\n*1\r\n$4\r\nPING\r\n"
        .getBytes(StandardCharsets.US_ASCII);
    byte[][] chunks = new byte[all.length][];
    for (int i = 0; i < all.length; i++) {
      chunks[i] = new byte[] {all[i]};
    }
    List<Object> out = feed(true, chunks);
    assertThat(out).hasSize(3);
    assertThat(args(out.get(0))).containsExactly("SET", "k", "");
    assertThat(args(out.get(1))).containsExactly("PING");
    assertThat(args(out.get(2))).containsExactly("PING");
  }

  @Test
  void inlineQuotingFollowsSdssplitargs() {
    List<Object> out = feed(true,
        "SET \"a\\tb\\x41\" 'it\\'s' plain\r\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(args(out.get(0))).containsExactly("SET", "a\tbA", "it's", "plain");
    assertThat(feed(true, "GET \"a\"b\r\n".getBytes(StandardCharsets.US_ASCII)))
        .containsExactly(new ProtocolError("Protocol error: unbalanced quotes in request",
            "inline request with open quote"));
  }

  @Test
  void limitsNameTheValueAndTheBound() {
    Object tooMany = feed(true, "*101\r\n".getBytes(StandardCharsets.US_ASCII)).get(0);
    assertThat(tooMany).isEqualTo(new ProtocolError("Protocol error: invalid multibulk length",
        "length: 101 (expected: <= 100)"));
    Object tooLong = feed(true, "*1\r\n$1025\r\n".getBytes(StandardCharsets.US_ASCII)).get(0);
    assertThat(tooLong).isEqualTo(new ProtocolError("Protocol error: invalid bulk length",
        "length: 1025 (expected: <= 1024)"));
    Object beforeAuth = feed(false, "*11\r\n".getBytes(StandardCharsets.US_ASCII)).get(0);
    assertThat(((ProtocolError) beforeAuth).message())
        .isEqualTo("Protocol error: unauthenticated multibulk length");
    Object negative = feed(true, "*1\r\n$-3\r\n".getBytes(StandardCharsets.US_ASCII)).get(0);
    assertThat(((ProtocolError) negative).message()).isEqualTo("Protocol error: invalid bulk length");
  }

  @Test
  void everythingAfterAnErrorIsDiscarded() {
    List<Object> out = feed(true, "*x\r\n*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII),
        "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(out).hasSize(1).first().isInstanceOf(ProtocolError.class);
  }
}
