package io.cassette.cql.language.statements;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.IndexMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.ComparableEncoding;
import io.cassette.cql.language.types.Types;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.KeyRange;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Secondary indexes kept in their own storage table, maintained lazily: every write of an
 * indexed value adds an entry; nothing is removed on overwrite or delete. A query reads the
 * entries of the value, fetches each base row and re-checks the restriction, so stale entries
 * only cost a read (compaction of the base never resurrects them because the check is on the
 * base row).
 *
 * <pre>
 * storage table  : "&lt;table&gt;.&lt;index&gt;" in the base keyspace (the dot keeps it out of CQL's names)
 * partition key  : the indexed value (element, map key or value for collections)
 * clustering     : [8 bytes token, sign flipped][base key escaped, 0x00 0x00][base clustering]
 * row            : liveness only, with the timestamp and TTL of the indexed cell
 * </pre>
 * The clustering sorts like a table scan (token, key, clustering), so index results come in
 * the same order and page the same way.
 */
public final class SecondaryIndexes {
  /** What an index covers of its column. */
  public enum Kind { SIMPLE, VALUES, KEYS, ENTRIES, FULL }

  /** The column and kind an index targets. */
  public record Target(ColumnMetadata column, Kind kind) {}

  private SecondaryIndexes() {}

  public static String storageName(TableMetadata t, IndexMetadata i) {
    return t.name + "." + i.name();
  }

  public static TableSpec spec(TableMetadata t, IndexMetadata i) {
    UUID id = UUID.nameUUIDFromBytes((t.id + "/" + i.name()).getBytes(StandardCharsets.UTF_8));
    TableSpec base = io.cassette.cql.language.schema.SchemaManager.toSpec(t);
    return new TableSpec(t.keyspace, storageName(t, i), id, base.compression(), base.compaction(),
        base.gcGraceSeconds(), base.bloomFilterFpChance(), 0);
  }

  /** Cassandra 5.0's names of the Storage-Attached Index class ('sai' is case-insensitive there). */
  public static boolean isSai(IndexMetadata i) {
    String cls = i.options().get("class_name");
    return cls != null && (cls.equalsIgnoreCase("sai") || cls.equalsIgnoreCase("StorageAttachedIndex")
        || cls.equals("org.apache.cassandra.index.sai.StorageAttachedIndex"));
  }

  /** The SAI index on {@code c} itself (not on its keys, values or entries), or null. */
  public static IndexMetadata saiOn(TableMetadata t, ColumnMetadata c) {
    for (IndexMetadata i : t.indexes.values()) {
      if (!isSai(i)) {
        continue;
      }
      String target = i.options().getOrDefault("target", "");
      if (target.equals(c.name()) || target.equals(io.cassette.cql.language.types.Identifiers.quoteIfNeeded(c.name()))) {
        return i;
      }
    }
    return null;
  }

  /**
   * The target of {@code i} kept in an index table, or null: custom indexes Cassette answers by
   * scanning, and storage-attached ones (kept by storage itself, {@link StorageAttachedIndexes}).
   */
  public static Target target(TableMetadata t, IndexMetadata i) {
    if (isSai(i)) {
      return null;
    }
    return parseTarget(t, i);
  }

  /** The column and kind {@code i} targets, or null when Cassette keeps no index for it. */
  static Target parseTarget(TableMetadata t, IndexMetadata i) {
    String target = i.options().getOrDefault("target", "");
    Kind kind = Kind.SIMPLE;
    String col = target;
    int paren = target.indexOf('(');
    if (paren > 0 && target.endsWith(")")) {
      kind = Kind.valueOf(target.substring(0, paren).toUpperCase(Locale.ROOT));
      col = target.substring(paren + 1, target.length() - 1);
    }
    if (col.startsWith("\"")) {
      col = col.substring(1, col.length() - 1).replace("\"\"", "\"");
    }
    ColumnMetadata c = t.column(col);
    if (c == null || kind == Kind.ENTRIES || c.kind() == ColumnMetadata.Kind.PARTITION_KEY
        || (c.type() instanceof CqlType.VectorType && !isSai(i))) {
      return null;
    }
    if (kind == Kind.SIMPLE && Types.isMultiCell(c.type())) {
      kind = Kind.VALUES;
    }
    return new Target(c, kind);
  }

  /** The indexed values one cell contributes (empty when it contributes none). */
  static byte[] indexedValue(Target target, Cell cell) {
    CqlType type = target.column().type();
    if (cell.path() == null) {
      return Types.isMultiCell(type) ? null : cell.value();
    }
    if (type instanceof SetType s) {
      return target.kind() == Kind.VALUES ? ComparableEncoding.decodeOne(s.element(), cell.path()) : null;
    }
    if (type instanceof MapType m) {
      return target.kind() == Kind.KEYS ? ComparableEncoding.decodeOne(m.key(), cell.path())
          : target.kind() == Kind.VALUES ? cell.value() : null;
    }
    if (type instanceof ListType) {
      return target.kind() == Kind.VALUES ? cell.value() : null;
    }
    return null;
  }

  /** Index entries for the live cells of {@code update}, appended to {@code out}. */
  static void addEntries(TableMetadata t, PartitionUpdate update, List<PartitionUpdate> out, long nowInSeconds) {
    if (t.indexes.isEmpty()) {
      return;
    }
    for (IndexMetadata i : t.indexes.values()) {
      Target target = target(t, i);
      if (target == null) {
        continue;
      }
      String table = storageName(t, i);
      for (Row r : update.rows()) {
        for (Cell c : r.cells()) {
          if (c.isTombstone() || !c.column().equals(target.column().name())) {
            continue;
          }
          byte[] v = indexedValue(target, c);
          if (v == null || v.length == 0) {
            continue;
          }
          LivenessInfo li = c.isExpiring() ? new LivenessInfo(c.timestamp(), c.ttl(), c.localDeletionTime())
              : LivenessInfo.of(c.timestamp());
          out.add(PartitionUpdate.builder(t.keyspace, table, v)
              .row(new Row(entryClustering(update.key(), r.clustering()), li, DeletionTime.LIVE, List.of()))
              .build());
        }
      }
    }
  }

  static byte[] entryClustering(byte[] key, byte[] clustering) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(key.length + clustering.length + 12);
    long token = Murmur3Token.of(key) ^ Long.MIN_VALUE;
    for (int s = 56; s >= 0; s -= 8) {
      out.write((int) (token >>> s));
    }
    for (byte b : key) {
      out.write(b);
      if (b == 0) {
        out.write(0xFF);
      }
    }
    out.write(0);
    out.write(0);
    out.write(clustering, 0, clustering.length);
    return out.toByteArray();
  }

  /** {base partition key, base clustering} of an entry. */
  static byte[][] decodeEntry(byte[] entry) {
    ByteArrayOutputStream key = new ByteArrayOutputStream();
    int p = 8;
    while (true) {
      int b = entry[p++] & 0xFF;
      if (b == 0) {
        int n = entry[p++] & 0xFF;
        if (n == 0) {
          break;
        }
        key.write(0);
      } else {
        key.write(b);
      }
    }
    byte[] ck = new byte[entry.length - p];
    System.arraycopy(entry, p, ck, 0, ck.length);
    return new byte[][] {key.toByteArray(), ck};
  }

  /**
   * Fills the storage table of a new index (created by the schema change) from the existing
   * rows, through the coordinator.
   */
  public static void build(Coordinator coordinator, TableMetadata t, IndexMetadata i) {
    Target target = target(t, i);
    if (target == null || coordinator.table(t.keyspace, t.name).isEmpty()) {
      return;
    }
    long now = System.currentTimeMillis() / 1000;
    TableMetadata only = t.with(t.columns, t.options, java.util.Map.of(i.name(), i));
    List<PartitionUpdate> batch = new ArrayList<>();
    try (Table.CloseableIterator<PartitionView> it = coordinator.scan(t.keyspace, t.name, KeyRange.ALL,
        ReadQuery.all(now), Request.INTERNAL)) {
      while (it.hasNext()) {
        PartitionView pv = it.next();
        List<Row> rows = new ArrayList<>(pv.rows());
        if (pv.staticRow() != null) {
          rows.add(pv.staticRow());
        }
        addEntries(only, new PartitionUpdate(t.keyspace, t.name, pv.key().key(), DeletionTime.LIVE, List.of(), rows),
            batch, now);
        if (batch.size() >= 256) {
          coordinator.write(new Mutation(batch), Request.INTERNAL);
          batch.clear();
        }
      }
    }
    if (!batch.isEmpty()) {
      coordinator.write(new Mutation(batch), Request.INTERNAL);
    }
  }

  static ByteBuffer unused() {
    return null;
  }
}
