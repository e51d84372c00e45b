package io.cassette.resp.command;

import java.nio.charset.StandardCharsets;

/** Parsing of command arguments with Redis's rules and error texts. */
public final class Args {
  private Args() {}

  public static String str(byte[] arg) {
    return new String(arg, StandardCharsets.UTF_8);
  }

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** ASCII case-insensitive comparison with an upper- or lower-case keyword. */
  public static boolean is(byte[] arg, String keyword) {
    if (arg.length != keyword.length()) {
      return false;
    }
    for (int i = 0; i < arg.length; i++) {
      int a = arg[i] & 0xFF;
      int k = keyword.charAt(i);
      if (a != k && Character.toLowerCase(a) != Character.toLowerCase(k)) {
        return false;
      }
    }
    return true;
  }

  /** Redis's string2ll: optional '-', no '+', no spaces, no leading zeros; null if invalid. */
  public static Long parseLongOrNull(byte[] s) {
    int len = s.length;
    if (len == 0 || len > 20) {
      return null;
    }
    if (len == 1 && s[0] == '0') {
      return 0L;
    }
    int i = 0;
    boolean negative = false;
    if (s[0] == '-') {
      negative = true;
      i = 1;
      if (len == 1) {
        return null;
      }
    }
    if (s[i] < '1' || s[i] > '9') {
      return null;
    }
    long v = 0; // accumulate negatively to reach Long.MIN_VALUE
    for (; i < len; i++) {
      int d = s[i] - '0';
      if (d < 0 || d > 9) {
        return null;
      }
      if (v < (Long.MIN_VALUE + d) / 10) {
        return null;
      }
      v = v * 10 - d;
    }
    if (!negative) {
      if (v == Long.MIN_VALUE) {
        return null;
      }
      return -v;
    }
    return v;
  }

  public static long parseLong(byte[] s) {
    Long v = parseLongOrNull(s);
    if (v == null) {
      throw new RedisException(Errors.NOT_INTEGER);
    }
    return v;
  }

  /**
   * A count Redis reads with getRangeLongFromObjectOrReply(-LONG_MAX, LONG_MAX): its negation
   * must not overflow (SRANDMEMBER, HRANDFIELD, ZRANDMEMBER).
   */
  public static long parseNegatableLong(byte[] s) {
    long v = parseLong(s);
    if (v == Long.MIN_VALUE) {
      throw new RedisException("ERR value is out of range, value must between "
          + "-9223372036854775807 and 9223372036854775807");
    }
    return v;
  }

  /** Redis's getIntFromObjectOrReply: an integer that must fit 32 bits, with its texts. */
  public static int parseIntInRange(byte[] s) {
    long v = parseLong(s);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new RedisException("ERR value is out of range, value must between -2147483648 and "
          + "2147483647");
    }
    return (int) v;
  }

  public static int parseInt(byte[] s) {
    long v = parseLong(s);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new RedisException(Errors.NOT_INTEGER);
    }
    return (int) v;
  }

  /** Redis's strtod-based parse: no spaces, no NaN, "inf"/"+inf"/"-inf" allowed; null if bad. */
  public static Double parseDoubleOrNull(byte[] s) {
    if (s.length == 0 || s.length > 5000) {
      return null;
    }
    Double plain = plainInteger(s);
    if (plain != null) {
      return plain;
    }
    String t = new String(s, StandardCharsets.US_ASCII);
    if (Character.isWhitespace(t.charAt(0)) || Character.isWhitespace(t.charAt(t.length() - 1))) {
      return null;
    }
    String lower = t.toLowerCase();
    switch (lower) {
      case "inf", "+inf", "infinity", "+infinity" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-inf", "-infinity" -> {
        return Double.NEGATIVE_INFINITY;
      }
      default -> { }
    }
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'
          || c == 'x' || c == 'X' || c == 'p' || c == 'P' || (c >= 'a' && c <= 'f')
          || (c >= 'A' && c <= 'F'))) {
        return null;
      }
    }
    try {
      double d;
      if (lower.contains("x")) {
        d = Double.parseDouble(lower.contains("p") ? t : t + "p0");
      } else {
        for (int i = 0; i < lower.length(); i++) {
          char c = lower.charAt(i);
          if ((c >= 'a' && c <= 'd') || c == 'f') {
            return null; // hex digits without "0x"
          }
        }
        d = Double.parseDouble(t);
      }
      if (Double.isNaN(d) || Double.isInfinite(d) || (d == 0 && !zeroMantissa(lower))) {
        return null; // strtod's ERANGE: overflow to HUGE_VAL or underflow to zero
      }
      return d;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The common score, an integer of at most 15 digits (exact as a double, as strtod reads it;
   * "-0" is -0.0), without building Strings; null for anything else.
   */
  private static Double plainInteger(byte[] s) {
    int i = s[0] == '-' || s[0] == '+' ? 1 : 0;
    if (s.length == i || s.length - i > 15) {
      return null;
    }
    long v = 0;
    for (; i < s.length; i++) {
      int d = s[i] - '0';
      if (d < 0 || d > 9) {
        return null;
      }
      v = v * 10 + d;
    }
    return s[0] == '-' ? -(double) v : (double) v;
  }

  /** True when the decimal digits before any exponent are all zero ("0.0e5", "-0"). */
  private static boolean zeroMantissa(String lower) {
    int end = lower.contains("x") ? lower.indexOf('p') : lower.indexOf('e');
    String mantissa = end < 0 ? lower : lower.substring(0, end);
    if (lower.contains("x")) {
      mantissa = mantissa.substring(mantissa.indexOf('x') + 1);
    }
    for (int i = 0; i < mantissa.length(); i++) {
      char c = mantissa.charAt(i);
      if (c != '0' && c != '.' && c != '-' && c != '+') {
        return false;
      }
    }
    return true;
  }

  public static double parseDouble(byte[] s) {
    Double d = parseDoubleOrNull(s);
    if (d == null) {
      throw new RedisException(Errors.NOT_FLOAT);
    }
    return d;
  }
}
