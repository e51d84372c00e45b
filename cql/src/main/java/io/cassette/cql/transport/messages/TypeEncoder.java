package io.cassette.cql.transport.messages;

import io.cassette.cql.CqlType;
import io.netty.buffer.ByteBuf;

/**
 * Writes a {@link CqlType} as an [option] (spec 4.2.5.2): a type id, then the ids of its
 * parameters. Vectors have no id of their own: like Cassandra, we send them as a custom type
 * naming the marshal class.
 */
public final class TypeEncoder {
  static final int CUSTOM = 0x0000;
  static final int LIST = 0x0020;
  static final int MAP = 0x0021;
  static final int SET = 0x0022;
  static final int UDT = 0x0030;
  static final int TUPLE = 0x0031;
  private static final String MARSHAL = "org.apache.cassandra.db.marshal.";

  private TypeEncoder() {}

  public static void write(ByteBuf out, CqlType type) {
    if (type instanceof CqlType.NativeType n) {
      out.writeShort(n.kind().optionId);
    } else if (type instanceof CqlType.CustomType c) {
      out.writeShort(CUSTOM);
      CqlCodec.writeString(out, c.className());
    } else if (type instanceof CqlType.ListType l) {
      out.writeShort(LIST);
      write(out, l.element());
    } else if (type instanceof CqlType.SetType s) {
      out.writeShort(SET);
      write(out, s.element());
    } else if (type instanceof CqlType.MapType m) {
      out.writeShort(MAP);
      write(out, m.key());
      write(out, m.value());
    } else if (type instanceof CqlType.TupleType t) {
      out.writeShort(TUPLE);
      out.writeShort(t.elements().size());
      for (CqlType e : t.elements()) {
        write(out, e);
      }
    } else if (type instanceof CqlType.UdtType u) {
      out.writeShort(UDT);
      CqlCodec.writeString(out, u.keyspace());
      CqlCodec.writeString(out, u.name());
      out.writeShort(u.fieldNames().size());
      for (int i = 0; i < u.fieldNames().size(); i++) {
        CqlCodec.writeString(out, u.fieldNames().get(i));
        write(out, u.fieldTypes().get(i));
      }
    } else if (type instanceof CqlType.VectorType v) {
      out.writeShort(CUSTOM);
      CqlCodec.writeString(out, marshalClass(v));
    } else {
      throw new IllegalArgumentException("Unknown CQL type " + type);
    }
  }

  /** Cassandra's marshal class name of {@code type}, as custom types carry it. */
  public static String marshalClass(CqlType type) {
    if (type instanceof CqlType.NativeType n) {
      return MARSHAL + switch (n.kind()) {
        case ASCII -> "AsciiType";
        case BIGINT -> "LongType";
        case BLOB -> "BytesType";
        case BOOLEAN -> "BooleanType";
        case COUNTER -> "CounterColumnType";
        case DECIMAL -> "DecimalType";
        case DOUBLE -> "DoubleType";
        case FLOAT -> "FloatType";
        case INT -> "Int32Type";
        case TIMESTAMP -> "TimestampType";
        case UUID -> "UUIDType";
        case TEXT -> "UTF8Type";
        case VARINT -> "IntegerType";
        case TIMEUUID -> "TimeUUIDType";
        case INET -> "InetAddressType";
        case DATE -> "SimpleDateType";
        case TIME -> "TimeType";
        case SMALLINT -> "ShortType";
        case TINYINT -> "ByteType";
        case DURATION -> "DurationType";
      };
    } else if (type instanceof CqlType.CustomType c) {
      return c.className();
    } else if (type instanceof CqlType.ListType l) {
      return frozen(MARSHAL + "ListType(" + marshalClass(l.element()) + ")", l.frozen());
    } else if (type instanceof CqlType.SetType s) {
      return frozen(MARSHAL + "SetType(" + marshalClass(s.element()) + ")", s.frozen());
    } else if (type instanceof CqlType.MapType m) {
      return frozen(MARSHAL + "MapType(" + marshalClass(m.key()) + "," + marshalClass(m.value()) + ")", m.frozen());
    } else if (type instanceof CqlType.TupleType t) {
      return MARSHAL + "TupleType(" + String.join(",", t.elements().stream().map(TypeEncoder::marshalClass).toList())
          + ")";
    } else if (type instanceof CqlType.UdtType u) {
      StringBuilder sb = new StringBuilder(MARSHAL).append("UserType(").append(u.keyspace()).append(',')
          .append(hex(u.name()));
      for (int i = 0; i < u.fieldNames().size(); i++) {
        sb.append(',').append(hex(u.fieldNames().get(i))).append(':').append(marshalClass(u.fieldTypes().get(i)));
      }
      return frozen(sb.append(')').toString(), u.frozen());
    } else if (type instanceof CqlType.VectorType v) {
      return MARSHAL + "VectorType(" + marshalClass(v.element()) + ", " + v.dimension() + ")";
    }
    throw new IllegalArgumentException("Unknown CQL type " + type);
  }

  private static String frozen(String inner, boolean frozen) {
    return frozen ? MARSHAL + "FrozenType(" + inner + ")" : inner;
  }

  private static String hex(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return sb.toString();
  }
}
