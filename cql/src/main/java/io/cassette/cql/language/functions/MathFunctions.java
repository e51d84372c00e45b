package io.cassette.cql.language.functions;

import ch.obermuhlner.math.big.BigDecimalMath;
import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * Cassandra 5.0's math functions {@code abs}, {@code exp}, {@code log}, {@code log10} and
 * {@code round}, one overload per numeric type, with Cassandra's results to the bit: integral
 * types compute in double and narrow as Java casts do ({@code log(0)} of an int is
 * -2147483648, {@code exp(5)} of a tinyint is -108), decimal and varint compute with at least
 * 32 significant digits through big-math, as Cassandra's DecimalType does.
 */
final class MathFunctions {
  /** Significant digits of decimal exp/log/log10 (Cassandra's DecimalType: max(32, precision)). */
  static final int MIN_SIGNIFICANT_DIGITS = 32;
  /** Cassandra's DecimalType.MAX_PRECISION. */
  static final int MAX_PRECISION = 10_000;

  /** The numeric types, each with its own overload. */
  private static final List<Native> KINDS = List.of(Native.TINYINT, Native.SMALLINT, Native.INT, Native.BIGINT,
      Native.FLOAT, Native.DOUBLE, Native.VARINT, Native.DECIMAL, Native.COUNTER);

  private MathFunctions() {}

  interface Registry {
    void add(String name, List<CqlType> args, CqlType ret, NativeFunction.Body body);
  }

  static void register(Registry r) {
    for (Native k : KINDS) {
      CqlType t = Types.of(k);
      r.add("abs", List.of(t), t, (a, c) -> a.get(0) == null ? null : abs(k, a.get(0)));
      r.add("round", List.of(t), t, (a, c) -> a.get(0) == null ? null : round(k, a.get(0)));
      r.add("exp", List.of(t), t, (a, c) -> a.get(0) == null ? null : apply(k, a.get(0), Math::exp, "exp"));
      r.add("log", List.of(t), t, (a, c) -> a.get(0) == null ? null : apply(k, a.get(0), Math::log, "log"));
      r.add("log10", List.of(t), t, (a, c) -> a.get(0) == null ? null : apply(k, a.get(0), Math::log10, "log10"));
    }
  }

  private static byte[] abs(Native k, byte[] v) {
    return switch (k) {
      case TINYINT -> new byte[] {(byte) Math.abs(v[0])};
      case SMALLINT -> ofShort((short) Math.abs(ByteBuffer.wrap(v).getShort()));
      case INT -> Values.ofInt(Math.abs(Values.toInt(v)));
      case BIGINT, COUNTER -> Values.ofLong(Math.abs(Values.toLong(v)));
      case FLOAT -> Values.ofFloat(Math.abs(Float.intBitsToFloat(Values.toInt(v))));
      case DOUBLE -> Values.ofDouble(Math.abs(Double.longBitsToDouble(Values.toLong(v))));
      case VARINT -> new BigInteger(v).abs().toByteArray();
      case DECIMAL -> Values.ofDecimal(Values.toDecimal(v).abs());
      default -> throw new IllegalArgumentException(k.name());
    };
  }

  private static byte[] round(Native k, byte[] v) {
    return switch (k) {
      case FLOAT -> Values.ofFloat(Math.round(Float.intBitsToFloat(Values.toInt(v))));
      case DOUBLE -> Values.ofDouble(Math.round(Double.longBitsToDouble(Values.toLong(v))));
      case DECIMAL -> Values.ofDecimal(Values.toDecimal(v).setScale(0, RoundingMode.HALF_UP));
      default -> v; // integral values are already whole
    };
  }

  private static byte[] apply(Native k, byte[] v, DoubleUnaryOperator f, String name) {
    return switch (k) {
      case TINYINT -> new byte[] {(byte) (int) f.applyAsDouble(v[0])};
      case SMALLINT -> ofShort((short) (int) f.applyAsDouble(ByteBuffer.wrap(v).getShort()));
      case INT -> Values.ofInt((int) f.applyAsDouble(Values.toInt(v)));
      case BIGINT, COUNTER -> Values.ofLong((long) f.applyAsDouble(Values.toLong(v)));
      case FLOAT -> Values.ofFloat((float) f.applyAsDouble(Float.intBitsToFloat(Values.toInt(v))));
      case DOUBLE -> Values.ofDouble(f.applyAsDouble(Double.longBitsToDouble(Values.toLong(v))));
      case VARINT -> decimal(new BigDecimal(new BigInteger(v)), name).toBigInteger().toByteArray();
      case DECIMAL -> Values.ofDecimal(decimal(Values.toDecimal(v), name));
      default -> throw new IllegalArgumentException(k.name());
    };
  }

  /** As Cassandra's DecimalType.exp/log/log10 (an ArithmeticException for a log of zero or less). */
  private static BigDecimal decimal(BigDecimal x, String name) {
    MathContext mc = new MathContext(Math.min(MAX_PRECISION, Math.max(MIN_SIGNIFICANT_DIGITS, x.precision())),
        RoundingMode.HALF_EVEN);
    return switch (name) {
      case "exp" -> BigDecimalMath.exp(x, mc);
      case "log" -> {
        if (x.signum() <= 0) {
          throw new ArithmeticException("Natural log of number zero or less");
        }
        yield BigDecimalMath.log(x, mc);
      }
      default -> {
        if (x.signum() <= 0) {
          throw new ArithmeticException("Log10 of number zero or less");
        }
        yield BigDecimalMath.log10(x, mc);
      }
    };
  }

  private static byte[] ofShort(short s) {
    return ByteBuffer.allocate(2).putShort(s).array();
  }
}
