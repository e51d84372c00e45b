package io.cassette.resp.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Args.parseDoubleOrNull: the integer fast path reads as strtod does, the rest as before. */
class ArgsDoubleTest {
  private static Double parse(String s) {
    return Args.parseDoubleOrNull(s.getBytes());
  }

  @Test
  void integersDecimalsAndRefusals() {
    assertThat(parse("0")).isEqualTo(0.0);
    assertThat(Double.doubleToRawLongBits(parse("-0"))).isEqualTo(Double.doubleToRawLongBits(-0.0));
    assertThat(parse("+5")).isEqualTo(5.0);
    assertThat(parse("-123456789012345")).isEqualTo(-123456789012345.0);
    assertThat(parse("12345678901234567890")).isEqualTo(12345678901234567890.0); // past the fast path
    assertThat(parse("1.5")).isEqualTo(1.5);
    assertThat(parse("1e3")).isEqualTo(1000.0);
    assertThat(parse("0x10")).isEqualTo(16.0);
    assertThat(parse("-inf")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(parse("-")).isNull();
    assertThat(parse("+")).isNull();
    assertThat(parse("1a")).isNull();
    assertThat(parse("ab")).isNull();
    assertThat(parse(" 1")).isNull();
    assertThat(parse("1e999")).isNull();
  }
}
