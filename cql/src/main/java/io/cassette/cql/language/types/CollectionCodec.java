package io.cassette.cql.language.types;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The native protocol's (v3+) serialized forms of collections, tuples and UDTs.
 *
 * <pre>
 * list/set : [int32 n] n x ([int32 len][bytes])
 * map      : [int32 n] n x ([int32 len][key bytes][int32 len][value bytes])
 * tuple/udt: fields x ([int32 len, -1 = null][bytes])
 * </pre>
 */
public final class CollectionCodec {
  private CollectionCodec() {}

  public static byte[] pack(List<byte[]> elements) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeInt(out, elements.size());
    for (byte[] e : elements) {
      writeValue(out, e);
    }
    return out.toByteArray();
  }

  public static byte[] packMap(List<byte[]> keys, List<byte[]> values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeInt(out, keys.size());
    for (int i = 0; i < keys.size(); i++) {
      writeValue(out, keys.get(i));
      writeValue(out, values.get(i));
    }
    return out.toByteArray();
  }

  /** Tuple/UDT fields; a null field is written with length -1. */
  public static byte[] packFields(List<byte[]> fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] e : fields) {
      writeValue(out, e);
    }
    return out.toByteArray();
  }

  /** Elements of a list or set value; for a map, keys and values alternate. */
  public static List<byte[]> unpack(byte[] value, boolean map) {
    ByteBuffer b = ByteBuffer.wrap(value);
    if (b.remaining() < 4) {
      throw new IllegalArgumentException("Not enough bytes to read a " + (map ? "map" : "list"));
    }
    int n = b.getInt();
    if (n < 0 || n > value.length) {
      throw new IllegalArgumentException("Invalid collection size " + n);
    }
    List<byte[]> out = new ArrayList<>(map ? n * 2 : n);
    for (int i = 0; i < (map ? n * 2 : n); i++) {
      out.add(readValue(b));
    }
    if (b.hasRemaining()) {
      throw new IllegalArgumentException("Unexpected extraneous bytes after " + (map ? "map" : "list") + " value");
    }
    return out;
  }

  /** Fields of a tuple or UDT value; missing trailing fields come back as null. */
  public static List<byte[]> unpackFields(byte[] value, int count) {
    ByteBuffer b = ByteBuffer.wrap(value);
    List<byte[]> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(b.hasRemaining() ? readValue(b) : null);
    }
    if (b.hasRemaining()) {
      throw new IllegalArgumentException("Invalid remaining data after end of tuple value");
    }
    return out;
  }

  private static byte[] readValue(ByteBuffer b) {
    if (b.remaining() < 4) {
      throw new IllegalArgumentException("Not enough bytes to read an element size");
    }
    int len = b.getInt();
    if (len < 0) {
      return null;
    }
    if (len > b.remaining()) {
      throw new IllegalArgumentException("Not enough bytes to read an element of size " + len);
    }
    byte[] v = new byte[len];
    b.get(v);
    return v;
  }

  private static void writeValue(ByteArrayOutputStream out, byte[] v) {
    if (v == null) {
      writeInt(out, -1);
    } else {
      writeInt(out, v.length);
      out.write(v, 0, v.length);
    }
  }

  private static void writeInt(ByteArrayOutputStream out, int v) {
    out.write(v >>> 24);
    out.write(v >>> 16);
    out.write(v >>> 8);
    out.write(v);
  }
}
