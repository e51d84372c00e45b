package io.cassette.cql.language.statements;

import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.Types;
import io.cassette.storage.Cell;
import io.cassette.storage.Row;
import java.util.List;

/**
 * One CQL row being selected: the partition's key components, the row's clustering components
 * (null for a partition that only has static data), the row and the partition's static row.
 */
public final class RowView {
  public final TableMetadata table;
  public final byte[] partitionKey;
  public final long token;
  public final List<byte[]> keyValues;
  public final List<byte[]> clusteringValues;
  public final Row row;
  public final Row staticRow;

  public RowView(TableMetadata table, byte[] partitionKey, long token, List<byte[]> keyValues,
                 List<byte[]> clusteringValues, Row row, Row staticRow) {
    this.table = table;
    this.partitionKey = partitionKey;
    this.token = token;
    this.keyValues = keyValues;
    this.clusteringValues = clusteringValues;
    this.row = row;
    this.staticRow = staticRow;
  }

  /** The serialized value of {@code c} in this row, or null. */
  public byte[] value(ColumnMetadata c) {
    switch (c.kind()) {
      case PARTITION_KEY:
        return keyValues.get(c.position());
      case CLUSTERING:
        return clusteringValues == null || c.position() >= clusteringValues.size() ? null
            : clusteringValues.get(c.position());
      default:
        break;
    }
    Row source = c.isStatic() ? staticRow : row;
    if (source == null) {
      return null;
    }
    if (Types.isMultiCell(c.type())) {
      return CellCodec.assemble(c.type(), elements(c));
    }
    Cell cell = cell(c);
    return cell == null ? null : cell.value();
  }

  /** The cell of a simple column (for WRITETIME/TTL), or null. */
  public Cell cell(ColumnMetadata c) {
    Row source = c.isStatic() ? staticRow : row;
    if (source == null) {
      return null;
    }
    Cell cell = source.cell(c.name());
    return cell == null || cell.isTombstone() || table.isDropped(c.name(), cell.timestamp()) ? null : cell;
  }

  /** Element cells of a multi-cell column. */
  public List<Cell> elements(ColumnMetadata c) {
    List<Cell> es = CellCodec.elements(c.isStatic() ? staticRow : row, c.name());
    if (!table.dropped.containsKey(c.name())) {
      return es;
    }
    List<Cell> live = new java.util.ArrayList<>();
    for (Cell e : es) {
      if (!table.isDropped(c.name(), e.timestamp())) {
        live.add(e);
      }
    }
    return live;
  }
}
