package io.cassette.server.ring;

import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.Types;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.UUID;

/**
 * nodetool getendpoints' KEY as the partition key's bytes, as Cassandra's
 * {@code AbstractType.fromString} reads it, for a single-column partition key of the common
 * types (text, ascii, varchar, int, bigint, smallint, tinyint, uuid, timeuuid, blob as hex).
 */
final class PartitionKeyText {
  private PartitionKeyText() {}

  static byte[] encode(SchemaManager schema, String keyspace, String table, String key) {
    KeyspaceMetadata k = schema == null ? null : schema.current().keyspaces().get(keyspace);
    TableMetadata t = k == null ? null : k.tables().get(table);
    if (t == null) {
      return key.getBytes(StandardCharsets.UTF_8); // not a CQL table (Redis): keys are bytes
    }
    if (t.partitionKey.size() != 1) {
      throw new IllegalArgumentException("getendpoints supports single-column partition keys; "
          + keyspace + "." + table + " has " + t.partitionKey.size());
    }
    ColumnMetadata c = t.partitionKey.get(0);
    String type = Types.toCql(c.type());
    try {
      return switch (type) {
        case "text", "varchar", "ascii" -> key.getBytes(StandardCharsets.UTF_8);
        case "int" -> ByteBuffer.allocate(4).putInt(Integer.parseInt(key)).array();
        case "bigint", "counter" -> ByteBuffer.allocate(8).putLong(Long.parseLong(key)).array();
        case "smallint" -> ByteBuffer.allocate(2).putShort(Short.parseShort(key)).array();
        case "tinyint" -> new byte[] {Byte.parseByte(key)};
        case "uuid", "timeuuid" -> {
          UUID u = UUID.fromString(key);
          yield ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
        }
        case "blob" -> HexFormat.of().parseHex(key.startsWith("0x") ? key.substring(2) : key);
        default -> throw new IllegalArgumentException("getendpoints does not read keys of type " + type + " yet");
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + key + "' is not a valid " + type + ": " + e.getMessage());
    }
  }
}
