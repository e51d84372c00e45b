package io.cassette.cql.language.types;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.CqlType.VectorType;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte-comparable, prefix-free encodings of values: unsigned byte order of the encoding is
 * Cassandra's order of the values. Used for clustering keys, set elements and map keys (cell
 * paths). Every encoding can be decoded back to the serialized value.
 *
 * <pre>
 * int/bigint/smallint/tinyint/timestamp/time/counter : big-endian, sign bit flipped
 * date                                                : big-endian unsigned (as serialized)
 * float/double         : IEEE bits; negative: all bits inverted, else sign bit flipped
 * boolean              : one byte
 * timeuuid             : 8-byte 60-bit timestamp, then 8 low bytes each ^0x80 (signed order)
 * uuid                 : version byte, then the timeuuid form (v1) or the 16 raw bytes
 * varint               : length header (0x80+n positive, 0x7F-n negative), two's complement bytes
 * decimal              : sign byte, exponent, digits, 0x00, then the raw value escaped
 * text/ascii/blob/inet : escaped bytes (0x00 -> 0x00 0xFF) terminated by 0x00 0x00
 * frozen list/set/map  : per element 0x01 + encoding, then 0x00
 * tuple/udt            : per field 0x00 (null) or 0x01 + encoding
 * vector               : element encodings concatenated
 * </pre>
 * A descending component has every byte inverted, which keeps it prefix-free.
 */
public final class ComparableEncoding {
  private ComparableEncoding() {}

  public static byte[] encode(CqlType type, byte[] value, boolean descending) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 4);
    write(out, type, value);
    byte[] b = out.toByteArray();
    if (descending) {
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) ~b[i];
      }
    }
    return b;
  }

  /** Appends the encoding of {@code value} to {@code out}. */
  public static void write(ByteArrayOutputStream out, CqlType type, byte[] value) {
    if (type instanceof NativeType n) {
      if (value.length == 0 && fixedWidth(n) > 0) {
        // Empty values of fixed-width types sort first: 0x00 marker; others are 0x01 + bytes.
        out.write(0);
        return;
      }
      switch (n.kind()) {
        case INT, BIGINT, SMALLINT, TINYINT, TIMESTAMP, TIME, COUNTER -> {
          out.write(1);
          out.write((value[0] ^ 0x80) & 0xFF);
          out.write(value, 1, value.length - 1);
        }
        case DATE, BOOLEAN -> {
          out.write(1);
          out.write(value, 0, value.length);
        }
        case FLOAT, DOUBLE -> {
          out.write(1);
          boolean neg = value[0] < 0;
          for (int i = 0; i < value.length; i++) {
            int b = value[i] & 0xFF;
            out.write(neg ? ~b & 0xFF : (i == 0 ? b ^ 0x80 : b));
          }
        }
        case TIMEUUID -> {
          out.write(1);
          writeTimeUuid(out, value);
        }
        case UUID -> {
          out.write(1);
          int version = (value[6] >> 4) & 0xF;
          out.write(version);
          if (version == 1) {
            writeTimeUuid(out, value);
          } else {
            out.write(value, 0, 16);
          }
        }
        case VARINT -> {
          if (value.length > 126) {
            throw new IllegalArgumentException("varint too large for a clustering key");
          }
          out.write(value[0] < 0 ? 0x7F - value.length : 0x80 + value.length);
          out.write(value, 0, value.length);
        }
        case DECIMAL -> {
          writeDecimalPrefix(out, Values.toDecimal(value));
          escape(out, value);
        }
        default -> escape(out, value);
      }
      return;
    }
    if (type instanceof ListType || type instanceof SetType || type instanceof MapType) {
      boolean map = type instanceof MapType;
      List<byte[]> es = CollectionCodec.unpack(value, map);
      for (int i = 0; i < es.size(); i++) {
        if (!map || i % 2 == 0) {
          out.write(1);
        }
        write(out, elementType(type, i), es.get(i));
      }
      out.write(0);
      return;
    }
    if (type instanceof TupleType || type instanceof UdtType) {
      List<CqlType> fts = fieldTypes(type);
      List<byte[]> fs = CollectionCodec.unpackFields(value, fts.size());
      for (int i = 0; i < fts.size(); i++) {
        if (fs.get(i) == null) {
          out.write(0);
        } else {
          out.write(1);
          write(out, fts.get(i), fs.get(i));
        }
      }
      return;
    }
    if (type instanceof VectorType v) {
      for (byte[] e : Vectors.split(v, value)) {
        write(out, v.element(), e);
      }
      return;
    }
    escape(out, value);
  }

  private static int fixedWidth(NativeType n) {
    return switch (n.kind()) {
      case INT, BIGINT, SMALLINT, TINYINT, TIMESTAMP, TIME, COUNTER, DATE, BOOLEAN, FLOAT, DOUBLE,
          TIMEUUID, UUID -> 1;
      default -> 0;
    };
  }

  private static CqlType elementType(CqlType type, int i) {
    if (type instanceof ListType l) {
      return l.element();
    }
    if (type instanceof SetType s) {
      return s.element();
    }
    MapType m = (MapType) type;
    return i % 2 == 0 ? m.key() : m.value();
  }

  private static List<CqlType> fieldTypes(CqlType type) {
    return type instanceof TupleType t ? t.elements() : ((UdtType) type).fieldTypes();
  }

  private static void writeTimeUuid(ByteArrayOutputStream out, byte[] value) {
    long ts = ValueComparison.uuidTimestamp(value);
    for (int i = 7; i >= 0; i--) {
      out.write((int) (ts >>> (i * 8)) & 0xFF);
    }
    for (int i = 8; i < 16; i++) {
      out.write((value[i] ^ 0x80) & 0xFF);
    }
  }

  private static void writeDecimalPrefix(ByteArrayOutputStream out, BigDecimal d) {
    int sign = d.signum();
    out.write(sign + 1);
    if (sign == 0) {
      return;
    }
    BigDecimal abs = d.abs().stripTrailingZeros();
    String digits = abs.unscaledValue().toString();
    int exponent = digits.length() - abs.scale();
    byte[] e = ByteBuffer.allocate(4).putInt(exponent ^ 0x80000000).array();
    byte[] body = new byte[4 + digits.length() + 1];
    System.arraycopy(e, 0, body, 0, 4);
    for (int i = 0; i < digits.length(); i++) {
      body[4 + i] = (byte) digits.charAt(i);
    }
    if (sign < 0) {
      for (int i = 0; i < body.length; i++) {
        body[i] = (byte) ~body[i];
      }
    }
    out.write(body, 0, body.length);
  }

  private static void escape(ByteArrayOutputStream out, byte[] value) {
    for (byte b : value) {
      out.write(b);
      if (b == 0) {
        out.write(0xFF);
      }
    }
    out.write(0);
    out.write(0);
  }

  /** Decodes a sequence of components (each with its type and direction) from {@code bytes}. */
  public static List<byte[]> decode(byte[] bytes, List<CqlType> types, List<Boolean> descending) {
    List<byte[]> out = new ArrayList<>(types.size());
    Reader r = new Reader(bytes);
    for (int i = 0; i < types.size() && r.pos < bytes.length; i++) {
      r.invert = descending.get(i);
      out.add(r.read(types.get(i)));
    }
    return out;
  }

  /** Decodes one component that fills {@code bytes} (a cell path). */
  public static byte[] decodeOne(CqlType type, byte[] bytes) {
    Reader r = new Reader(bytes);
    return r.read(type);
  }

  private static final class Reader {
    final byte[] b;
    int pos;
    boolean invert;

    Reader(byte[] b) {
      this.b = b;
    }

    int next() {
      int v = b[pos++] & 0xFF;
      return invert ? ~v & 0xFF : v;
    }

    byte[] take(int n) {
      byte[] v = new byte[n];
      for (int i = 0; i < n; i++) {
        v[i] = (byte) next();
      }
      return v;
    }

    byte[] read(CqlType type) {
      if (type instanceof NativeType n) {
        if (fixedWidth(n) > 0) {
          if (next() == 0) {
            return new byte[0];
          }
        }
        switch (n.kind()) {
          case INT, BIGINT, SMALLINT, TINYINT, TIMESTAMP, TIME, COUNTER -> {
            int w = n.kind() == CqlType.Native.INT ? 4 : n.kind() == CqlType.Native.SMALLINT ? 2
                : n.kind() == CqlType.Native.TINYINT ? 1 : 8;
            byte[] v = take(w);
            v[0] ^= (byte) 0x80;
            return v;
          }
          case DATE -> {
            return take(4);
          }
          case BOOLEAN -> {
            return take(1);
          }
          case FLOAT, DOUBLE -> {
            int w = n.kind() == CqlType.Native.FLOAT ? 4 : 8;
            byte[] v = take(w);
            if ((v[0] & 0x80) != 0) {
              v[0] ^= (byte) 0x80;
            } else {
              for (int i = 0; i < w; i++) {
                v[i] = (byte) ~v[i];
              }
            }
            return v;
          }
          case TIMEUUID -> {
            return readTimeUuid();
          }
          case UUID -> {
            int version = next();
            return version == 1 ? readTimeUuid() : take(16);
          }
          case VARINT -> {
            int h = next();
            int len = h >= 0x80 ? h - 0x80 : 0x7F - h;
            return take(len);
          }
          case DECIMAL -> {
            int sign = next() - 1;
            if (sign != 0) {
              pos += 4;
              int term = sign < 0 ? 0xFF : 0;
              while (next() != term) {
                // skip digits
              }
            }
            return unescape();
          }
          default -> {
            return unescape();
          }
        }
      }
      if (type instanceof ListType || type instanceof SetType || type instanceof MapType) {
        boolean map = type instanceof MapType;
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        while (next() == 1) {
          if (map) {
            keys.add(read(((MapType) type).key()));
            values.add(read(((MapType) type).value()));
          } else {
            keys.add(read(elementType(type, 0)));
          }
        }
        return map ? CollectionCodec.packMap(keys, values) : CollectionCodec.pack(keys);
      }
      if (type instanceof TupleType || type instanceof UdtType) {
        List<CqlType> fts = fieldTypes(type);
        List<byte[]> fs = new ArrayList<>();
        for (CqlType ft : fts) {
          fs.add(next() == 0 ? null : read(ft));
        }
        return CollectionCodec.packFields(fs);
      }
      if (type instanceof VectorType v) {
        List<byte[]> es = new ArrayList<>();
        for (int i = 0; i < v.dimension(); i++) {
          es.add(read(v.element()));
        }
        return Vectors.join(v, es);
      }
      return unescape();
    }

    byte[] readTimeUuid() {
      long ts = 0;
      for (int i = 0; i < 8; i++) {
        ts = (ts << 8) | next();
      }
      long msb = ((ts & 0xFFFFFFFFL) << 32) | (((ts >>> 32) & 0xFFFFL) << 16) | 0x1000L
          | ((ts >>> 48) & 0x0FFFL);
      ByteBuffer bb = ByteBuffer.allocate(16).putLong(msb);
      for (int i = 0; i < 8; i++) {
        bb.put((byte) (next() ^ 0x80));
      }
      return bb.array();
    }

    byte[] unescape() {
      ByteArrayOutputStream v = new ByteArrayOutputStream();
      while (true) {
        int c = next();
        if (c == 0) {
          int d = next();
          if (d == 0) {
            return v.toByteArray();
          }
          v.write(0);
        } else {
          v.write(c);
        }
      }
    }
  }
}
