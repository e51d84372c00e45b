package io.cassette.cql.language.types;

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
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The text forms Cassandra prints for a serialized value: CQL literals (cqlsh, error
 * messages), plain text (casts) and JSON (SELECT JSON, toJson).
 */
public final class TextForms {
  private static final long NANOS_PER_DAY = 86_400_000_000_000L;
  private static final DateTimeFormatter TS_OUT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TS_JSON =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

  private TextForms() {}

  // ---------------------------------------------------------------- text forms

  /** The value as a CQL literal (as cqlsh and error messages print it). */
  public static String toCqlLiteral(CqlType type, byte[] v) {
    if (v == null) {
      return "null";
    }
    if (type instanceof NativeType n) {
      return switch (n.kind()) {
        case ASCII, TEXT -> "'" + Values.toText(v).replace("'", "''") + "'";
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
        case ASCII, TEXT -> Values.toText(v);
        case INT -> Integer.toString(Values.toInt(v));
        case BIGINT, COUNTER -> Long.toString(Values.toLong(v));
        case SMALLINT -> Short.toString(ByteBuffer.wrap(v).getShort());
        case TINYINT -> Byte.toString(v[0]);
        case VARINT -> new BigInteger(v).toString();
        case DECIMAL -> Values.toDecimal(v).toString();
        case FLOAT -> floatText(Float.intBitsToFloat(Values.toInt(v)));
        case DOUBLE -> doubleText(Double.longBitsToDouble(Values.toLong(v)));
        case BOOLEAN -> Boolean.toString(v[0] != 0);
        case BLOB -> Bytes.hex(v);
        case UUID, TIMEUUID -> Values.toUuid(v).toString();
        case TIMESTAMP -> TS_OUT.format(Instant.ofEpochMilli(Values.toLong(v)));
        case DATE -> {
          long days = (Values.toInt(v) & 0xFFFFFFFFL) - Values.DATE_EPOCH_OFFSET;
          yield LocalDate.ofEpochDay(days).toString();
        }
        case TIME -> timeText(Values.toLong(v));
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
        case TIMESTAMP -> v.length == 0 ? "null" : Json.quote(TS_JSON.format(Instant.ofEpochMilli(Values.toLong(v))));
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
