package io.cassette.storage;

import java.util.List;

/**
 * One clustering row of a partition.
 *
 * <p>{@code clustering} is the row's key inside its partition, already encoded by the front
 * door so that unsigned byte order is the table's clustering order (descending columns
 * inverted, each component prefix-free). The empty clustering is the partition's only row in
 * a table without clustering columns, or its static row in a table with them (it sorts first).
 * {@code cells} are sorted by column name, then by cell path.
 */
public record Row(byte[] clustering, LivenessInfo liveness, DeletionTime deletion,
                  List<Cell> cells) {

  public Row {
    cells = List.copyOf(cells);
  }

  public static Row of(byte[] clustering, List<Cell> cells) {
    return new Row(clustering, LivenessInfo.EMPTY, DeletionTime.LIVE, cells);
  }

  public boolean isStatic() {
    return clustering.length == 0;
  }

  /**
   * The bytes of the row's data: its clustering, cell values and cell paths. What a read's byte
   * limit ({@link ReadQuery#byteLimit}) counts.
   */
  public long dataSize() {
    long size = clustering.length;
    for (int i = 0, n = cells.size(); i < n; i++) {
      Cell c = cells.get(i);
      size += (c.value() == null ? 0 : c.value().length) + (c.path() == null ? 0 : c.path().length);
    }
    return size;
  }

  /** The live cell of a simple column, or null. */
  public Cell cell(String column) {
    for (int i = 0, n = cells.size(); i < n; i++) { // indexed: no iterator per lookup
      Cell c = cells.get(i);
      if (c.column().equals(column) && c.path() == null) {
        return c;
      }
    }
    return null;
  }
}
