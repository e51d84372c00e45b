package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.CqlType.VectorType;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Json;
import io.cassette.cql.language.types.Literals;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueComparison;
import io.cassette.cql.language.types.Values;
import io.cassette.cql.language.types.Values.Constant;
import io.cassette.cql.language.types.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Converts parsed JSON (INSERT JSON, fromJson()) to serialized values of a column type. */
public final class JsonValues {
  private JsonValues() {}

  public static byte[] fromJson(CqlType type, Object json, String column) {
    if (json == null) {
      return null;
    }
    try {
      if (type instanceof NativeType n) {
        return nativeFromJson(n, json, column);
      }
      if (type instanceof ListType l) {
        List<byte[]> es = new ArrayList<>();
        for (Object o : list(json, type)) {
          es.add(notNull(fromJson(l.element(), o, column)));
        }
        return CollectionCodec.pack(es);
      }
      if (type instanceof SetType s) {
        TreeMap<byte[], byte[]> sorted = new TreeMap<>((a, b) -> ValueComparison.compare(s.element(), a, b));
        for (Object o : list(json, type)) {
          byte[] v = notNull(fromJson(s.element(), o, column));
          sorted.put(v, v);
        }
        return CollectionCodec.pack(new ArrayList<>(sorted.keySet()));
      }
      if (type instanceof MapType m) {
        if (!(json instanceof Map<?, ?> obj)) {
          throw invalid("Expected a map, but got a " + json.getClass().getSimpleName() + ": " + json);
        }
        TreeMap<byte[], byte[]> sorted = new TreeMap<>((a, b) -> ValueComparison.compare(m.key(), a, b));
        for (Map.Entry<?, ?> e : obj.entrySet()) {
          String k = (String) e.getKey();
          Object keyJson = m.key() instanceof NativeType kn && isStringy(kn) ? k : Json.parse(k);
          sorted.put(notNull(fromJson(m.key(), keyJson, column)), notNull(fromJson(m.value(), e.getValue(), column)));
        }
        return CollectionCodec.packMap(new ArrayList<>(sorted.keySet()), new ArrayList<>(sorted.values()));
      }
      if (type instanceof TupleType t) {
        List<?> l = list(json, type);
        if (l.size() != t.elements().size()) {
          throw invalid("Tuple contains extra items (expected " + t.elements().size() + "): " + json);
        }
        List<byte[]> fs = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
          fs.add(fromJson(t.elements().get(i), l.get(i), column));
        }
        return CollectionCodec.packFields(fs);
      }
      if (type instanceof UdtType u) {
        if (!(json instanceof Map<?, ?> obj)) {
          throw invalid("Expected a map, but got a " + json.getClass().getSimpleName() + ": " + json);
        }
        byte[][] fs = new byte[u.fieldNames().size()][];
        for (Map.Entry<?, ?> e : obj.entrySet()) {
          String f = (String) e.getKey();
          int idx = u.fieldNames().indexOf(f.startsWith("\"") ? f.substring(1, f.length() - 1) : f.toLowerCase());
          if (idx < 0) {
            throw invalid("Unknown field '" + f + "' in value of user defined type " + u.name());
          }
          fs[idx] = fromJson(u.fieldTypes().get(idx), e.getValue(), column);
        }
        return CollectionCodec.packFields(java.util.Arrays.asList(fs));
      }
      if (type instanceof VectorType v) {
        List<byte[]> es = new ArrayList<>();
        for (Object o : list(json, type)) {
          es.add(notNull(fromJson(v.element(), o, column)));
        }
        return Vectors.join(v, es);
      }
    } catch (IllegalArgumentException e) {
      throw invalid("Error decoding JSON value for " + column + ": " + e.getMessage());
    }
    throw invalid("Unsupported type for JSON: " + Types.toCql(type));
  }

  private static boolean isStringy(NativeType n) {
    return n.kind() == CqlType.Native.TEXT || n.kind() == CqlType.Native.ASCII;
  }

  private static byte[] notNull(byte[] v) {
    if (v == null) {
      throw invalid("null is not supported inside collections");
    }
    return v;
  }

  private static List<?> list(Object json, CqlType type) {
    if (json instanceof List<?> l) {
      return l;
    }
    throw invalid("Expected a list, but got a " + json.getClass().getSimpleName() + ": " + json);
  }

  private static byte[] nativeFromJson(NativeType n, Object json, String column) {
    String prefix = "Error decoding JSON value for " + column + ": ";
    switch (n.kind()) {
      case ASCII, TEXT, INET:
        if (!(json instanceof String s)) {
          throw invalid(prefix + "Expected a UTF-8 string, but got a " + json.getClass().getSimpleName() + ": " + json);
        }
        return Literals.fromConstant(n, Constant.STRING, s, column);
      case BOOLEAN:
        if (json instanceof Boolean b) {
          return Values.ofBoolean(b);
        }
        if (json instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
          return Values.ofBoolean(Boolean.parseBoolean(s));
        }
        throw invalid(prefix + "Expected a boolean value, but got a " + json.getClass().getSimpleName() + ": " + json);
      case BLOB:
        if (json instanceof String s && s.startsWith("0x")) {
          return Literals.parseHex(s);
        }
        throw invalid(prefix + "Value '" + json + "' is not a valid blob representation: String representation of blob is missing 0x prefix: " + json);
      case UUID, TIMEUUID, DURATION:
        if (json instanceof String s) {
          return Literals.fromConstant(n, n.kind() == CqlType.Native.DURATION ? Constant.DURATION : Constant.UUID, s, column);
        }
        throw invalid(prefix + "Expected a string representation of a uuid, but got a "
            + json.getClass().getSimpleName() + ": " + json);
      case TIMESTAMP, DATE, TIME:
        if (json instanceof String s) {
          return Literals.fromConstant(n, Constant.STRING, s, column);
        }
        if (json instanceof Json.Number num) {
          return Literals.fromConstant(n, Constant.INTEGER, num.text(), column);
        }
        throw invalid(prefix + "Expected a long or a datestring representation of a timestamp value, but got a "
            + json.getClass().getSimpleName() + ": " + json);
      default: {
        String text = json instanceof Json.Number num ? num.text() : json instanceof String s ? s : null;
        if (text == null) {
          throw invalid(prefix + "Expected a number, but got a " + json.getClass().getSimpleName() + ": " + json);
        }
        boolean floating = text.contains(".") || text.contains("e") || text.contains("E");
        try {
          return Literals.fromConstant(n, floating ? Constant.FLOAT : Constant.INTEGER, text, column);
        } catch (io.cassette.cql.CqlException e) {
          throw invalid(prefix + "Unable to make " + Types.toCql(n) + " from '" + text + "'");
        }
      }
    }
  }
}
