package io.cassette.cql.language.functions;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Cassandra 5.0's masking functions (dynamic data masking, CEP-20), usable in SELECT as any
 * function: {@code mask_null(x)}, {@code mask_default(x)} (a fixed value of x's type: '****',
 * 0, false, the epoch, an empty collection...), {@code mask_replace(x, r)},
 * {@code mask_inner(s, begin, end[, pad])} and {@code mask_outer(s, begin, end[, pad])} on text,
 * {@code mask_hash(x[, algorithm])} (SHA-256 of the serialized value by default, a blob).
 */
public final class MaskFunctions {
  static final List<String> NAMES = List.of("mask_null", "mask_default", "mask_replace", "mask_inner",
      "mask_outer", "mask_hash");
  private static final String TEXT_SIGNATURE = "([text|varchar|ascii], int, int, [text])";

  private MaskFunctions() {}

  public static boolean isMask(String name) {
    return NAMES.contains(name.toLowerCase(Locale.ROOT));
  }

  /**
   * The function for these arguments: the masked value's type decides the return type (a null
   * type is an untyped literal: text). {@code argTexts} (may be null) name the arguments for errors.
   */
  public static NativeFunction resolve(String name, List<CqlType> argTypes, List<String> argTexts) {
    String n = name.toLowerCase(Locale.ROOT);
    CqlType type = argTypes.isEmpty() || argTypes.get(0) == null ? Types.TEXT : argTypes.get(0);
    switch (n) {
      case "mask_null" -> {
        arity(n, argTypes, 1, 1, "(any)");
        return new NativeFunction(n, List.of(type), type, (a, c) -> null);
      }
      case "mask_default" -> {
        arity(n, argTypes, 1, 1, "(any)");
        byte[] value = defaultValue(type);
        return new NativeFunction(n, List.of(type), type, (a, c) -> value);
      }
      case "mask_replace" -> {
        arity(n, argTypes, 2, 2, "(any, any)");
        return new NativeFunction(n, List.of(type, type), type, (a, c) -> a.get(1));
      }
      case "mask_hash" -> {
        arity(n, argTypes, 1, 2, "(any, [text])");
        List<CqlType> sig = argTypes.size() == 1 ? List.of(type) : List.of(type, Types.TEXT);
        return new NativeFunction(n, sig, Types.BLOB, (a, c) -> {
          if (a.get(0) == null) {
            return null;
          }
          String algorithm = a.size() > 1 && a.get(1) != null
              ? new String(a.get(1), StandardCharsets.UTF_8) : "SHA-256";
          try {
            return MessageDigest.getInstance(algorithm).digest(a.get(0));
          } catch (NoSuchAlgorithmException e) {
            throw invalid("Hash algorithm not found: " + algorithm);
          }
        });
      }
      default -> {
        arity(n, argTypes, 3, 4, TEXT_SIGNATURE);
        if (!Types.isNative(type, Native.TEXT) && !Types.isNative(type, Native.ASCII)) {
          throw invalid("Function system." + n + " requires an argument of type [text|varchar|ascii], but found argument "
              + (argTexts == null ? Types.toCql(type) : argTexts.get(0)) + " of type " + Types.toCql(type));
        }
        boolean inner = n.equals("mask_inner");
        List<CqlType> sig = new ArrayList<>(List.of(type, Types.INT, Types.INT));
        if (argTypes.size() == 4) {
          sig.add(Types.TEXT);
        }
        return new NativeFunction(n, sig, type, (a, c) -> {
          if (a.get(0) == null) {
            return null;
          }
          char pad = '*';
          if (a.size() > 3 && a.get(3) != null) {
            String p = new String(a.get(3), StandardCharsets.UTF_8);
            if (p.codePointCount(0, p.length()) != 1) {
              throw invalid("The padding argument for function system." + n + " should be single-character, but '"
                  + p + "' has " + p.codePointCount(0, p.length()) + " characters.");
            }
            pad = p.charAt(0);
          }
          int begin = a.get(1) == null ? 0 : Math.max(0, Values.toInt(a.get(1)));
          int end = a.get(2) == null ? 0 : Math.max(0, Values.toInt(a.get(2)));
          String s = new String(a.get(0), StandardCharsets.UTF_8);
          return Values.ofText(inner ? maskInner(s, begin, end, pad) : maskOuter(s, begin, end, pad));
        });
      }
    }
  }

  private static void arity(String n, List<CqlType> args, int min, int max, String signature) {
    if (args.size() < min || args.size() > max) {
      throw invalid("Invalid number of arguments for function system." + n + signature);
    }
  }

  /** Keeps {@code begin} leading and {@code end} trailing characters, pads the rest. */
  static String maskInner(String s, int begin, int end, char pad) {
    int len = s.length();
    if (begin + end >= len) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.substring(0, begin));
    for (int i = begin; i < len - end; i++) {
      sb.append(pad);
    }
    return sb.append(s, len - end, len).toString();
  }

  /** Pads {@code begin} leading and {@code end} trailing characters, keeps the middle. */
  static String maskOuter(String s, int begin, int end, char pad) {
    int len = s.length();
    StringBuilder sb = new StringBuilder(len);
    for (int i = 0; i < len; i++) {
      sb.append(i < begin || i >= len - end ? pad : s.charAt(i));
    }
    return sb.toString();
  }

  /** Cassandra's masked default of each type (AbstractType.getMaskedValue). */
  static byte[] defaultValue(CqlType t) {
    if (t instanceof CqlType.VectorType v) {
      List<byte[]> zeros = new ArrayList<>();
      for (int i = 0; i < v.dimension(); i++) {
        zeros.add(defaultValue(v.element()));
      }
      return io.cassette.cql.language.types.Vectors.join(v, zeros);
    }
    if (t instanceof CqlType.MapType) {
      return CollectionCodec.packMap(List.of(), List.of());
    }
    if (Types.isCollection(t)) {
      return CollectionCodec.pack(List.of());
    }
    if (!(t instanceof CqlType.NativeType nt)) {
      return null;
    }
    return switch (nt.kind()) {
      case TEXT, ASCII -> Values.ofText("****");
      case INT -> Values.ofInt(0);
      case BIGINT, COUNTER, TIMESTAMP, TIME -> Values.ofLong(0);
      case SMALLINT -> new byte[2];
      case TINYINT -> new byte[1];
      case FLOAT -> Values.ofFloat(0f);
      case DOUBLE -> Values.ofDouble(0d);
      case DECIMAL -> Values.ofDecimal(BigDecimal.ZERO);
      case VARINT -> new byte[1];
      case BOOLEAN -> Values.ofBoolean(false);
      case DATE -> Values.ofInt((int) Values.DATE_EPOCH_OFFSET);
      case UUID -> new byte[16];
      case INET -> new byte[4];
      case BLOB -> new byte[0];
      default -> null;
    };
  }
}
