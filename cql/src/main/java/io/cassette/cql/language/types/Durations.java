package io.cassette.cql.language.types;

import static io.cassette.cql.language.Errors.invalid;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cassandra's duration: months, days and nanoseconds, each signed, serialized as three
 * zig-zag variable-length integers (Cassandra's VIntCoding).
 */
public final class Durations {
  private static final long NS_PER_US = 1_000L;
  private static final long NS_PER_MS = 1_000_000L;
  private static final long NS_PER_S = 1_000_000_000L;
  private static final long NS_PER_M = 60 * NS_PER_S;
  private static final long NS_PER_H = 60 * NS_PER_M;
  private static final Pattern UNIT = Pattern.compile(
      "(\\d+)(y|Y|mo|MO|Mo|mO|w|W|d|D|h|H|s|S|ms|MS|Ms|mS|us|US|Us|uS|µs|µS|ns|NS|Ns|nS|m|M)");
  private static final Pattern ISO = Pattern.compile(
      "P(?:(\\d+)Y)?(?:(\\d+)M)?(?:(\\d+)D)?(?:T(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+)S)?)?");
  private static final Pattern ISO_WEEK = Pattern.compile("P(\\d+)W");
  private static final Pattern ISO_ALT = Pattern.compile(
      "P(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})");

  /** One duration value. */
  public record Duration(int months, int days, long nanos) {
    public byte[] serialize() {
      ByteArrayOutputStream out = new ByteArrayOutputStream(12);
      writeVInt(out, zigzag(months));
      writeVInt(out, zigzag(days));
      writeVInt(out, zigzag(nanos));
      return out.toByteArray();
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      if (months < 0 || days < 0 || nanos < 0) {
        sb.append('-');
      }
      long m = Math.abs((long) months);
      long d = Math.abs((long) days);
      long n = Math.abs(nanos);
      append(sb, m / 12, "y");
      append(sb, m % 12, "mo");
      append(sb, d, "d");
      append(sb, n / NS_PER_H, "h");
      n %= NS_PER_H;
      append(sb, n / NS_PER_M, "m");
      n %= NS_PER_M;
      append(sb, n / NS_PER_S, "s");
      n %= NS_PER_S;
      append(sb, n / NS_PER_MS, "ms");
      n %= NS_PER_MS;
      append(sb, n / NS_PER_US, "us");
      append(sb, n % NS_PER_US, "ns");
      return sb.length() == 0 || sb.toString().equals("-") ? "0s" : sb.toString();
    }

    private static void append(StringBuilder sb, long v, String unit) {
      if (v != 0) {
        sb.append(v).append(unit);
      }
    }
  }

  private Durations() {}

  public static Duration parse(String text) {
    String s = text.trim();
    boolean neg = s.startsWith("-");
    if (neg) {
      s = s.substring(1);
    }
    long months = 0;
    long days = 0;
    long nanos = 0;
    Matcher m;
    if (s.startsWith("P")) {
      if ((m = ISO_WEEK.matcher(s)).matches()) {
        days = Long.parseLong(m.group(1)) * 7;
      } else if ((m = ISO_ALT.matcher(s)).matches()) {
        months = Long.parseLong(m.group(1)) * 12 + Long.parseLong(m.group(2));
        days = Long.parseLong(m.group(3));
        nanos = Long.parseLong(m.group(4)) * NS_PER_H + Long.parseLong(m.group(5)) * NS_PER_M
            + Long.parseLong(m.group(6)) * NS_PER_S;
      } else if ((m = ISO.matcher(s)).matches() && s.length() > 1) {
        months = num(m.group(1)) * 12 + num(m.group(2));
        days = num(m.group(3));
        nanos = num(m.group(4)) * NS_PER_H + num(m.group(5)) * NS_PER_M + num(m.group(6)) * NS_PER_S;
      } else {
        throw invalid("Unable to convert '" + text + "' to a duration");
      }
    } else {
      m = UNIT.matcher(s);
      int pos = 0;
      if (s.isEmpty()) {
        throw invalid("Unable to convert '" + text + "' to a duration");
      }
      while (pos < s.length()) {
        if (!m.find(pos) || m.start() != pos) {
          throw invalid("Unable to convert '" + text + "' to a duration");
        }
        long v = Long.parseLong(m.group(1));
        switch (m.group(2).toLowerCase().replace('µ', 'u')) {
          case "y" -> months += v * 12;
          case "mo" -> months += v;
          case "w" -> days += v * 7;
          case "d" -> days += v;
          case "h" -> nanos += v * NS_PER_H;
          case "m" -> nanos += v * NS_PER_M;
          case "s" -> nanos += v * NS_PER_S;
          case "ms" -> nanos += v * NS_PER_MS;
          case "us" -> nanos += v * NS_PER_US;
          default -> nanos += v;
        }
        pos = m.end();
      }
    }
    if (months > Integer.MAX_VALUE || days > Integer.MAX_VALUE) {
      throw invalid("Invalid duration. The total number of months must be less or equal to "
          + Integer.MAX_VALUE);
    }
    return neg ? new Duration((int) -months, (int) -days, -nanos)
        : new Duration((int) months, (int) days, nanos);
  }

  private static long num(String s) {
    return s == null ? 0 : Long.parseLong(s);
  }

  public static Duration deserialize(byte[] v) {
    ByteBuffer b = ByteBuffer.wrap(v);
    return new Duration((int) unzigzag(readVInt(b)), (int) unzigzag(readVInt(b)), unzigzag(readVInt(b)));
  }

  static long zigzag(long n) {
    return (n << 1) ^ (n >> 63);
  }

  static long unzigzag(long n) {
    return (n >>> 1) ^ -(n & 1);
  }

  /** Cassandra's unsigned vint: leading one bits of the first byte count the extra bytes. */
  static void writeVInt(ByteArrayOutputStream out, long value) {
    int magnitude = Long.numberOfLeadingZeros(value | 1);
    int size = (639 - magnitude * 9) >> 6;
    if (size == 1) {
      out.write((int) value);
      return;
    }
    byte[] buf = new byte[size];
    long v = value;
    for (int i = size - 1; i >= 0; i--) {
      buf[i] = (byte) v;
      v >>>= 8;
    }
    int extra = size - 1;
    buf[0] |= (byte) ~(0xFF >> extra);
    out.write(buf, 0, size);
  }

  static long readVInt(ByteBuffer b) {
    int first = b.get() & 0xFF;
    int extra = Integer.numberOfLeadingZeros(~first & 0xFF) - 24;
    long value = extra >= 8 ? 0 : first & (0xFF >> extra);
    for (int i = 0; i < extra; i++) {
      value = (value << 8) | (b.get() & 0xFF);
    }
    return value;
  }
}
