package io.cassette.coordinator.view;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.Table;
import io.cassette.storage.partition.Reconcile;
import java.util.ArrayList;
import java.util.List;

/**
 * What a view replica does before applying a view update, in place of Cassandra's shadowable
 * tombstones: a view row deleted when its base row moved to another view key (deleted at the
 * newest timestamp it held) may come back under the same key later, with cells the base kept
 * from before (e.g. a status column that goes a, b, a). Those cells carry timestamps at or below
 * that deletion and would stay hidden; so a row whose marker is newer than the deletion covering
 * it gets those cells written just above the deletion. Only then does a view cell's write time
 * differ from its base cell's.
 */
public final class ViewRowRestamp {
  private ViewRowRestamp() {}

  /** {@code update} of the local view table {@code view}, with resurrected cells lifted above their deletion. */
  public static PartitionUpdate apply(Table view, PartitionUpdate update, long nowInSeconds) {
    List<Slice> slices = new ArrayList<>();
    for (Row r : update.rows()) {
      if (!r.liveness().isEmpty()) {
        slices.add(r.clustering().length == 0 ? Slice.ALL : Slice.prefix(r.clustering()));
      }
    }
    if (slices.isEmpty()) {
      return update;
    }
    PartitionUpdate existing = view.readUnfiltered(update.key(),
        new ReadQuery(slices, false, Integer.MAX_VALUE, nowInSeconds));
    if (existing == null) {
      return update;
    }
    List<Row> rows = null;
    for (int i = 0; i < update.rows().size(); i++) {
      Row r = update.rows().get(i);
      if (r.liveness().isEmpty()) {
        continue;
      }
      DeletionTime d = existing.partitionDeletion().supersedes(Reconcile.covering(existing.rangeTombstones(), r.clustering()));
      for (Row e : existing.rows()) {
        if (java.util.Arrays.equals(e.clustering(), r.clustering())) {
          d = d.supersedes(e.deletion());
        }
      }
      if (d.isLive() || r.liveness().timestamp() <= d.markedForDeleteAt()) {
        continue; // nothing deleted it, or the write is older than the deletion: as written
      }
      long lifted = d.markedForDeleteAt() + 1;
      List<Cell> cells = new ArrayList<>(r.cells().size());
      boolean changed = false;
      for (Cell c : r.cells()) {
        if (c.timestamp() <= d.markedForDeleteAt()) {
          cells.add(new Cell(c.column(), c.path(), c.value(), lifted, c.ttl(), c.localDeletionTime()));
          changed = true;
        } else {
          cells.add(c);
        }
      }
      if (changed) {
        if (rows == null) {
          rows = new ArrayList<>(update.rows());
        }
        rows.set(i, new Row(r.clustering(), r.liveness(), r.deletion(), cells));
      }
    }
    return rows == null ? update : new PartitionUpdate(update.keyspace(), update.table(), update.key(),
        update.partitionDeletion(), update.rangeTombstones(), rows);
  }
}
