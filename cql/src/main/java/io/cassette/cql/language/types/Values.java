package io.cassette.cql.language.types;

import io.cassette.cql.CqlType.Native;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Serialized values of native types: encoding from and decoding to Java values. The other
 * rooms of a value: {@link Literals} (CQL constants to bytes), {@link ValueValidation} (client
 * bytes checked), {@link ValueComparison} (Cassandra's order), {@link TextForms} (CQL and JSON
 * text).
 */
public final class Values {
  /** Cassandra's date type counts days with the epoch at 2^31. */
  public static final long DATE_EPOCH_OFFSET = 1L << 31;

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

  /** The kinds of constants the CQL lexer produces. */
  public enum Constant { STRING, INTEGER, FLOAT, BOOLEAN, UUID, HEX, DURATION }
}
