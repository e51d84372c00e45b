package io.cassette.coordinator.ring;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.partition.Reconcile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Merges the answers of several replicas for one partition with storage's last-write-wins rules
 * ({@link Reconcile}: by timestamp, cell by cell, row marker by row marker), and computes what a
 * stale replica lacks (the read-repair mutation). Pure functions.
 *
 * <p>Limit: replicas answer with their live view ({@link PartitionView}), so tombstones do not
 * travel. A replica that missed a deletion gives back the deleted value, which then wins the
 * merge and is written back to the replicas that deleted it — harmless there (their tombstone is
 * newer and still shadows it), but the answer shows the value until the deletion reaches the
 * stale replica by hint or repair. Carrying tombstones needs an unfiltered read from storage.
 */
final class ReadReconciler {
  private ReadReconciler() {}

  /** The merged view of {@code views} (all of one partition), ordered and limited as {@code query} asks. */
  static PartitionView merge(List<PartitionView> views, ReadQuery query) {
    Comparator<byte[]> order = query.reversed() ? (a, b) -> Bytes.compare(b, a) : Bytes::compare;
    TreeMap<byte[], Row> rows = new TreeMap<>(order);
    Row staticRow = null;
    for (PartitionView v : views) {
      staticRow = Reconcile.row(staticRow, v.staticRow());
      for (Row r : v.rows()) {
        rows.merge(r.clustering(), r, Reconcile::row);
      }
    }
    List<Row> out = new ArrayList<>(Math.min(rows.size(), Math.max(0, query.rowLimit())));
    for (Row r : rows.values()) {
      if (out.size() >= query.rowLimit()) {
        break;
      }
      out.add(r);
    }
    return new PartitionView(views.get(0).key(), staticRow, out);
  }

  /**
   * What {@code have} (one replica's answer, null for none) lacks of {@code merged}: the rows,
   * row markers and cells where the merged version is missing or newer there, as one update of
   * {@code keyspace.table}; null when the replica is up to date.
   */
  static PartitionUpdate repair(String keyspace, String table, PartitionView merged, PartitionView have) {
    PartitionUpdate.Builder b = null;
    TreeMap<byte[], Row> theirs = new TreeMap<>(Bytes::compare);
    if (have != null) {
      for (Row r : have.rows()) {
        theirs.put(r.clustering(), r);
      }
    }
    List<Row> mine = new ArrayList<>(merged.rows().size() + 1);
    if (merged.staticRow() != null) {
      mine.add(merged.staticRow());
    }
    mine.addAll(merged.rows());
    for (Row m : mine) {
      Row h = m.clustering().length == 0 ? (have == null ? null : have.staticRow()) : theirs.get(m.clustering());
      Row missing = missing(m, h);
      if (missing != null) {
        if (b == null) {
          b = PartitionUpdate.builder(keyspace, table, merged.key().key());
        }
        b.row(missing);
      }
    }
    return b == null ? null : b.build();
  }

  /** The parts of merged row {@code m} that {@code h} does not have in the same version, or null. */
  private static Row missing(Row m, Row h) {
    LivenessInfo marker = LivenessInfo.EMPTY;
    if (!m.liveness().isEmpty() && (h == null || !h.liveness().equals(m.liveness()))) {
      marker = m.liveness();
    }
    List<Cell> cells = new ArrayList<>();
    for (Cell c : m.cells()) {
      Cell theirs = h == null ? null : find(h.cells(), c);
      if (theirs == null || !theirs.equals(c)) {
        cells.add(c);
      }
    }
    if (marker.isEmpty() && cells.isEmpty()) {
      return null;
    }
    return new Row(m.clustering(), marker, DeletionTime.LIVE, cells);
  }

  private static Cell find(List<Cell> cells, Cell like) {
    for (Cell c : cells) {
      if (Reconcile.compareCellIdentity(c, like) == 0) {
        return c;
      }
    }
    return null;
  }
}
