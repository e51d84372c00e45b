package io.cassette.storage.memtable;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.partition.Reconcile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One partition in a memtable: rows by clustering plus partition-level deletions.
 * Writers serialize on the partition (an update is applied atomically with respect to other
 * writers); readers never lock and see each row either before or after a write.
 */
public final class MemtablePartition implements PartitionSource {
  /**
   * Rough heap cost of a partition entry, a row and a cell beyond their byte arrays
   * (compressed oops): skip-list node and index share, hash-map node and table slot (40),
   * DecoratedKey, this object and the key array header; Row, its cell list and clustering
   * array header; Cell and its value array header. Too high and memtables flush small files that compaction rewrites (flash wear);
   * too low and the heap budget is overrun.
   */
  static final int PARTITION_OVERHEAD = 152;
  static final int ROW_OVERHEAD = 80;
  static final int CELL_OVERHEAD = 64;

  private final DecoratedKey key;
  private volatile DeletionTime partitionDeletion = DeletionTime.LIVE;
  private volatile List<RangeTombstone> rangeTombstones = List.of();
  /**
   * Most partitions (key-value tables, Redis strings) hold one row: it lives here until a
   * second clustering arrives, sparing a skip list per partition.
   */
  private volatile Row singleRow;
  /** Null until the partition has two clusterings; then holds every row (singleRow is stale). */
  private volatile ConcurrentSkipListMap<byte[], Row> rows;

  MemtablePartition(DecoratedKey key) {
    this.key = key;
  }

  /** Applies the update; returns the estimated heap bytes it added and the smallest timestamp in it. */
  synchronized long apply(PartitionUpdate update, long[] minTimestamp) {
    long added = 0;
    if (!update.partitionDeletion().isLive()) {
      partitionDeletion = Reconcile.deletion(partitionDeletion, update.partitionDeletion());
      minTimestamp[0] = Math.min(minTimestamp[0], update.partitionDeletion().markedForDeleteAt());
      added += 32;
      if (!rangeTombstones.isEmpty()) {
        rangeTombstones = withoutShadowed(rangeTombstones, List.of());
      }
    }
    if (!update.rangeTombstones().isEmpty()) {
      for (RangeTombstone rt : update.rangeTombstones()) {
        minTimestamp[0] = Math.min(minTimestamp[0], rt.deletion().markedForDeleteAt());
        added += 64 + rt.slice().start().length + rt.slice().end().length;
      }
      rangeTombstones = withoutShadowed(rangeTombstones, update.rangeTombstones());
    }
    for (Row row : update.rows()) {
      List<Cell> cells = Reconcile.sortCells(row.cells());
      Row sorted = cells == row.cells() ? row : new Row(row.clustering(), row.liveness(), row.deletion(), cells);
      putRow(sorted);
      added += ROW_OVERHEAD + row.clustering().length;
      if (!row.liveness().isEmpty()) {
        minTimestamp[0] = Math.min(minTimestamp[0], row.liveness().timestamp());
      }
      if (!row.deletion().isLive()) {
        minTimestamp[0] = Math.min(minTimestamp[0], row.deletion().markedForDeleteAt());
      }
      for (Cell c : cells) {
        added += CELL_OVERHEAD + c.column().length() + (c.value() == null ? 0 : c.value().length)
            + (c.path() == null ? 0 : c.path().length + 16);
        minTimestamp[0] = Math.min(minTimestamp[0], c.timestamp());
      }
    }
    return added;
  }

  /**
   * The union of both lists less what can never matter: tombstones shadowed by the
   * partition deletion, and older tombstones over exactly the same slice as a newer one.
   * Keeps repeated range deletions of one range from piling up. Requires: monitor held.
   */
  private List<RangeTombstone> withoutShadowed(List<RangeTombstone> existing, List<RangeTombstone> added) {
    long deletedAt = partitionDeletion.markedForDeleteAt();
    List<RangeTombstone> out = new ArrayList<>(existing.size() + added.size());
    for (List<RangeTombstone> list : List.of(existing, added)) {
      for (RangeTombstone rt : list) {
        if (rt.deletion().markedForDeleteAt() <= deletedAt) {
          continue;
        }
        boolean merged = false;
        for (int i = 0; i < out.size(); i++) {
          if (sameSlice(out.get(i).slice(), rt.slice())) {
            if (rt.deletion().markedForDeleteAt() > out.get(i).deletion().markedForDeleteAt()) {
              out.set(i, rt);
            }
            merged = true;
            break;
          }
        }
        if (!merged) {
          out.add(rt);
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static boolean sameSlice(io.cassette.storage.Slice a, io.cassette.storage.Slice b) {
    return a.startInclusive() == b.startInclusive() && a.endInclusive() == b.endInclusive()
        && Bytes.compare(a.start(), b.start()) == 0 && Bytes.compare(a.end(), b.end()) == 0;
  }

  /** Requires: this partition's monitor held. */
  private void putRow(Row row) {
    ConcurrentSkipListMap<byte[], Row> map = rows;
    if (map != null) {
      map.merge(row.clustering(), row, Reconcile::row);
      return;
    }
    Row single = singleRow;
    if (single == null) {
      singleRow = row;
    } else if (Bytes.compare(single.clustering(), row.clustering()) == 0) {
      singleRow = Reconcile.row(single, row);
    } else {
      map = new ConcurrentSkipListMap<>(Bytes::compare);
      map.put(single.clustering(), single);
      map.put(row.clustering(), row);
      rows = map; // published complete; readers that saw null still read singleRow
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

  @Override
  public Iterator<Row> rows(byte[] from) {
    ConcurrentSkipListMap<byte[], Row> rows = this.rows;
    if (rows == null) {
      Row single = singleRow;
      if (single == null || (single.clustering().length > 0 && Bytes.compare(single.clustering(), from) < 0)) {
        return Collections.emptyIterator();
      }
      return List.of(single).iterator();
    }
    if (from.length == 0) {
      return rows.values().iterator();
    }
    Row staticRow = rows.get(Bytes.EMPTY);
    Iterator<Row> tail = rows.tailMap(from, true).values().iterator();
    if (staticRow == null) {
      return tail;
    }
    return new Iterator<>() {
      boolean staticDone;

      @Override
      public boolean hasNext() {
        return !staticDone || tail.hasNext();
      }

      @Override
      public Row next() {
        if (!staticDone) {
          staticDone = true;
          return staticRow;
        }
        return tail.next();
      }
    };
  }

  @Override
  public Iterator<Row> rowsDescending(io.cassette.storage.Slice slice) {
    byte[] upper = PartitionSource.upperBound(slice);
    ConcurrentSkipListMap<byte[], Row> rows = this.rows;
    if (rows == null) {
      Row single = singleRow;
      if (single == null || (upper != null && Bytes.compare(single.clustering(), upper) >= 0)) {
        return Collections.emptyIterator();
      }
      return List.of(single).iterator();
    }
    var head = upper == null ? rows : rows.headMap(upper, false);
    return head.descendingMap().values().iterator();
  }

  public int rowCount() {
    ConcurrentSkipListMap<byte[], Row> map = rows;
    return map != null ? map.size() : singleRow == null ? 0 : 1;
  }
}
