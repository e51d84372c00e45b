package io.cassette.cql.language.types;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.VectorType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Serialized vectors: fixed-length elements concatenated; variable-length ones each preceded
 * by an unsigned vint length (Cassandra 5.0's VectorType).
 */
public final class Vectors {
  private Vectors() {}

  /** Bytes per element of a fixed-length type, or -1. */
  public static int fixedLength(CqlType t) {
    if (t instanceof NativeType n) {
      return switch (n.kind()) {
        case INT, FLOAT, DATE -> 4;
        case BIGINT, DOUBLE, TIMESTAMP, TIME, COUNTER -> 8;
        case SMALLINT -> 2;
        case TINYINT, BOOLEAN -> 1;
        case UUID, TIMEUUID -> 16;
        default -> -1;
      };
    }
    return -1;
  }

  public static byte[] join(VectorType type, List<byte[]> elements) {
    if (elements.size() != type.dimension()) {
      throw new IllegalArgumentException("Invalid vector literal for " + Types.toCql(type)
          + ": expected " + type.dimension() + " elements but got " + elements.size());
    }
    int fixed = fixedLength(type.element());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] e : elements) {
      if (fixed < 0) {
        Durations.writeVInt(out, e.length);
      }
      out.write(e, 0, e.length);
    }
    return out.toByteArray();
  }

  public static List<byte[]> split(VectorType type, byte[] v) {
    int fixed = fixedLength(type.element());
    List<byte[]> out = new ArrayList<>(type.dimension());
    ByteBuffer b = ByteBuffer.wrap(v);
    for (int i = 0; i < type.dimension(); i++) {
      if (!b.hasRemaining()) {
        throw new IllegalArgumentException("Not enough bytes to read a vector<"
            + Types.toCql(type.element()) + ", " + type.dimension() + ">");
      }
      int len = fixed >= 0 ? fixed : (int) Durations.readVInt(b);
      if (len > b.remaining()) {
        throw new IllegalArgumentException("Not enough bytes to read a vector<"
            + Types.toCql(type.element()) + ", " + type.dimension() + ">");
      }
      byte[] e = new byte[len];
      b.get(e);
      out.add(e);
    }
    if (b.hasRemaining()) {
      throw new IllegalArgumentException("Unexpected " + b.remaining()
          + " extraneous bytes after vector<" + Types.toCql(type.element()) + ", " + type.dimension() + "> value");
    }
    return out;
  }
}
