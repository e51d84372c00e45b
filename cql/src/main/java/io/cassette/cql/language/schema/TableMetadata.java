package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An immutable table definition. {@code columns} holds every column in system_schema order:
 * partition key, clustering, then the others by name. {@code options} holds the WITH options
 * with their Cassandra values (strings, maps, numbers). {@code virtual} tables (system.local,
 * system_schema.*) are computed, not stored.
 */
public final class TableMetadata {
  public final String keyspace;
  public final String name;
  public final UUID id;
  public final List<ColumnMetadata> partitionKey;
  public final List<ColumnMetadata> clustering;
  private final List<CqlType> clusteringTypes;
  private final List<Boolean> clusteringDescending;
  public final List<ColumnMetadata> columns;
  public final Map<String, ColumnMetadata> byName;
  public final TableOptions options;
  public final Map<String, IndexMetadata> indexes;
  public final boolean virtual;
  public final boolean isCounter;
  /** Columns dropped from this table: data written at or before the drop stays hidden. */
  public final Map<String, DroppedColumn> dropped;
  /** Masked columns (dynamic data masking) by name; only columns of this table. */
  public final Map<String, ColumnMask> masks;
  /** Non-null when this table is a materialized view: its base table and WHERE clause. */
  public final ViewDefinition view;

  /** When a column was dropped (µs) and the type it had. */
  public record DroppedColumn(long droppedAtMicros, CqlType type) {}

  public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns,
                       TableOptions options, Map<String, IndexMetadata> indexes, boolean virtual) {
    this(keyspace, name, id, columns, options, indexes, virtual, Map.of());
  }

  public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns,
                       TableOptions options, Map<String, IndexMetadata> indexes, boolean virtual,
                       Map<String, DroppedColumn> dropped) {
    this(keyspace, name, id, columns, options, indexes, virtual, dropped, Map.of());
  }

  public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns,
                       TableOptions options, Map<String, IndexMetadata> indexes, boolean virtual,
                       Map<String, DroppedColumn> dropped, Map<String, ColumnMask> masks) {
    this(keyspace, name, id, columns, options, indexes, virtual, dropped, masks, null);
  }

  public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns,
                       TableOptions options, Map<String, IndexMetadata> indexes, boolean virtual,
                       Map<String, DroppedColumn> dropped, Map<String, ColumnMask> masks, ViewDefinition view) {
    this.view = view;
    this.dropped = Map.copyOf(dropped);
    this.keyspace = keyspace;
    this.name = name;
    this.id = id;
    List<ColumnMetadata> pk = new ArrayList<>();
    List<ColumnMetadata> ck = new ArrayList<>();
    List<ColumnMetadata> rest = new ArrayList<>();
    for (ColumnMetadata c : columns) {
      switch (c.kind()) {
        case PARTITION_KEY -> pk.add(c);
        case CLUSTERING -> ck.add(c);
        default -> rest.add(c);
      }
    }
    pk.sort((a, b) -> Integer.compare(a.position(), b.position()));
    ck.sort((a, b) -> Integer.compare(a.position(), b.position()));
    // Cassandra lists static columns before regular ones, each group by name.
    rest.sort((a, b) -> a.isStatic() != b.isStatic() ? (a.isStatic() ? -1 : 1) : a.name().compareTo(b.name()));
    this.partitionKey = List.copyOf(pk);
    this.clustering = List.copyOf(ck);
    List<CqlType> types = new ArrayList<>();
    List<Boolean> descending = new ArrayList<>();
    for (ColumnMetadata c : this.clustering) {
      types.add(c.type());
      descending.add(c.descending());
    }
    this.clusteringTypes = List.copyOf(types);
    this.clusteringDescending = List.copyOf(descending);
    List<ColumnMetadata> all = new ArrayList<>(pk);
    all.addAll(ck);
    all.addAll(rest);
    this.columns = List.copyOf(all);
    Map<String, ColumnMetadata> m = new LinkedHashMap<>();
    for (ColumnMetadata c : all) {
      m.put(c.name(), c);
    }
    this.byName = Collections.unmodifiableMap(m);
    Map<String, ColumnMask> kept = new java.util.TreeMap<>();
    for (Map.Entry<String, ColumnMask> e : masks.entrySet()) {
      if (m.containsKey(e.getKey())) {
        kept.put(e.getKey(), e.getValue());
      }
    }
    this.masks = Collections.unmodifiableMap(kept);
    this.options = options;
    this.indexes = Collections.unmodifiableMap(new LinkedHashMap<>(indexes));
    this.virtual = virtual;
    boolean counter = false;
    for (ColumnMetadata c : rest) {
      counter |= Types.isCounter(c.type());
    }
    this.isCounter = counter;
  }

  /**
   * The columns in the order Cassandra's DESCRIBE lists them: partition key, clustering, then
   * static and regular columns, each group with simple (single-cell) columns before complex
   * ones (non-frozen collections and UDTs), each by name. {@link #columns} (the SELECT * order)
   * sorts each group by name only.
   */
  public List<ColumnMetadata> describeOrder() {
    List<ColumnMetadata> out = new ArrayList<>(columns.size());
    out.addAll(partitionKey);
    out.addAll(clustering);
    for (boolean statics : new boolean[] {true, false}) {
      for (boolean complex : new boolean[] {false, true}) {
        for (ColumnMetadata c : valueColumns()) {
          if (c.isStatic() == statics && Types.isMultiCell(c.type()) == complex) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  public ColumnMetadata column(String n) {
    return byName.get(n);
  }

  public boolean hasStatics() {
    for (ColumnMetadata c : columns) {
      if (c.isStatic()) {
        return true;
      }
    }
    return false;
  }

  /** Regular and static columns. */
  public List<ColumnMetadata> valueColumns() {
    return columns.subList(partitionKey.size() + clustering.size(), columns.size());
  }

  /** The clustering columns' types, in order (made once: every row a read returns asks). Unmodifiable. */
  public List<CqlType> clusteringTypes() {
    return clusteringTypes;
  }

  /** Whether each clustering column is DESC, in order (made once, as {@link #clusteringTypes}). Unmodifiable. */
  public List<Boolean> clusteringDescending() {
    return clusteringDescending;
  }

  public TableMetadata with(List<ColumnMetadata> newColumns, TableOptions newOptions,
                            Map<String, IndexMetadata> newIndexes) {
    return new TableMetadata(keyspace, name, id, newColumns, newOptions, newIndexes, virtual, dropped, masks, view);
  }

  public TableMetadata withDropped(Map<String, DroppedColumn> newDropped) {
    return new TableMetadata(keyspace, name, id, columns, options, indexes, virtual, newDropped, masks, view);
  }

  /** This table with {@code column}'s mask set, or removed when {@code mask} is null. */
  public TableMetadata withMask(String column, ColumnMask mask) {
    Map<String, ColumnMask> m = new java.util.HashMap<>(masks);
    if (mask == null) {
      m.remove(column);
    } else {
      m.put(column, mask);
    }
    return new TableMetadata(keyspace, name, id, columns, options, indexes, virtual, dropped, m, view);
  }

  /** This table as the materialized view {@code definition} describes. */
  public TableMetadata asView(ViewDefinition definition) {
    return new TableMetadata(keyspace, name, id, columns, options, indexes, virtual, dropped, masks, definition);
  }

  public boolean isView() {
    return view != null;
  }

  public ColumnMask mask(String column) {
    return masks.get(column);
  }

  /** True when a cell of {@code column} written at {@code timestamp} predates the column's drop. */
  public boolean isDropped(String column, long timestamp) {
    DroppedColumn d = dropped.get(column);
    return d != null && timestamp <= d.droppedAtMicros();
  }

  @Override
  public String toString() {
    return io.cassette.cql.language.types.Identifiers.quoteIfNeeded(keyspace) + "."
        + io.cassette.cql.language.types.Identifiers.quoteIfNeeded(name);
  }
}
