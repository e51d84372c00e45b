package io.cassette.resp.protocol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * INCRBYFLOAT arithmetic as Redis does it on x86-64: values are C {@code long double}s (64-bit
 * mantissa), parsed with strtold, added, and printed with {@code "%.17Lf"} minus trailing
 * zeros. Emulated exactly with BigDecimal so "10.5 + 0.1" prints "10.6" and
 * "5.6 + 5000" prints "5005.60000000000000009", as real Redis does.
 */
public final class LongDouble {
  private static final int MANTISSA_BITS = 64;
  private static final int PRINT_DECIMALS = 17;

  private LongDouble() {}

  /** Parses a decimal the way strtold would read it (then rounds to a long double). */
  public static BigDecimal parse(String text, double parsed) {
    try {
      return round(new BigDecimal(text.trim()));
    } catch (NumberFormatException e) {
      return round(new BigDecimal(parsed)); // hex floats and the like
    }
  }

  /** {@code a + b} rounded to a long double; inputs are decimal texts already validated. */
  public static BigDecimal add(BigDecimal a, BigDecimal b) {
    return round(round(a).add(round(b)));
  }

  /** The nearest value with a 64-bit binary mantissa (round half even). */
  static BigDecimal round(BigDecimal x) {
    if (x.signum() == 0) {
      return BigDecimal.ZERO;
    }
    BigDecimal abs = x.abs();
    // exponent e with 2^63 <= abs / 2^e < 2^64: estimate from the double, then correct
    int e = Math.getExponent(abs.doubleValue()) - (MANTISSA_BITS - 1);
    while (scale(abs, e).compareTo(new BigDecimal(BigInteger.ONE.shiftLeft(MANTISSA_BITS))) >= 0) {
      e++;
    }
    while (scale(abs, e).compareTo(new BigDecimal(BigInteger.ONE.shiftLeft(MANTISSA_BITS - 1))) < 0) {
      e--;
    }
    BigInteger mantissa = scale(abs, e).setScale(0, RoundingMode.HALF_EVEN).toBigInteger();
    BigDecimal r = e >= 0 ? new BigDecimal(mantissa.shiftLeft(e))
        : new BigDecimal(mantissa).divide(new BigDecimal(BigInteger.ONE.shiftLeft(-e)));
    return x.signum() < 0 ? r.negate() : r;
  }

  private static BigDecimal scale(BigDecimal abs, int e) {
    return e >= 0 ? abs.divide(new BigDecimal(BigInteger.ONE.shiftLeft(e)))
        : abs.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(-e)));
  }

  /** {@code "%.17Lf"} with trailing zeros (and a trailing point) removed. */
  public static String format(BigDecimal x) {
    String s = x.setScale(PRINT_DECIMALS, RoundingMode.HALF_EVEN).toPlainString();
    if (s.indexOf('.') >= 0) {
      int end = s.length();
      while (s.charAt(end - 1) == '0') {
        end--;
      }
      if (s.charAt(end - 1) == '.') {
        end--;
      }
      s = s.substring(0, end);
    }
    return s.equals("-0") ? "0" : s;
  }
}
