package io.cassette.cql.language.views;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * A base row as a read would see it at {@code now}: its primary-key liveness if live, and its
 * live cells, with every deletion that covers it (partition, range, row, a collection's own
 * deletion) applied. {@code exists} is CQL's notion: a live row marker or any live cell.
 */
record LiveRow(LivenessInfo liveness, List<Cell> cells) {
  static final LiveRow NONE = new LiveRow(LivenessInfo.EMPTY, List.of());

  boolean exists() {
    return !liveness.isEmpty() || !cells.isEmpty();
  }

  /** The live cell of a simple column, or null. */
  Cell cell(String column) {
    for (Cell c : cells) {
      if (c.column().equals(column) && c.path() == null) {
        return c;
      }
    }
    return null;
  }

  /** The newest write timestamp in the row (liveness and cells); Long.MIN_VALUE when empty. */
  long maxTimestamp() {
    long max = liveness.timestamp();
    for (Cell c : cells) {
      max = Math.max(max, c.timestamp());
    }
    return max;
  }

  /** {@code row} (may be null) under {@code covering} (partition and range deletions). */
  static LiveRow of(Row row, DeletionTime covering, long now) {
    if (row == null) {
      return NONE;
    }
    DeletionTime deletion = row.deletion().supersedes(covering);
    LivenessInfo liveness = row.liveness();
    if (liveness.isEmpty() || !liveness.isLive(now) || deletion.deletes(liveness.timestamp())) {
      liveness = LivenessInfo.EMPTY;
    }
    List<Cell> live = new ArrayList<>(row.cells().size());
    String column = null;
    long columnDeletedAt = Long.MIN_VALUE; // a collection's whole-column tombstone (path null)
    for (Cell c : row.cells()) {
      if (!c.column().equals(column)) {
        column = c.column();
        columnDeletedAt = Long.MIN_VALUE;
      }
      if (c.isTombstone()) {
        if (c.path() == null) {
          columnDeletedAt = Math.max(columnDeletedAt, c.timestamp());
        }
        continue;
      }
      if (c.isLive(now) && !deletion.deletes(c.timestamp()) && c.timestamp() > columnDeletedAt) {
        live.add(c);
      }
    }
    return new LiveRow(liveness, live);
  }
}
