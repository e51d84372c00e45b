package io.cassette.cql.language.types;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.CqlType.VectorType;
import io.cassette.storage.Bytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serialized values of native types: encoding from and decoding to Java values, validation,
 * comparison in Cassandra's order, and the text/JSON forms Cassandra prints.
 */
public final class Values {
  /** Cassandra's date type counts days with the epoch at 2^31. */
  public static final long DATE_EPOCH_OFFSET = 1L << 31;
  private static final long NANOS_PER_DAY = 86_400_000_000_000L;
  private static final Pattern TIMESTAMP = Pattern.compile(
      "(-?\\d{1,9})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?)?"
          + "\\s*(Z|z|UTC|GMT|[+-]\\d{2}:?\\d{2})?");
  private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{1,2}):(\\d{1,2})(?:\\.(\\d{1,9}))?");
  private static final DateTimeFormatter TS_OUT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TS_JSON =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

  private Values() {}

  // ---------------------------------------------------------------- encoding

  public static byte[] ofInt(int v) {
    return ByteBuffer.allocate(4).putInt(v).array();
  }

  public static byte[] ofLong(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  public static byte[] ofDouble(double v) {
    return ofLong(Double.doubleToLongBits(v));
  }

  public static byte[] ofFloat(float v) {
    return ofInt(Float.floatToIntBits(v));
  }

  public static byte[] ofBoolean(boolean v) {
    return new byte[] {(byte) (v ? 1 : 0)};
  }

  public static byte[] ofText(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] ofUuid(UUID u) {
    return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits()).array();
  }

  public static byte[] ofDecimal(BigDecimal d) {
    byte[] unscaled = d.unscaledValue().toByteArray();
    return ByteBuffer.allocate(4 + unscaled.length).putInt(d.scale()).put(unscaled).array();
  }

  public static byte[] ofInet(InetAddress a) {
    return a.getAddress();
  }

  public static int toInt(byte[] v) {
    return ByteBuffer.wrap(v).getInt();
  }

  public static long toLong(byte[] v) {
    return ByteBuffer.wrap(v).getLong();
  }

  public static String toText(byte[] v) {
    return new String(v, StandardCharsets.UTF_8);
  }

  public static UUID toUuid(byte[] v) {
    ByteBuffer b = ByteBuffer.wrap(v);
    return new UUID(b.getLong(), b.getLong());
  }

  public static BigDecimal toDecimal(byte[] v) {
    ByteBuffer b = ByteBuffer.wrap(v);
    int scale = b.getInt();
    byte[] un = new byte[v.length - 4];
    b.get(un);
    return new BigDecimal(new BigInteger(un), scale);
  }

  /** Any integral or decimal native value as a BigDecimal (for arithmetic and casts), or null. */
  public static BigDecimal toNumber(Native kind, byte[] v) {
    if (v == null || v.length == 0) {
      return null;
    }
    return switch (kind) {
      case INT -> BigDecimal.valueOf(toInt(v));
      case BIGINT, COUNTER -> BigDecimal.valueOf(toLong(v));
      case SMALLINT -> BigDecimal.valueOf(ByteBuffer.wrap(v).getShort());
      case TINYINT -> BigDecimal.valueOf(v[0]);
      case VARINT -> new BigDecimal(new BigInteger(v));
      case DECIMAL -> toDecimal(v);
      case FLOAT -> {
        float f = Float.intBitsToFloat(toInt(v));
        yield Float.isFinite(f) ? new BigDecimal(Float.toString(f)) : null;
      }
      case DOUBLE -> {
        double d = Double.longBitsToDouble(toLong(v));
        yield Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
      }
      default -> null;
    };
  }

  /** Encodes {@code n} as native {@code kind}, or throws when it does not fit. */
  public static byte[] ofNumber(Native kind, BigDecimal n) {
    return switch (kind) {
      case INT -> ofInt(n.intValueExact());
      case BIGINT, COUNTER -> ofLong(n.longValueExact());
      case SMALLINT -> ByteBuffer.allocate(2).putShort(n.shortValueExact()).array();
      case TINYINT -> new byte[] {n.byteValueExact()};
      case VARINT -> n.toBigIntegerExact().toByteArray();
      case DECIMAL -> ofDecimal(n);
      case FLOAT -> ofFloat(n.floatValue());
      case DOUBLE -> ofDouble(n.doubleValue());
      default -> throw new IllegalArgumentException("not numeric: " + kind);
    };
  }

  // ---------------------------------------------------------------- literals

  /** The kinds of constants the CQL lexer produces. */
  public enum Constant { STRING, INTEGER, FLOAT, BOOLEAN, UUID, HEX, DURATION }

  /**
   * Encodes a constant for a receiver of native type {@code kind}; {@code receiver} names the
   * column in error messages, as Cassandra does.
   */
  public static byte[] fromConstant(NativeType type, Constant constant, String text, String receiver) {
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

  private static boolean accepts(Native kind, Constant c) {
    return switch (kind) {
      case ASCII, TEXT, INET -> c == Constant.STRING;
      case BIGINT, INT, SMALLINT, TINYINT, VARINT, COUNTER -> c == Constant.INTEGER;
      case FLOAT, DOUBLE, DECIMAL -> c == Constant.INTEGER || c == Constant.FLOAT;
      case BOOLEAN -> c == Constant.BOOLEAN;
      case BLOB -> c == Constant.HEX;
      case UUID, TIMEUUID -> c == Constant.UUID;
      case TIMESTAMP, DATE, TIME -> c == Constant.STRING || c == Constant.INTEGER;
      case DURATION -> c == Constant.DURATION || c == Constant.STRING;
    };
  }

  private static byte[] parse(Native kind, Constant c, String text) {
    switch (kind) {
      case ASCII:
        for (int i = 0; i < text.length(); i++) {
          if (text.charAt(i) > 127) {
            throw invalid("Invalid ASCII character in string literal: java.nio.charset.UnmappableCharacterException: Input length = 1");
          }
        }
        return text.getBytes(StandardCharsets.US_ASCII);
      case TEXT:
        return ofText(text);
      case INT:
        return ofInt(Integer.parseInt(text));
      case BIGINT:
      case COUNTER:
        return ofLong(Long.parseLong(text));
      case SMALLINT:
        return ByteBuffer.allocate(2).putShort(Short.parseShort(text)).array();
      case TINYINT:
        return new byte[] {Byte.parseByte(text)};
      case VARINT:
        return new BigInteger(text).toByteArray();
      case FLOAT:
        return ofFloat(parseFloating(text).floatValue());
      case DOUBLE:
        return ofDouble(parseFloating(text));
      case DECIMAL:
        return ofDecimal(new BigDecimal(text));
      case BOOLEAN:
        return ofBoolean(text.equalsIgnoreCase("true"));
      case BLOB:
        return parseHex(text);
      case UUID: {
        return ofUuid(java.util.UUID.fromString(text));
      }
      case TIMEUUID: {
        UUID u = java.util.UUID.fromString(text);
        if (u.version() != 1) {
          throw invalid("Unsupported UUID version for timeuuid: " + u.version());
        }
        return ofUuid(u);
      }
      case TIMESTAMP:
        return ofLong(c == Constant.INTEGER ? Long.parseLong(text) : parseTimestamp(text));
      case DATE:
        return ofInt((int) (c == Constant.INTEGER ? Long.parseLong(text) : parseDate(text)));
      case TIME:
        return ofLong(c == Constant.INTEGER ? Long.parseLong(text) : parseTime(text));
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
      return d.toEpochDay() + DATE_EPOCH_OFFSET;
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

  // ---------------------------------------------------------------- validation

  /** Checks a client-supplied serialized value, with Cassandra's messages. */
  public static void validate(CqlType type, byte[] v) {
    if (v == null) {
      return;
    }
    if (type instanceof NativeType n) {
      int len = v.length;
      switch (n.kind()) {
        case INT -> fixed(len, 4, "int");
        case BIGINT, COUNTER, TIMESTAMP, TIME -> fixed(len, 8, n.kind() == Native.TIMESTAMP ? "timestamp"
            : n.kind() == Native.TIME ? "time" : "long");
        case DATE -> fixed(len, 4, "date");
        case SMALLINT -> {
          if (len != 2 && len != 0) {
            throw invalid("Expected 2 bytes for a smallint (" + len + ")");
          }
        }
        case TINYINT -> {
          if (len != 1 && len != 0) {
            throw invalid("Expected 1 byte for a tinyint (" + len + ")");
          }
        }
        case FLOAT -> fixed(len, 4, "float");
        case DOUBLE -> fixed(len, 8, "double");
        case BOOLEAN -> {
          if (len > 1) {
            throw invalid("Expected 1 or 0 byte value (" + len + ")");
          }
        }
        case UUID, TIMEUUID -> {
          if (len != 16 && len != 0) {
            throw invalid("UUID should be 16 or 0 bytes (" + len + ")");
          }
          if (n.kind() == Native.TIMEUUID && len == 16 && ((v[6] >> 4) & 0xF) != 1) {
            throw invalid("Invalid version for TimeUUID type.");
          }
        }
        case INET -> {
          if (len != 4 && len != 16 && len != 0) {
            throw invalid("Invalid inet address: length " + len);
          }
        }
        case ASCII -> {
          for (byte b : v) {
            if (b < 0) {
              throw invalid("Invalid byte for ascii: " + (b & 0xFF));
            }
          }
        }
        case TEXT -> {
          var dec = StandardCharsets.UTF_8.newDecoder();
          try {
            dec.decode(ByteBuffer.wrap(v));
          } catch (java.nio.charset.CharacterCodingException e) {
            throw invalid("Invalid UTF-8 bytes " + Bytes.hex(v));
          }
        }
        default -> { }
      }
      return;
    }
    try {
      if (type instanceof ListType l) {
        for (byte[] e : CollectionCodec.unpack(v, false)) {
          if (e == null) {
            throw invalid("null is not supported inside collections");
          }
          validate(l.element(), e);
        }
      } else if (type instanceof SetType s) {
        for (byte[] e : CollectionCodec.unpack(v, false)) {
          if (e == null) {
            throw invalid("null is not supported inside collections");
          }
          validate(s.element(), e);
        }
      } else if (type instanceof MapType m) {
        List<byte[]> kv = CollectionCodec.unpack(v, true);
        for (int i = 0; i < kv.size(); i += 2) {
          if (kv.get(i) == null || kv.get(i + 1) == null) {
            throw invalid("null is not supported inside collections");
          }
          validate(m.key(), kv.get(i));
          validate(m.value(), kv.get(i + 1));
        }
      } else if (type instanceof TupleType t) {
        List<byte[]> fs = CollectionCodec.unpackFields(v, t.elements().size());
        for (int i = 0; i < fs.size(); i++) {
          validate(t.elements().get(i), fs.get(i));
        }
      } else if (type instanceof UdtType u) {
        List<byte[]> fs = CollectionCodec.unpackFields(v, u.fieldTypes().size());
        for (int i = 0; i < fs.size(); i++) {
          validate(u.fieldTypes().get(i), fs.get(i));
        }
      } else if (type instanceof VectorType vt) {
        Vectors.split(vt, v);
      }
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  private static void fixed(int len, int expected, String name) {
    if (len != expected && len != 0) {
      throw invalid("Expected " + expected + " or 0 byte " + name + " (" + len + ")");
    }
  }

  // ---------------------------------------------------------------- comparison

  /** Compares two non-null serialized values of {@code type} in Cassandra's order. */
  public static int compare(CqlType type, byte[] a, byte[] b) {
    if (a.length == 0 || b.length == 0) {
      if (type instanceof NativeType n && (n.kind() == Native.TEXT || n.kind() == Native.ASCII
          || n.kind() == Native.BLOB)) {
        return Bytes.compare(a, b);
      }
      return Integer.compare(a.length, b.length);
    }
    if (type instanceof NativeType n) {
      return switch (n.kind()) {
        case INT -> Integer.compare(toInt(a), toInt(b));
        case BIGINT, COUNTER, TIMESTAMP, TIME -> Long.compare(toLong(a), toLong(b));
        case SMALLINT -> Short.compare(ByteBuffer.wrap(a).getShort(), ByteBuffer.wrap(b).getShort());
        case TINYINT -> Byte.compare(a[0], b[0]);
        case DATE -> Integer.compareUnsigned(toInt(a), toInt(b));
        case FLOAT -> Float.compare(Float.intBitsToFloat(toInt(a)), Float.intBitsToFloat(toInt(b)));
        case DOUBLE -> Double.compare(Double.longBitsToDouble(toLong(a)), Double.longBitsToDouble(toLong(b)));
        case VARINT -> new BigInteger(a).compareTo(new BigInteger(b));
        case DECIMAL -> toDecimal(a).compareTo(toDecimal(b));
        case BOOLEAN -> Boolean.compare(a[0] != 0, b[0] != 0);
        case TIMEUUID -> compareTimeUuid(a, b);
        case UUID -> compareUuid(a, b);
        default -> Bytes.compare(a, b);
      };
    }
    if (type instanceof ListType l) {
      return compareSequences(CollectionCodec.unpack(a, false), CollectionCodec.unpack(b, false), l.element(), l.element());
    }
    if (type instanceof SetType s) {
      return compareSequences(CollectionCodec.unpack(a, false), CollectionCodec.unpack(b, false), s.element(), s.element());
    }
    if (type instanceof MapType m) {
      return compareSequences(CollectionCodec.unpack(a, true), CollectionCodec.unpack(b, true), m.key(), m.value());
    }
    if (type instanceof TupleType t) {
      return compareFields(CollectionCodec.unpackFields(a, t.elements().size()),
          CollectionCodec.unpackFields(b, t.elements().size()), t.elements());
    }
    if (type instanceof UdtType u) {
      return compareFields(CollectionCodec.unpackFields(a, u.fieldTypes().size()),
          CollectionCodec.unpackFields(b, u.fieldTypes().size()), u.fieldTypes());
    }
    return Bytes.compare(a, b);
  }

  private static int compareSequences(List<byte[]> a, List<byte[]> b, CqlType even, CqlType odd) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int c = compare(i % 2 == 0 ? even : odd, a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareFields(List<byte[]> a, List<byte[]> b, List<CqlType> types) {
    for (int i = 0; i < types.size(); i++) {
      byte[] x = a.get(i);
      byte[] y = b.get(i);
      if (x == null || y == null) {
        if (x != y) {
          return x == null ? -1 : 1;
        }
        continue;
      }
      int c = compare(types.get(i), x, y);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Time-based UUIDs by timestamp, then by their bytes as signed values (Cassandra's order). */
  public static int compareTimeUuid(byte[] a, byte[] b) {
    int c = Long.compare(uuidTimestamp(a), uuidTimestamp(b));
    if (c != 0) {
      return c;
    }
    ByteBuffer x = ByteBuffer.wrap(a, 8, 8);
    ByteBuffer y = ByteBuffer.wrap(b, 8, 8);
    return Long.compare(x.getLong() ^ 0x0080808080808080L, y.getLong() ^ 0x0080808080808080L);
  }

  private static int compareUuid(byte[] a, byte[] b) {
    int va = (a[6] >> 4) & 0xF;
    int vb = (b[6] >> 4) & 0xF;
    if (va != vb) {
      return Integer.compare(va, vb);
    }
    if (va == 1) {
      return compareTimeUuid(a, b);
    }
    return Bytes.compare(a, b);
  }

  /** The 60-bit timestamp of a version 1 UUID (100 ns units since 1582). */
  public static long uuidTimestamp(byte[] u) {
    long msb = ByteBuffer.wrap(u).getLong();
    return ((msb & 0x0FFFL) << 48) | (((msb >>> 16) & 0xFFFFL) << 32) | (msb >>> 32);
  }

  // ---------------------------------------------------------------- text forms

  /** The value as a CQL literal (as cqlsh and error messages print it). */
  public static String toCqlLiteral(CqlType type, byte[] v) {
    if (v == null) {
      return "null";
    }
    if (type instanceof NativeType n) {
      return switch (n.kind()) {
        case ASCII, TEXT -> "'" + toText(v).replace("'", "''") + "'";
        case INET, TIMESTAMP, DATE, TIME -> "'" + toText(type, v) + "'";
        default -> toText(type, v);
      };
    }
    return toJsonOrCql(type, v, false);
  }

  /** The value as plain text (CAST(x AS text), toString). */
  public static String toText(CqlType type, byte[] v) {
    if (type instanceof NativeType n) {
      if (v.length == 0 && n.kind() != Native.TEXT && n.kind() != Native.ASCII && n.kind() != Native.BLOB) {
        return "";
      }
      return switch (n.kind()) {
        case ASCII, TEXT -> toText(v);
        case INT -> Integer.toString(toInt(v));
        case BIGINT, COUNTER -> Long.toString(toLong(v));
        case SMALLINT -> Short.toString(ByteBuffer.wrap(v).getShort());
        case TINYINT -> Byte.toString(v[0]);
        case VARINT -> new BigInteger(v).toString();
        case DECIMAL -> toDecimal(v).toString();
        case FLOAT -> floatText(Float.intBitsToFloat(toInt(v)));
        case DOUBLE -> doubleText(Double.longBitsToDouble(toLong(v)));
        case BOOLEAN -> Boolean.toString(v[0] != 0);
        case BLOB -> Bytes.hex(v);
        case UUID, TIMEUUID -> toUuid(v).toString();
        case TIMESTAMP -> TS_OUT.format(Instant.ofEpochMilli(toLong(v)));
        case DATE -> {
          long days = (toInt(v) & 0xFFFFFFFFL) - DATE_EPOCH_OFFSET;
          yield LocalDate.ofEpochDay(days).toString();
        }
        case TIME -> timeText(toLong(v));
        case INET -> {
          try {
            yield InetAddress.getByAddress(v).getHostAddress();
          } catch (UnknownHostException e) {
            yield Bytes.hex(v);
          }
        }
        case DURATION -> Durations.deserialize(v).toString();
      };
    }
    return toJsonOrCql(type, v, false);
  }

  private static String floatText(float f) {
    if (Float.isNaN(f)) {
      return "NaN";
    }
    if (Float.isInfinite(f)) {
      return f > 0 ? "Infinity" : "-Infinity";
    }
    return Float.toString(f);
  }

  private static String doubleText(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    return Double.toString(d);
  }

  private static String timeText(long nanos) {
    long s = nanos / 1_000_000_000L;
    long frac = nanos % 1_000_000_000L;
    return String.format("%02d:%02d:%02d.%09d", s / 3600, (s / 60) % 60, s % 60, frac);
  }

  /** The value as JSON, as Cassandra's toJson() and SELECT JSON write it. */
  public static String toJson(CqlType type, byte[] v) {
    if (v == null) {
      return "null";
    }
    if (type instanceof NativeType n) {
      return switch (n.kind()) {
        case INT, BIGINT, COUNTER, SMALLINT, TINYINT, VARINT, DECIMAL, FLOAT, DOUBLE, BOOLEAN ->
            v.length == 0 ? "null" : toText(type, v);
        case TIMESTAMP -> v.length == 0 ? "null" : Json.quote(TS_JSON.format(Instant.ofEpochMilli(toLong(v))));
        default -> Json.quote(toText(type, v));
      };
    }
    return toJsonOrCql(type, v, true);
  }

  private static String toJsonOrCql(CqlType type, byte[] v, boolean json) {
    StringBuilder sb = new StringBuilder();
    if (type instanceof ListType || type instanceof SetType) {
      CqlType e = type instanceof ListType l ? l.element() : ((SetType) type).element();
      sb.append(json || type instanceof ListType ? '[' : '{');
      List<byte[]> es = CollectionCodec.unpack(v, false);
      for (int i = 0; i < es.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(json ? toJson(e, es.get(i)) : toCqlLiteral(e, es.get(i)));
      }
      return sb.append(json || type instanceof ListType ? ']' : '}').toString();
    }
    if (type instanceof MapType m) {
      sb.append('{');
      List<byte[]> kv = CollectionCodec.unpack(v, true);
      for (int i = 0; i < kv.size(); i += 2) {
        sb.append(i == 0 ? "" : ", ");
        if (json) {
          String k = toJson(m.key(), kv.get(i));
          sb.append(k.startsWith("\"") ? k : Json.quote(k));
          sb.append(": ").append(toJson(m.value(), kv.get(i + 1)));
        } else {
          sb.append(toCqlLiteral(m.key(), kv.get(i))).append(": ")
              .append(toCqlLiteral(m.value(), kv.get(i + 1)));
        }
      }
      return sb.append('}').toString();
    }
    if (type instanceof TupleType t) {
      List<byte[]> fs = CollectionCodec.unpackFields(v, t.elements().size());
      sb.append(json ? '[' : '(');
      for (int i = 0; i < fs.size(); i++) {
        CqlType ft = t.elements().get(i);
        sb.append(i == 0 ? "" : ", ").append(json ? toJson(ft, fs.get(i)) : toCqlLiteral(ft, fs.get(i)));
      }
      return sb.append(json ? ']' : ')').toString();
    }
    if (type instanceof UdtType u) {
      List<byte[]> fs = CollectionCodec.unpackFields(v, u.fieldTypes().size());
      sb.append('{');
      for (int i = 0; i < fs.size(); i++) {
        CqlType ft = u.fieldTypes().get(i);
        String name = u.fieldNames().get(i);
        sb.append(i == 0 ? "" : ", ");
        if (json) {
          sb.append(Json.quote(name)).append(": ").append(toJson(ft, fs.get(i)));
        } else {
          sb.append(Identifiers.quoteIfNeeded(name)).append(": ").append(toCqlLiteral(ft, fs.get(i)));
        }
      }
      return sb.append('}').toString();
    }
    if (type instanceof VectorType vt) {
      List<byte[]> es = Vectors.split(vt, v);
      sb.append('[');
      for (int i = 0; i < es.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(json ? toJson(vt.element(), es.get(i))
            : toCqlLiteral(vt.element(), es.get(i)));
      }
      return sb.append(']').toString();
    }
    return Bytes.hex(v);
  }

  /** Element list of a collection value (for lists/sets: elements; for maps: keys then values alternating). */
  public static List<byte[]> elements(CqlType type, byte[] v) {
    if (type instanceof VectorType vt) {
      return Vectors.split(vt, v);
    }
    return new ArrayList<>(CollectionCodec.unpack(v, type instanceof MapType));
  }
}
