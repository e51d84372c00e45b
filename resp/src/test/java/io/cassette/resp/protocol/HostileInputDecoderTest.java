package io.cassette.resp.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Inputs an attacker chooses, fed straight into the decoder: each must make progress or give
 * a protocol error, and memory must follow the bytes that arrived, not the lengths announced.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileInputDecoderTest {
  private static final RespLimits LIMITS = RespLimits.forHeap(1L << 30); // bulk 32 MB

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static List<Object> drain(EmbeddedChannel ch) {
    List<Object> out = new ArrayList<>();
    Object o;
    while ((o = ch.readInbound()) != null) {
      out.add(o);
    }
    return out;
  }

  @Test
  void nulByteInInlineCommandEndsTheLineAsInRedis() {
    EmbeddedChannel ch = new EmbeddedChannel(new RespDecoder(LIMITS, true));
    ch.writeInbound(Unpooled.wrappedBuffer(bytes("\0\r\nPI\0NG\r\n\"a\0\"\r\n")));
    List<Object> out = drain(ch);
    assertThat(out).hasSize(2); // nothing, then "PI", then unbalanced quotes
    assertThat(new String(((Request) out.get(0)).args()[0], StandardCharsets.US_ASCII))
        .isEqualTo("PI");
    assertThat(((ProtocolError) out.get(1)).message())
        .isEqualTo("Protocol error: unbalanced quotes in request");
    ch.finishAndReleaseAll();
  }

  @Test
  void tlsClientHelloIsAnsweredNotFatal() {
    // The start of a real TLS 1.2 ClientHello, with a '\n' (0x0a) in its random bytes.
    byte[] hello = {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 0x00, (byte) 0xa1, 0x03,
        0x03, 0x00, 0x00, 0x0a, 0x00, 0x17, 0x00, 0x18, 0x00, 0x00, 0x13, 0x01, 0x0d, 0x0a,
        0x00, 0x00, 0x00};
    EmbeddedChannel ch = new EmbeddedChannel(new RespDecoder(LIMITS, false));
    ch.writeInbound(Unpooled.wrappedBuffer(hello));
    for (Object o : drain(ch)) {
      assertThat(o).isInstanceOfAny(Request.class, ProtocolError.class);
    }
    ch.finishAndReleaseAll();
  }

  @Test
  void headerOnlyBulkCostsNothingUntilItsBytesArrive() {
    RequestBudget budget = new RequestBudget(64L << 20);
    RespDecoder decoder = new RespDecoder(() -> LIMITS, budget, true);
    EmbeddedChannel ch = new EmbeddedChannel(decoder);
    ch.writeInbound(Unpooled.wrappedBuffer(bytes("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$15000000\r\n")));
    assertThat(decoder.held()).isLessThan(16 << 10);
    assertThat(budget.used()).isEqualTo(decoder.held());
    byte[] piece = new byte[1_000_000];
    for (int i = 0; i < 15; i++) {
      ch.writeInbound(Unpooled.wrappedBuffer(piece));
      // capacity at most doubles what arrived
      assertThat(decoder.held()).isLessThan(2L * (i + 1) * piece.length + (16 << 10));
    }
    ch.writeInbound(Unpooled.wrappedBuffer(bytes("\r\n")));
    Request r = (Request) drain(ch).get(0);
    assertThat(r.args()[2]).hasSize(15_000_000);
    assertThat(r.budgetBytes()).isEqualTo(budget.used());
    budget.release(r.budgetBytes());
    ch.finishAndReleaseAll();
  }

  @Test
  void hugeArgumentCountCostsNothingUntilArgumentsArrive() {
    RequestBudget budget = new RequestBudget(64L << 20);
    RespDecoder decoder = new RespDecoder(() -> LIMITS, budget, true);
    EmbeddedChannel ch = new EmbeddedChannel(decoder);
    ch.writeInbound(Unpooled.wrappedBuffer(bytes("*" + LIMITS.maxMultibulkLength() + "\r\n")));
    assertThat(decoder.held()).isLessThan(1024);
    ch.close();
    assertThat(budget.used()).isZero(); // a closed connection gives back what it held
  }

  @Test
  void budgetExhaustedIsAProtocolErrorForThatClientOnly() {
    RequestBudget budget = new RequestBudget(4L << 20);
    List<EmbeddedChannel> channels = new ArrayList<>();
    int refused = 0;
    for (int i = 0; i < 8; i++) {
      EmbeddedChannel ch = new EmbeddedChannel(new RespDecoder(() -> LIMITS, budget, true));
      channels.add(ch);
      ch.writeInbound(Unpooled.wrappedBuffer(bytes("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2000000\r\n")));
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[1_500_000]));
      for (Object o : drain(ch)) {
        assertThat(((ProtocolError) o).message()).isEqualTo(RespDecoder.BUDGET_EXHAUSTED);
        refused++;
      }
    }
    assertThat(refused).isGreaterThan(0);
    assertThat(budget.used()).isLessThanOrEqualTo(2 * budget.limit());
    // a small request still gets through: it is within its fair share
    EmbeddedChannel small = new EmbeddedChannel(new RespDecoder(() -> LIMITS, budget, true));
    small.writeInbound(Unpooled.wrappedBuffer(bytes("*1\r\n$4\r\nPING\r\n")));
    assertThat(drain(small).get(0)).isInstanceOf(Request.class);
    for (EmbeddedChannel ch : channels) {
      ch.close();
    }
    assertThat(budget.used()).isLessThan(1024); // only the PING's bytes, not yet released
  }

  @Test
  void inlineLineLongerThan64KiBIsRefused() {
    EmbeddedChannel ch = new EmbeddedChannel(new RespDecoder(LIMITS, true));
    byte[] line = new byte[70_000];
    java.util.Arrays.fill(line, (byte) 'a');
    ch.writeInbound(Unpooled.wrappedBuffer(line));
    ch.writeInbound(Unpooled.wrappedBuffer(bytes("\r\n")));
    List<Object> out = drain(ch);
    assertThat(((ProtocolError) out.get(0)).message())
        .isEqualTo("Protocol error: too big inline request");
    ch.finishAndReleaseAll();
  }

  @Test
  void bulkLongerThanProtoMaxBulkLenIsRefusedAtItsHeader() {
    EmbeddedChannel ch = new EmbeddedChannel(
        new RespDecoder(new RespLimits(1 << 20, 1024, RespLimits.REDIS_MAX_INLINE), true));
    ch.writeInbound(Unpooled.wrappedBuffer(bytes("*2\r\n$3\r\nGET\r\n$1048577\r\n")));
    assertThat(((ProtocolError) drain(ch).get(0)).message())
        .isEqualTo("Protocol error: invalid bulk length");
    ch.finishAndReleaseAll();
  }
}
