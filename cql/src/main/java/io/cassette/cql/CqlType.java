package io.cassette.cql;

import java.util.List;

/**
 * A CQL data type as the native protocol describes it in result and prepared metadata
 * ([option] in the spec). Shared by the transport (which encodes it) and the language
 * (which parses, validates and serializes values of it).
 */
public sealed interface CqlType {

  /** The native types with their protocol option ids. varchar is text (0x000D). */
  enum Native {
    ASCII(0x0001), BIGINT(0x0002), BLOB(0x0003), BOOLEAN(0x0004), COUNTER(0x0005),
    DECIMAL(0x0006), DOUBLE(0x0007), FLOAT(0x0008), INT(0x0009), TIMESTAMP(0x000B),
    UUID(0x000C), TEXT(0x000D), VARINT(0x000E), TIMEUUID(0x000F), INET(0x0010),
    DATE(0x0011), TIME(0x0012), SMALLINT(0x0013), TINYINT(0x0014), DURATION(0x0015);

    public final int optionId;

    Native(int optionId) {
      this.optionId = optionId;
    }
  }

  record NativeType(Native kind) implements CqlType {}

  /** A type the protocol carries as a custom class name (0x0000), e.g. Cassandra's marshal classes. */
  record CustomType(String className) implements CqlType {}

  record ListType(CqlType element, boolean frozen) implements CqlType {}

  record SetType(CqlType element, boolean frozen) implements CqlType {}

  record MapType(CqlType key, CqlType value, boolean frozen) implements CqlType {}

  record TupleType(List<CqlType> elements) implements CqlType {}

  record UdtType(String keyspace, String name, List<String> fieldNames, List<CqlType> fieldTypes,
                 boolean frozen) implements CqlType {}

  /**
   * vector&lt;float, 3&gt;; the protocol sends it as the custom type
   * {@code org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType, 3)}.
   */
  record VectorType(CqlType element, int dimension) implements CqlType {}
}
