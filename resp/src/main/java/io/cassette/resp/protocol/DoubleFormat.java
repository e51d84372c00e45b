package io.cassette.resp.protocol;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Formats doubles as Redis 7.0 does. Scores and RESP2 doubles use C's {@code %.17g}
 * (an integral value within 2^53 prints as an integer); INCRBYFLOAT uses the shortest
 * human-friendly decimal (Redis prints a long double with trailing zeros trimmed).
 */
public final class DoubleFormat {
  private static final double MAX_EXACT_INTEGER = 9007199254740992.0; // 2^53
  private static final MathContext SEVENTEEN_DIGITS = new MathContext(17);

  private DoubleFormat() {}

  /** C's {@code %.17g} with Redis's special cases for infinities and integers. */
  public static String g17(double d) {
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (d == Math.rint(d) && Math.abs(d) < MAX_EXACT_INTEGER) {
      if (d == 0 && 1 / d < 0) {
        return "-0";
      }
      return Long.toString((long) d);
    }
    BigDecimal rounded = new BigDecimal(d).round(SEVENTEEN_DIGITS);
    int exponent = rounded.precision() - rounded.scale() - 1;
    if (exponent < -4 || exponent >= 17) {
      BigDecimal mantissa = rounded.movePointLeft(exponent).stripTrailingZeros();
      String m = mantissa.toPlainString();
      String sign = exponent < 0 ? "-" : "+";
      int abs = Math.abs(exponent);
      return m + "e" + sign + (abs < 10 ? "0" : "") + abs;
    }
    return rounded.stripTrailingZeros().toPlainString();
  }

  /** RESP3's double form: shortest round-trip digits, inf/-inf/nan. */
  public static String resp3(double d) {
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (Double.isNaN(d)) {
      return "nan";
    }
    return g17(d);
  }

  /** INCRBYFLOAT's reply: a plain decimal with no exponent and no trailing zeros. */
  public static String human(double d) {
    if (d == Math.rint(d) && Math.abs(d) < MAX_EXACT_INTEGER) {
      return Long.toString((long) d);
    }
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }
}
