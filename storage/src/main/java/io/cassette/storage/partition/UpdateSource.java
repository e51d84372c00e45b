package io.cassette.storage.partition;

import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A partition held in memory as one {@link PartitionUpdate} (for instance a replica's
 * unfiltered answer), readable as a source: several of them merged by {@link PartitionReader}
 * reconcile replicas with storage's own rules. Rows of the same clustering are merged.
 */
public final class UpdateSource implements PartitionSource {
  private final DecoratedKey key;
  private final DeletionTime partitionDeletion;
  private final List<RangeTombstone> rangeTombstones;
  private final TreeMap<byte[], Row> rows = new TreeMap<>(Bytes::compare);

  public UpdateSource(PartitionUpdate u) {
    this.key = DecoratedKey.of(u.key());
    this.partitionDeletion = u.partitionDeletion();
    this.rangeTombstones = u.rangeTombstones();
    for (Row r : u.rows()) {
      Row sorted = new Row(r.clustering(), r.liveness(), r.deletion(), Reconcile.sortCells(r.cells()));
      rows.merge(r.clustering(), sorted, Reconcile::row);
    }
  }

  @Override
  public DecoratedKey key() {
    return key;
  }

  @Override
  public DeletionTime partitionDeletion() {
    return partitionDeletion;
  }

  @Override
  public List<RangeTombstone> rangeTombstones() {
    return rangeTombstones;
  }

  /** As every source: the static row first whatever {@code from}, then the rows from {@code from} on. */
  @Override
  public Iterator<Row> rows(byte[] from) {
    Row staticRow = rows.get(Bytes.EMPTY);
    if (from.length == 0 || staticRow == null) {
      return rows.tailMap(from, true).values().iterator();
    }
    List<Row> out = new java.util.ArrayList<>(rows.tailMap(from, true).values());
    out.add(0, staticRow);
    return out.iterator();
  }

  @Override
  public Iterator<Row> rowsDescending(Slice slice) {
    byte[] upper = PartitionSource.upperBound(slice);
    NavigableMap<byte[], Row> head = upper == null ? rows : rows.headMap(upper, false);
    return head.tailMap(Bytes.EMPTY, false).descendingMap().values().iterator();
  }
}
