package io.cassette.cql.language.types;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType.Native;
import io.cassette.cql.CqlType.NativeType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CQL constants (the lexer's {@link Values.Constant} kinds) encoded for a receiver of a native
 * type, with Cassandra's messages; timestamp, date, time, inet and hex literal forms.
 */
public final class Literals {
  private static final long NANOS_PER_DAY = 86_400_000_000_000L;
  private static final Pattern TIMESTAMP = Pattern.compile(
      "(-?\\d{1,9})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?)?"
          + "\\s*(Z|z|UTC|GMT|[+-]\\d{2}:?\\d{2})?");
  private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{1,2}):(\\d{1,2})(?:\\.(\\d{1,9}))?");

  private Literals() {}

  // ---------------------------------------------------------------- literals

  /**
   * Encodes a constant for a receiver of native type {@code kind}; {@code receiver} names the
   * column in error messages, as Cassandra does.
   */
  public static byte[] fromConstant(NativeType type, Values.Constant constant, String text, String receiver) {
    Native kind = type.kind();
    if (!accepts(kind, constant)) {
      throw invalid("Invalid " + constant + " constant (" + text + ") for \"" + receiver
          + "\" of type " + Types.toCql(type));
    }
    try {
      return parse(kind, constant, text);
    } catch (RuntimeException e) {
      if (e instanceof io.cassette.cql.CqlException ce) {
        throw ce;
      }
      throw invalid(parseError(kind, text));
    }
  }

  private static String parseError(Native kind, String text) {
    return switch (kind) {
      case INT, BIGINT, SMALLINT, TINYINT, VARINT, COUNTER, FLOAT, DOUBLE, DECIMAL ->
          "Unable to make " + numericName(kind) + " from '" + text + "'";
      case TIMESTAMP -> "Unable to parse a date/time from '" + text + "'";
      case DATE -> "Unable to coerce '" + text + "' to a formatted date (long)";
      case TIME -> "Unable to coerce '" + text + "' to a formatted time (long)";
      case INET -> "Unable to make inet address from '" + text + "'";
      case UUID, TIMEUUID -> "Unable to make UUID from '" + text + "'";
      case DURATION -> "Unable to convert '" + text + "' to a duration";
      case BLOB -> "cannot parse '" + text + "' as hex bytes";
      default -> "Invalid value '" + text + "' for type " + kind.name().toLowerCase();
    };
  }

  private static String numericName(Native kind) {
    return switch (kind) {
      case INT -> "int";
      case BIGINT, COUNTER -> "long";
      case SMALLINT -> "short";
      case TINYINT -> "byte";
      case VARINT -> "int";
      case FLOAT -> "float";
      case DOUBLE -> "double";
      default -> "decimal";
    };
  }

  private static boolean accepts(Native kind, Values.Constant c) {
    return switch (kind) {
      case ASCII, TEXT, INET -> c == Values.Constant.STRING;
      case BIGINT, INT, SMALLINT, TINYINT, VARINT, COUNTER -> c == Values.Constant.INTEGER;
      case FLOAT, DOUBLE, DECIMAL -> c == Values.Constant.INTEGER || c == Values.Constant.FLOAT;
      case BOOLEAN -> c == Values.Constant.BOOLEAN;
      case BLOB -> c == Values.Constant.HEX;
      case UUID, TIMEUUID -> c == Values.Constant.UUID;
      case TIMESTAMP, DATE, TIME -> c == Values.Constant.STRING || c == Values.Constant.INTEGER;
      case DURATION -> c == Values.Constant.DURATION || c == Values.Constant.STRING;
    };
  }

  private static byte[] parse(Native kind, Values.Constant c, String text) {
    switch (kind) {
      case ASCII:
        for (int i = 0; i < text.length(); i++) {
          if (text.charAt(i) > 127) {
            throw invalid("Invalid ASCII character in string literal: java.nio.charset.UnmappableCharacterException: Input length = 1");
          }
        }
        return text.getBytes(StandardCharsets.US_ASCII);
      case TEXT:
        return Values.ofText(text);
      case INT:
        return Values.ofInt(Integer.parseInt(text));
      case BIGINT:
      case COUNTER:
        return Values.ofLong(Long.parseLong(text));
      case SMALLINT:
        return ByteBuffer.allocate(2).putShort(Short.parseShort(text)).array();
      case TINYINT:
        return new byte[] {Byte.parseByte(text)};
      case VARINT:
        return new BigInteger(text).toByteArray();
      case FLOAT:
        return Values.ofFloat(parseFloating(text).floatValue());
      case DOUBLE:
        return Values.ofDouble(parseFloating(text));
      case DECIMAL:
        return Values.ofDecimal(new BigDecimal(text));
      case BOOLEAN:
        return Values.ofBoolean(text.equalsIgnoreCase("true"));
      case BLOB:
        return parseHex(text);
      case UUID: {
        return Values.ofUuid(java.util.UUID.fromString(text));
      }
      case TIMEUUID: {
        UUID u = java.util.UUID.fromString(text);
        if (u.version() != 1) {
          throw invalid("Unsupported UUID version for timeuuid: " + u.version());
        }
        return Values.ofUuid(u);
      }
      case TIMESTAMP:
        return Values.ofLong(c == Values.Constant.INTEGER ? Long.parseLong(text) : parseTimestamp(text));
      case DATE:
        return Values.ofInt((int) (c == Values.Constant.INTEGER ? Long.parseLong(text) : parseDate(text)));
      case TIME:
        return Values.ofLong(c == Values.Constant.INTEGER ? Long.parseLong(text) : parseTime(text));
      case INET:
        return parseInet(text).getAddress();
      case DURATION:
        return Durations.parse(text).serialize();
      default:
        throw new IllegalArgumentException("unexpected type " + kind);
    }
  }

  private static Double parseFloating(String text) {
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }

  public static byte[] parseHex(String text) {
    String h = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
    if (h.length() % 2 != 0) {
      throw invalid("Unable to make bytes from '" + text + "'");
    }
    byte[] out = new byte[h.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(h.charAt(2 * i), 16);
      int lo = Character.digit(h.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw invalid("cannot parse '" + text + "' as hex bytes");
      }
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }

  /** Milliseconds since the epoch for Cassandra's accepted date/time formats. */
  public static long parseTimestamp(String text) {
    String s = text.trim();
    if (s.matches("-?\\d+")) {
      return Long.parseLong(s);
    }
    Matcher m = TIMESTAMP.matcher(s);
    if (!m.matches()) {
      throw invalid("Unable to parse a date/time from '" + text + "'");
    }
    LocalDateTime ldt = LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)), m.group(4) == null ? 0 : Integer.parseInt(m.group(4)),
        m.group(5) == null ? 0 : Integer.parseInt(m.group(5)),
        m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
        m.group(7) == null ? 0 : Integer.parseInt((m.group(7) + "000000000").substring(0, 9)));
    String zone = m.group(8);
    ZoneId z;
    if (zone == null) {
      z = ZoneId.systemDefault();
    } else if (zone.equalsIgnoreCase("Z") || zone.equals("UTC") || zone.equals("GMT")) {
      z = ZoneOffset.UTC;
    } else {
      String zz = zone.contains(":") ? zone : zone.substring(0, 3) + ":" + zone.substring(3);
      z = ZoneOffset.of(zz);
    }
    return ldt.atZone(z).toInstant().toEpochMilli();
  }

  /** Cassandra's unsigned day count (epoch at 2^31) for 'yyyy-mm-dd'. */
  public static long parseDate(String text) {
    String s = text.trim();
    if (s.matches("\\d+")) {
      long v = Long.parseLong(s);
      if (v > 0xFFFFFFFFL) {
        throw invalid("Unable to coerce '" + text + "' to a formatted date (long)");
      }
      return v;
    }
    try {
      LocalDate d = LocalDate.parse(s);
      return d.toEpochDay() + Values.DATE_EPOCH_OFFSET;
    } catch (RuntimeException e) {
      throw invalid("Unable to coerce '" + text + "' to a formatted date (long)");
    }
  }

  /** Nanoseconds since midnight for 'hh:mm:ss[.fffffffff]'. */
  public static long parseTime(String text) {
    String s = text.trim();
    if (s.matches("\\d+")) {
      long v = Long.parseLong(s);
      if (v >= NANOS_PER_DAY) {
        throw invalid("Unable to coerce '" + text + "' to a formatted time (long)");
      }
      return v;
    }
    Matcher m = TIME.matcher(s);
    if (!m.matches()) {
      throw invalid("(TimeType) Unable to coerce '" + text + "' to a formatted time (long)");
    }
    long h = Long.parseLong(m.group(1));
    long mi = Long.parseLong(m.group(2));
    long se = Long.parseLong(m.group(3));
    if (h > 23 || mi > 59 || se > 59) {
      throw invalid("(TimeType) Unable to coerce '" + text + "' to a formatted time (long)");
    }
    long nanos = m.group(4) == null ? 0 : Long.parseLong((m.group(4) + "000000000").substring(0, 9));
    return ((h * 60 + mi) * 60 + se) * 1_000_000_000L + nanos;
  }

  /** Literal IPv4/IPv6 addresses only: no name resolution. */
  public static InetAddress parseInet(String text) {
    String s = text.trim();
    boolean v4 = s.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    boolean v6 = s.contains(":") && s.matches("[0-9a-fA-F:.%]+");
    if (!v4 && !v6) {
      throw invalid("Unable to make inet address from '" + text + "'");
    }
    try {
      return InetAddress.getByName(s);
    } catch (UnknownHostException e) {
      throw invalid("Unable to make inet address from '" + text + "'");
    }
  }
}
