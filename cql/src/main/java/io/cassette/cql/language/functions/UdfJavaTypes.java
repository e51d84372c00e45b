package io.cassette.cql.language.functions;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueComparison;
import io.cassette.cql.language.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The Java types a Java UDF sees for CQL types, as Cassandra's UDHelper maps them (int is
 * Integer, text String, blob ByteBuffer, timestamp java.util.Date, list&lt;T&gt; java.util.List,
 * ...), and the conversions between serialized values and those objects. Arguments of a function
 * that RETURNS NULL ON NULL INPUT are primitives where one exists (never null), as Cassandra's.
 * Types without a plain Java form here (date, duration, tuples, UDTs, vectors) are refused when
 * the function is created.
 */
final class UdfJavaTypes {
  private UdfJavaTypes() {}

  /** The Java source type for {@code t}; {@code primitive} unboxes where Java can. */
  static String javaType(CqlType t, boolean primitive) {
    if (t instanceof NativeType n) {
      String boxed = switch (n.kind()) {
        case INT -> "Integer";
        case BIGINT, COUNTER, TIME -> "Long";
        case SMALLINT -> "Short";
        case TINYINT -> "Byte";
        case FLOAT -> "Float";
        case DOUBLE -> "Double";
        case BOOLEAN -> "Boolean";
        case TEXT, ASCII -> "String";
        case BLOB -> "java.nio.ByteBuffer";
        case UUID, TIMEUUID -> "java.util.UUID";
        case TIMESTAMP -> "java.util.Date";
        case DECIMAL -> "java.math.BigDecimal";
        case VARINT -> "java.math.BigInteger";
        case INET -> "java.net.InetAddress";
        default -> throw unsupported(t);
      };
      if (primitive) {
        return switch (boxed) {
          case "Integer" -> "int";
          case "Long" -> "long";
          case "Short" -> "short";
          case "Byte" -> "byte";
          case "Float" -> "float";
          case "Double" -> "double";
          case "Boolean" -> "boolean";
          default -> boxed;
        };
      }
      return boxed;
    }
    if (t instanceof ListType l) {
      return "java.util.List<" + javaType(l.element(), false) + ">";
    }
    if (t instanceof SetType s) {
      return "java.util.Set<" + javaType(s.element(), false) + ">";
    }
    if (t instanceof MapType m) {
      return "java.util.Map<" + javaType(m.key(), false) + ", " + javaType(m.value(), false) + ">";
    }
    throw unsupported(t);
  }

  private static RuntimeException unsupported(CqlType t) {
    return invalid("Java user-defined functions in Cassette do not take or return type " + Types.toCql(t));
  }

  /** The object a UDF receives for a serialized value (null for null). */
  static Object toJava(CqlType t, byte[] v) {
    if (v == null) {
      return null;
    }
    if (t instanceof NativeType n) {
      if (v.length == 0 && n.kind() != CqlType.Native.TEXT && n.kind() != CqlType.Native.ASCII
          && n.kind() != CqlType.Native.BLOB) {
        return null; // an empty value of a fixed-width type
      }
      return switch (n.kind()) {
        case INT -> Values.toInt(v);
        case BIGINT, COUNTER, TIME -> Values.toLong(v);
        case SMALLINT -> ByteBuffer.wrap(v).getShort();
        case TINYINT -> v[0];
        case FLOAT -> Float.intBitsToFloat(Values.toInt(v));
        case DOUBLE -> Double.longBitsToDouble(Values.toLong(v));
        case BOOLEAN -> v[0] != 0;
        case TEXT, ASCII -> Values.toText(v);
        case BLOB -> ByteBuffer.wrap(v.clone());
        case UUID, TIMEUUID -> Values.toUuid(v);
        case TIMESTAMP -> new Date(Values.toLong(v));
        case DECIMAL -> Values.toDecimal(v);
        case VARINT -> new BigInteger(v);
        case INET -> {
          try {
            yield InetAddress.getByAddress(v);
          } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
          }
        }
        default -> throw unsupported(t);
      };
    }
    if (t instanceof ListType l) {
      List<Object> out = new ArrayList<>();
      for (byte[] e : CollectionCodec.unpack(v, false)) {
        out.add(toJava(l.element(), e));
      }
      return out;
    }
    if (t instanceof SetType s) {
      java.util.Set<Object> out = new LinkedHashSet<>();
      for (byte[] e : CollectionCodec.unpack(v, false)) {
        out.add(toJava(s.element(), e));
      }
      return out;
    }
    if (t instanceof MapType m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      List<byte[]> kv = CollectionCodec.unpack(v, true);
      for (int i = 0; i < kv.size(); i += 2) {
        out.put(toJava(m.key(), kv.get(i)), toJava(m.value(), kv.get(i + 1)));
      }
      return out;
    }
    throw unsupported(t);
  }

  /**
   * The serialized value of what a UDF returned; a wrong Java class fails with
   * {@link ClassCastException} (the caller reports it as the function's failure).
   */
  static byte[] fromJava(CqlType t, Object o) {
    if (o == null) {
      return null;
    }
    if (t instanceof NativeType n) {
      return switch (n.kind()) {
        case INT -> Values.ofInt((Integer) o);
        case BIGINT, COUNTER, TIME -> Values.ofLong((Long) o);
        case SMALLINT -> ByteBuffer.allocate(2).putShort((Short) o).array();
        case TINYINT -> new byte[] {(Byte) o};
        case FLOAT -> Values.ofFloat((Float) o);
        case DOUBLE -> Values.ofDouble((Double) o);
        case BOOLEAN -> Values.ofBoolean((Boolean) o);
        case TEXT, ASCII -> Values.ofText((String) o);
        case BLOB -> {
          ByteBuffer b = ((ByteBuffer) o).duplicate();
          byte[] out = new byte[b.remaining()];
          b.get(out);
          yield out;
        }
        case UUID, TIMEUUID -> Values.ofUuid((UUID) o);
        case TIMESTAMP -> Values.ofLong(((Date) o).getTime());
        case DECIMAL -> Values.ofDecimal((BigDecimal) o);
        case VARINT -> ((BigInteger) o).toByteArray();
        case INET -> Values.ofInet((InetAddress) o);
        default -> throw unsupported(t);
      };
    }
    if (t instanceof ListType l) {
      List<byte[]> out = new ArrayList<>();
      for (Object e : (List<?>) o) {
        out.add(fromJava(l.element(), e));
      }
      return CollectionCodec.pack(out);
    }
    if (t instanceof SetType s) {
      List<byte[]> out = new ArrayList<>();
      for (Object e : (Collection<?>) o) {
        out.add(fromJava(s.element(), e));
      }
      out.sort((a, b) -> ValueComparison.compare(s.element(), a, b)); // a set is stored in CQL order
      return CollectionCodec.pack(out);
    }
    if (t instanceof MapType m) {
      List<Map.Entry<byte[], byte[]>> es = new ArrayList<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        es.add(new java.util.AbstractMap.SimpleEntry<>(fromJava(m.key(), e.getKey()), fromJava(m.value(), e.getValue())));
      }
      es.sort((a, b) -> ValueComparison.compare(m.key(), a.getKey(), b.getKey()));
      List<byte[]> ks = new ArrayList<>();
      List<byte[]> vs = new ArrayList<>();
      for (Map.Entry<byte[], byte[]> e : es) {
        ks.add(e.getKey());
        vs.add(e.getValue());
      }
      return CollectionCodec.packMap(ks, vs);
    }
    throw unsupported(t);
  }
}
