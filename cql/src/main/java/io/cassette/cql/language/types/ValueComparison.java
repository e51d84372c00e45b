package io.cassette.cql.language.types;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.storage.Bytes;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * Compares serialized values in Cassandra's order (per type: signed numbers, unsigned bytes,
 * time UUIDs by timestamp, collections element-wise).
 */
public final class ValueComparison {

  private ValueComparison() {}

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
        case INT -> Integer.compare(Values.toInt(a), Values.toInt(b));
        case BIGINT, COUNTER, TIMESTAMP, TIME -> Long.compare(Values.toLong(a), Values.toLong(b));
        case SMALLINT -> Short.compare(ByteBuffer.wrap(a).getShort(), ByteBuffer.wrap(b).getShort());
        case TINYINT -> Byte.compare(a[0], b[0]);
        case DATE -> Integer.compareUnsigned(Values.toInt(a), Values.toInt(b));
        case FLOAT -> Float.compare(Float.intBitsToFloat(Values.toInt(a)), Float.intBitsToFloat(Values.toInt(b)));
        case DOUBLE -> Double.compare(Double.longBitsToDouble(Values.toLong(a)), Double.longBitsToDouble(Values.toLong(b)));
        case VARINT -> new BigInteger(a).compareTo(new BigInteger(b));
        case DECIMAL -> Values.toDecimal(a).compareTo(Values.toDecimal(b));
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
}
