package io.cassette.cql.language.statements;

import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.ComparableEncoding;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Partition and clustering keys of a table as storage keeps them.
 *
 * <pre>
 * partition key, one column : the value's serialized bytes (Cassandra's, so tokens match)
 * partition key, composite  : per component [u16 length][bytes][0x00] (CompositeType)
 * clustering                : per component {@link ComparableEncoding}, DESC inverted
 * </pre>
 */
public final class KeyCodec {
  private KeyCodec() {}

  public static byte[] partitionKey(TableMetadata t, List<byte[]> values) {
    if (values.size() == 1) {
      return values.get(0);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] v : values) {
      out.write(v.length >>> 8);
      out.write(v.length);
      out.write(v, 0, v.length);
      out.write(0);
    }
    return out.toByteArray();
  }

  public static List<byte[]> splitPartitionKey(TableMetadata t, byte[] key) {
    if (t.partitionKey.size() == 1) {
      return List.of(key);
    }
    List<byte[]> out = new ArrayList<>(t.partitionKey.size());
    ByteBuffer b = ByteBuffer.wrap(key);
    for (int i = 0; i < t.partitionKey.size(); i++) {
      int len = b.getShort() & 0xFFFF;
      byte[] v = new byte[len];
      b.get(v);
      b.get();
      out.add(v);
    }
    return out;
  }

  /** The encoded clustering prefix of {@code values} (the first n clustering columns). */
  public static byte[] clustering(TableMetadata t, List<byte[]> values) {
    if (values.isEmpty()) {
      return NO_CLUSTERING; // every write to a table without clustering columns: no stream, no copy
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < values.size(); i++) {
      ColumnMetadata c = t.clustering.get(i);
      byte[] e = ComparableEncoding.encode(c.type(), values.get(i), c.descending());
      out.write(e, 0, e.length);
    }
    return out.toByteArray();
  }

  /** The empty clustering (zero bytes: nothing can change it, so one array serves all). */
  private static final byte[] NO_CLUSTERING = new byte[0];

  /** The clustering values of a row's clustering bytes; of a table without clustering columns, one shared empty list. */
  public static List<byte[]> splitClustering(TableMetadata t, byte[] clustering) {
    if (t.clustering.isEmpty()) {
      return List.of();
    }
    return ComparableEncoding.decode(clustering, t.clusteringTypes(), t.clusteringDescending());
  }
}
