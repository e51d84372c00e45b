package io.cassette.cql.language.types;

import static io.cassette.cql.language.Errors.invalid;

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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * Checks client-supplied serialized values (bound variables) with Cassandra's messages.
 */
public final class ValueValidation {

  private ValueValidation() {}

  // ---------------------------------------------------------------- validation

  /** Checks a client-supplied serialized value, with Cassandra's messages. */
  public static void validate(CqlType type, byte[] v) {
    if (v == null) {
      return;
    }
    if (type instanceof NativeType n) {
      int len = v.length;
      switch (n.kind()) {
        case INT -> fixed(len, 4, "int");
        case BIGINT, COUNTER, TIMESTAMP, TIME -> fixed(len, 8, n.kind() == Native.TIMESTAMP ? "timestamp"
            : n.kind() == Native.TIME ? "time" : "long");
        case DATE -> fixed(len, 4, "date");
        case SMALLINT -> {
          if (len != 2 && len != 0) {
            throw invalid("Expected 2 bytes for a smallint (" + len + ")");
          }
        }
        case TINYINT -> {
          if (len != 1 && len != 0) {
            throw invalid("Expected 1 byte for a tinyint (" + len + ")");
          }
        }
        case FLOAT -> fixed(len, 4, "float");
        case DOUBLE -> fixed(len, 8, "double");
        case BOOLEAN -> {
          if (len > 1) {
            throw invalid("Expected 1 or 0 byte value (" + len + ")");
          }
        }
        case UUID, TIMEUUID -> {
          if (len != 16 && len != 0) {
            throw invalid("UUID should be 16 or 0 bytes (" + len + ")");
          }
          if (n.kind() == Native.TIMEUUID && len == 16 && ((v[6] >> 4) & 0xF) != 1) {
            throw invalid("Invalid version for TimeUUID type.");
          }
        }
        case INET -> {
          if (len != 4 && len != 16 && len != 0) {
            throw invalid("Invalid inet address: length " + len);
          }
        }
        case ASCII -> {
          for (byte b : v) {
            if (b < 0) {
              throw invalid("Invalid byte for ascii: " + (b & 0xFF));
            }
          }
        }
        case TEXT -> {
          var dec = StandardCharsets.UTF_8.newDecoder();
          try {
            dec.decode(ByteBuffer.wrap(v));
          } catch (java.nio.charset.CharacterCodingException e) {
            throw invalid("Invalid UTF-8 bytes " + Bytes.hex(v));
          }
        }
        default -> { }
      }
      return;
    }
    try {
      if (type instanceof ListType l) {
        for (byte[] e : CollectionCodec.unpack(v, false)) {
          if (e == null) {
            throw invalid("null is not supported inside collections");
          }
          validate(l.element(), e);
        }
      } else if (type instanceof SetType s) {
        for (byte[] e : CollectionCodec.unpack(v, false)) {
          if (e == null) {
            throw invalid("null is not supported inside collections");
          }
          validate(s.element(), e);
        }
      } else if (type instanceof MapType m) {
        List<byte[]> kv = CollectionCodec.unpack(v, true);
        for (int i = 0; i < kv.size(); i += 2) {
          if (kv.get(i) == null || kv.get(i + 1) == null) {
            throw invalid("null is not supported inside collections");
          }
          validate(m.key(), kv.get(i));
          validate(m.value(), kv.get(i + 1));
        }
      } else if (type instanceof TupleType t) {
        List<byte[]> fs = CollectionCodec.unpackFields(v, t.elements().size());
        for (int i = 0; i < fs.size(); i++) {
          validate(t.elements().get(i), fs.get(i));
        }
      } else if (type instanceof UdtType u) {
        List<byte[]> fs = CollectionCodec.unpackFields(v, u.fieldTypes().size());
        for (int i = 0; i < fs.size(); i++) {
          validate(u.fieldTypes().get(i), fs.get(i));
        }
      } else if (type instanceof VectorType vt) {
        Vectors.split(vt, v);
      }
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  private static void fixed(int len, int expected, String name) {
    if (len != expected && len != 0) {
      throw invalid("Expected " + expected + " or 0 byte " + name + " (" + len + ")");
    }
  }
}
