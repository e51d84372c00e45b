package io.cassette.storage;

import java.util.List;

/**
 * The merged, live state of one partition as a read sees it: only live rows and live cells
 * (tombstones and expired cells already applied and removed). {@code staticRow} is null when
 * the partition has none. Cells keep their timestamp and TTL for WRITETIME() and TTL().
 *
 * <p>The row with the empty clustering is always returned as {@code staticRow}, never in
 * {@code rows}, whatever the slices: in a table without clustering columns that is the
 * partition's only row; in one with static columns it is the static row. It does not count
 * towards {@code rowLimit}. Range tombstones never delete it (a partition deletion does).
 */
public record PartitionView(DecoratedKey key, Row staticRow, List<Row> rows) {
  public PartitionView {
    rows = List.copyOf(rows);
  }

  public boolean isEmpty() {
    return staticRow == null && rows.isEmpty();
  }
}
