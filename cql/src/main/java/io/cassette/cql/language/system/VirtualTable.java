package io.cassette.cql.language.system;

import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.statements.CellCodec;
import io.cassette.cql.language.statements.KeyCodec;
import io.cassette.cql.language.statements.TableReader;
import io.cassette.cql.language.types.Types;
import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A read-only table computed in memory (system.local, system_schema.*): rows are built per
 * query and served through the {@link TableReader} contract, so SELECT treats it
 * like any stored table.
 */
public final class VirtualTable implements TableReader {
  private final TableMetadata table;
  private final TreeMap<DecoratedKey, PartitionView> partitions;
  /**
   * Cassandra's virtual keyspaces (system_views, system_virtual_schema) order partitions by
   * key, not by token (their LocalPartitioner); the other computed tables are token-ordered.
   */
  private final boolean keyOrdered;

  /** @param rows each row as column name → serialized value (null or absent = no value) */
  public VirtualTable(TableMetadata table, List<Map<String, byte[]>> rows) {
    this.table = table;
    this.keyOrdered = table.keyspace.equals(SystemKeyspaces.VIEWS) || table.keyspace.equals(SystemKeyspaces.VIRTUAL_SCHEMA);
    java.util.Comparator<DecoratedKey> order = keyOrdered ? (a, b) -> Bytes.compare(a.key(), b.key())
        : java.util.Comparator.naturalOrder();
    this.partitions = new TreeMap<>(order);
    TreeMap<DecoratedKey, TreeMap<byte[], Row>> byKey = new TreeMap<>(order);
    for (Map<String, byte[]> r : rows) {
      List<byte[]> pk = new ArrayList<>();
      for (ColumnMetadata c : table.partitionKey) {
        pk.add(r.get(c.name()));
      }
      List<byte[]> ck = new ArrayList<>();
      for (ColumnMetadata c : table.clustering) {
        ck.add(r.get(c.name()));
      }
      byte[] clustering = KeyCodec.clustering(table, ck);
      List<Cell> cells = new ArrayList<>();
      for (ColumnMetadata c : table.valueColumns()) {
        byte[] v = r.get(c.name());
        if (v == null) {
          continue;
        }
        if (Types.isMultiCell(c.type())) {
          cells.addAll(CellCodec.explode(c.name(), c.type(), v, 0, 0, 0));
        } else {
          cells.add(Cell.live(c.name(), v, 0));
        }
      }
      cells.sort((a, b) -> {
        int x = a.column().compareTo(b.column());
        if (x != 0) {
          return x;
        }
        return a.path() == null || b.path() == null ? 0 : Bytes.compare(a.path(), b.path());
      });
      DecoratedKey key = DecoratedKey.of(KeyCodec.partitionKey(table, pk));
      byKey.computeIfAbsent(key, k -> new TreeMap<>(Bytes::compare))
          .put(clustering, new Row(clustering, LivenessInfo.of(0), io.cassette.storage.DeletionTime.LIVE, cells));
    }
    for (Map.Entry<DecoratedKey, TreeMap<byte[], Row>> e : byKey.entrySet()) {
      partitions.put(e.getKey(), new PartitionView(e.getKey(), null, new ArrayList<>(e.getValue().values())));
    }
  }

  /** The table this serves (a cached copy is reused only for the same metadata). */
  public TableMetadata metadata() {
    return table;
  }

  @Override
  public PartitionView read(byte[] partitionKey, ReadQuery query) {
    DecoratedKey key = DecoratedKey.of(partitionKey);
    PartitionView p = partitions.get(key);
    if (p == null) {
      return new PartitionView(key, null, List.of());
    }
    return filter(p, query);
  }

  /** {@code p} itself when the query takes every row in order (the common case): no copy per query. */
  private static PartitionView filter(PartitionView p, ReadQuery query) {
    List<Row> all = p.rows();
    int taken = 0;
    for (Row r : all) {
      taken += included(r, query) ? 1 : 0;
    }
    if (taken == all.size() && !query.reversed() && taken <= query.rowLimit()) {
      return p;
    }
    List<Row> rows = new ArrayList<>(taken);
    for (Row r : all) {
      if (included(r, query)) {
        rows.add(r);
      }
    }
    if (query.reversed()) {
      java.util.Collections.reverse(rows);
    }
    if (rows.size() > query.rowLimit()) {
      rows = rows.subList(0, query.rowLimit());
    }
    return new PartitionView(p.key(), null, rows);
  }

  private static boolean included(Row r, ReadQuery query) {
    for (Slice s : query.slices()) {
      if (s.includes(r.clustering())) {
        return true;
      }
    }
    return false;
  }

  /** Partitions in order, lazily from where the page resumes: a page does not filter the whole table. */
  @Override
  public Table.CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
    DecoratedKey after = range.after();
    Iterator<PartitionView> from;
    if (after == null) {
      from = partitions.values().iterator();
    } else if (keyOrdered) {
      // paging resumes after the last key returned (key order); token bounds do not apply
      from = after.key() == null ? partitions.values().iterator()
          : partitions.tailMap(after, false).values().iterator();
    } else {
      from = partitions.values().iterator(); // skipped below by token, then key
    }
    return new Table.CloseableIterator<>() {
      private PartitionView next;

      public boolean hasNext() {
        while (next == null && from.hasNext()) {
          PartitionView p = from.next();
          DecoratedKey k = p.key();
          if (!keyOrdered) {
            if (k.token() > range.endToken()) {
              return false; // token order: nothing after it is in range
            }
            if (after != null) {
              int c = Long.compare(k.token(), after.token());
              if (c < 0 || (c == 0 && (after.key() == null || Bytes.compare(k.key(), after.key()) <= 0))) {
                continue;
              }
            }
          }
          PartitionView f = filter(p, query);
          if (!f.rows().isEmpty()) {
            next = f;
          }
        }
        return next != null;
      }

      public PartitionView next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        PartitionView p = next;
        next = null;
        return p;
      }

      public void close() {
      }
    };
  }

  static boolean same(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }
}
