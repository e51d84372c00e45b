package io.cassette.storage.partition;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Last-write-wins merging of two versions of the same data, as Cassandra reconciles them.
 * Pure functions; inputs are never modified.
 */
public final class Reconcile {
  private Reconcile() {}

  /** Orders cells by column name, then by path (null first, then unsigned bytes). */
  public static int compareCellIdentity(Cell a, Cell b) {
    int c = a.column().compareTo(b.column());
    if (c != 0) {
      return c;
    }
    if (a.path() == null || b.path() == null) {
      return a.path() == null ? (b.path() == null ? 0 : -1) : 1;
    }
    return Bytes.compare(a.path(), b.path());
  }

  /**
   * The winner of two versions of one cell: the higher timestamp; on a tie a tombstone, then
   * the later local deletion time, then the greater value, then the later expiry.
   */
  public static Cell cell(Cell a, Cell b) {
    if (a.timestamp() != b.timestamp()) {
      return a.timestamp() > b.timestamp() ? a : b;
    }
    if (a.isTombstone() != b.isTombstone()) {
      return a.isTombstone() ? a : b;
    }
    if (a.isTombstone()) {
      return a.localDeletionTime() >= b.localDeletionTime() ? a : b;
    }
    int c = Bytes.compare(a.value(), b.value());
    if (c != 0) {
      return c > 0 ? a : b;
    }
    return a.localDeletionTime() >= b.localDeletionTime() ? a : b;
  }

  /** The winner of two row markers: higher timestamp, then expiring, then later expiry. */
  public static LivenessInfo liveness(LivenessInfo a, LivenessInfo b) {
    if (a.timestamp() != b.timestamp()) {
      return a.timestamp() > b.timestamp() ? a : b;
    }
    if ((a.ttl() > 0) != (b.ttl() > 0)) {
      return a.ttl() > 0 ? a : b;
    }
    return a.localExpirationTime() >= b.localExpirationTime() ? a : b;
  }

  public static DeletionTime deletion(DeletionTime a, DeletionTime b) {
    if (a.markedForDeleteAt() != b.markedForDeleteAt()) {
      return a.markedForDeleteAt() > b.markedForDeleteAt() ? a : b;
    }
    return a.localDeletionTime() >= b.localDeletionTime() ? a : b;
  }

  /** Merges two cell lists sorted by identity into one sorted list of winners. */
  public static List<Cell> cells(List<Cell> a, List<Cell> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    List<Cell> out = new ArrayList<>(a.size() + b.size());
    int i = 0;
    int j = 0;
    while (i < a.size() && j < b.size()) {
      Cell x = a.get(i);
      Cell y = b.get(j);
      int c = compareCellIdentity(x, y);
      if (c < 0) {
        out.add(x);
        i++;
      } else if (c > 0) {
        out.add(y);
        j++;
      } else {
        out.add(cell(x, y));
        i++;
        j++;
      }
    }
    while (i < a.size()) {
      out.add(a.get(i++));
    }
    while (j < b.size()) {
      out.add(b.get(j++));
    }
    return out;
  }

  /** Merges two versions of the row with the same clustering. */
  public static Row row(Row a, Row b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return new Row(a.clustering(), liveness(a.liveness(), b.liveness()),
        deletion(a.deletion(), b.deletion()), cells(a.cells(), b.cells()));
  }

  /** Sorts cells by identity (for rows built by front doors in another order). */
  public static List<Cell> sortCells(List<Cell> cells) {
    for (int i = 1; i < cells.size(); i++) {
      if (compareCellIdentity(cells.get(i - 1), cells.get(i)) >= 0) {
        List<Cell> sorted = new ArrayList<>(cells.size());
        for (Cell c : cells) {
          sorted = cells(sorted, List.of(c));
        }
        return sorted;
      }
    }
    return cells;
  }

  /** The strongest range tombstone covering {@code clustering}, or LIVE. The static row is never covered. */
  public static DeletionTime covering(List<RangeTombstone> tombstones, byte[] clustering) {
    DeletionTime best = DeletionTime.LIVE;
    if (clustering.length == 0) {
      return best;
    }
    for (RangeTombstone rt : tombstones) {
      if (rt.deletion().markedForDeleteAt() > best.markedForDeleteAt() && rt.slice().includes(clustering)) {
        best = rt.deletion();
      }
    }
    return best;
  }
}
