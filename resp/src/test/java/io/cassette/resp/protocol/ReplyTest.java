package io.cassette.resp.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Reply encoding in both protocols and Redis's number formats. */
class ReplyTest {
  private static String write(int protocol, java.util.function.Consumer<Reply> w) {
    ByteBuf b = Unpooled.buffer();
    Reply r = new Reply();
    r.protocol(protocol);
    r.target(b);
    w.accept(r);
    return b.toString(StandardCharsets.UTF_8);
  }

  @Test
  void resp3TypesDegradeInResp2() {
    assertThat(write(2, r -> r.map(1))).isEqualTo("*2\r\n");
    assertThat(write(3, r -> r.map(1))).isEqualTo("%1\r\n");
    assertThat(write(2, Reply::nullBulk)).isEqualTo("$-1\r\n");
    assertThat(write(3, Reply::nullArray)).isEqualTo("_\r\n");
    assertThat(write(2, r -> r.doubleValue(1.5))).isEqualTo("$3\r\n1.5\r\n");
    assertThat(write(3, r -> r.doubleValue(Double.POSITIVE_INFINITY))).isEqualTo(",inf\r\n");
    assertThat(write(2, r -> r.integer(-9223372036854775808L)))
        .isEqualTo(":-9223372036854775808\r\n");
    assertThat(write(2, r -> r.integer(1234567))).isEqualTo(":1234567\r\n");
    assertThat(write(3, r -> r.push(3))).isEqualTo(">3\r\n");
  }

  @Test
  void aReplyGrowingPastItsBoundStopsBeforeTakingMoreMemory() {
    ByteBuf b = Unpooled.buffer();
    Reply r = new Reply();
    r.target(b);
    r.maxBytes(1000);
    byte[] element = new byte[100];
    r.array(1_000_000); // LRANGE 0 -1 of a long list
    int written = 0;
    try {
      for (int i = 0; i < 1_000_000; i++) {
        r.bulk(element);
        written++;
      }
    } catch (ReplyTooLargeException expected) {
      // the client is closed, as its output limit would close it once the reply is queued
    }
    assertThat(written).isLessThan(20);
    assertThat(b.readableBytes()).isLessThan(1200);
    r.maxBytes(Long.MAX_VALUE);
    r.bulk(element);
  }

  @Test
  void doublesPrintAsRedis70() {
    assertThat(DoubleFormat.g17(1.1)).isEqualTo("1.1000000000000001");
    assertThat(DoubleFormat.g17(2.5e-10)).isEqualTo("2.5000000000000002e-10");
    assertThat(DoubleFormat.g17(1e20)).isEqualTo("1e+20");
    assertThat(DoubleFormat.g17(3)).isEqualTo("3");
    assertThat(DoubleFormat.g17(-0.0)).isEqualTo("-0");
  }

  @Test
  void incrByFloatUsesLongDoubleArithmetic() {
    BigDecimal v = LongDouble.add(new BigDecimal("10.5"), new BigDecimal("0.1"));
    assertThat(LongDouble.format(v)).isEqualTo("10.6");
    // Redis stores the printed text and parses it again for the next increment
    v = LongDouble.add(new BigDecimal(LongDouble.format(v)), new BigDecimal("-5"));
    assertThat(LongDouble.format(v)).isEqualTo("5.6");
    v = LongDouble.add(new BigDecimal(LongDouble.format(v)), new BigDecimal("5.0e3"));
    assertThat(LongDouble.format(v)).isEqualTo("5005.60000000000000009");
    assertThat(LongDouble.format(LongDouble.add(BigDecimal.ONE, BigDecimal.ONE))).isEqualTo("2");
  }
}
