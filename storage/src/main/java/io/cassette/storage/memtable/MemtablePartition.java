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

/**
 * One partition in a memtable: rows by clustering plus partition-level deletions. Rows are
 * held packed ({@link PackedRow}: one byte array each) and decoded when read.
 * Writers serialize on the partition (an update is applied atomically with respect to other
 * writers); readers never lock and see each row either before or after a write.
 */
public final class MemtablePartition implements PartitionSource {
  /**
   * Heap bytes beyond the key array of a partition entry, on a 64-bit JVM with compressed
   * oops and class pointers (every heap under 32 GB; 8-byte alignment): DecoratedKey (24)
   * and this object (48). The trie's nodes are counted as it allocates them
   * ({@link PartitionTrie}). The figure the memtable budget counts: too high and memtables
   * flush small files that compaction rewrites (flash wear); too low and the heap budget is
   * overrun. bench's MemtableHeapProbe checks it against the measured heap.
   */
  static final int PARTITION_OVERHEAD = 24 + 48;
  /** A partition deletion: its DeletionTime. */
  static final int DELETION = 32;
  /** A range tombstone beyond its bounds' arrays: RangeTombstone, Slice, DeletionTime, list slot. */
  static final int RANGE_TOMBSTONE = 24 + 24 + 32 + 4;

  private final DecoratedKey key;
  /**
   * The key's token, again: the trie compares it on every write and read that reaches this
   * partition, and here it costs no load of the key object (8 bytes for one cache miss less).
   */
  final long token;
  /** The memtable's column names, which packed rows refer to by number. */
  private final ColumnDictionary columns;
  private volatile DeletionTime partitionDeletion = DeletionTime.LIVE;
  private volatile List<RangeTombstone> rangeTombstones = List.of();
  /**
   * Most partitions (key-value tables, Redis strings) hold one row: it lives here until a
   * second clustering arrives, sparing a skip list per partition. Its clustering is written
   * once, before the first volatile write of singleRow, and never changes.
   */
  private byte[] singleClustering;
  private volatile byte[] singleRow;
  /** Null until the partition has two clusterings; then holds every row (singleRow is stale). */
  private volatile RowTree rows;

  MemtablePartition(DecoratedKey key, ColumnDictionary columns) {
    this.key = key;
    this.token = key.token();
    this.columns = columns;
  }

  /**
   * Applies the update: adds to {@code acc[0]} the heap bytes it added (negative if it freed
   * some) and lowers {@code acc[1]} to the smallest timestamp in it.
   */
  synchronized void apply(PartitionUpdate update, long[] acc) {
    if (!update.partitionDeletion().isLive()) {
      if (partitionDeletion.isLive()) {
        acc[0] += DELETION;
      }
      partitionDeletion = Reconcile.deletion(partitionDeletion, update.partitionDeletion());
      acc[1] = Math.min(acc[1], update.partitionDeletion().markedForDeleteAt());
      if (!rangeTombstones.isEmpty()) {
        rangeTombstones = withoutShadowed(rangeTombstones, List.of());
      }
    }
    if (!update.rangeTombstones().isEmpty()) {
      for (RangeTombstone rt : update.rangeTombstones()) {
        acc[1] = Math.min(acc[1], rt.deletion().markedForDeleteAt());
        acc[0] += RANGE_TOMBSTONE + PackedRow.arrayBytes(rt.slice().start().length)
            + PackedRow.arrayBytes(rt.slice().end().length);
      }
      rangeTombstones = withoutShadowed(rangeTombstones, update.rangeTombstones());
    }
    List<Row> updateRows = update.rows();
    for (int r = 0; r < updateRows.size(); r++) { // indexed: no iterator per write
      Row row = updateRows.get(r);
      List<Cell> cells = Reconcile.sortCells(row.cells());
      Row sorted = cells == row.cells() ? row : new Row(row.clustering(), row.liveness(), row.deletion(), cells);
      putRow(sorted, acc);
      if (!row.liveness().isEmpty()) {
        acc[1] = Math.min(acc[1], row.liveness().timestamp());
      }
      if (!row.deletion().isLive()) {
        acc[1] = Math.min(acc[1], row.deletion().markedForDeleteAt());
      }
      for (int i = 0; i < cells.size(); i++) {
        acc[1] = Math.min(acc[1], cells.get(i).timestamp());
      }
    }
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

  /** Requires: this partition's monitor held. Adds the heap bytes it changed to {@code added[0]}. */
  private void putRow(Row row, long[] added) {
    byte[] clustering = row.clustering().length == 0 ? Bytes.EMPTY : row.clustering();
    RowTree tree = rows;
    if (tree != null) {
      int found = tree.find(clustering); // one descent for the read and the write
      if (found < 0) {
        byte[] packed = PackedRow.encode(row, columns, added);
        added[0] += tree.insert(found, clustering, packed) + clusteringBytes(clustering)
            + PackedRow.arrayBytes(packed.length);
      } else {
        byte[] old = tree.rowAt(found);
        byte[] packed = PackedRowMerger.merge(old, row, columns, added);
        if (packed != old) {
          tree.replace(found, packed); // keeps the entry's key
          added[0] += PackedRow.arrayBytes(packed.length) - PackedRow.arrayBytes(old.length);
        }
      }
      return;
    }
    byte[] single = singleRow;
    if (single == null) {
      byte[] packed = PackedRow.encode(row, columns, added);
      singleClustering = clustering;
      singleRow = packed; // publishes singleClustering with it
      added[0] += clusteringBytes(clustering) + PackedRow.arrayBytes(packed.length);
    } else if (Bytes.compare(singleClustering, clustering) == 0) {
      byte[] packed = PackedRowMerger.merge(single, row, columns, added);
      singleRow = packed;
      added[0] += PackedRow.arrayBytes(packed.length) - PackedRow.arrayBytes(single.length);
    } else {
      byte[] packed = PackedRow.encode(row, columns, added);
      rows = Bytes.compare(singleClustering, clustering) < 0
          ? new RowTree(singleClustering, single, clustering, packed)
          : new RowTree(clustering, packed, singleClustering, single);
      // published complete; readers that saw null still read singleRow
      added[0] += RowTree.twoRowBytes() + clusteringBytes(clustering) + PackedRow.arrayBytes(packed.length);
    }
  }

  /** The empty clustering is the shared {@link Bytes#EMPTY}: it costs nothing. */
  private static long clusteringBytes(byte[] clustering) {
    return clustering.length == 0 ? 0 : PackedRow.arrayBytes(clustering.length);
  }

  private Row decode(byte[] clustering, byte[] packed) {
    return PackedRow.decode(clustering, packed, columns);
  }

  /** The decoded rows under a tree cursor, lazily. */
  private Iterator<Row> decoding(RowTree.Cursor cursor) {
    return new Iterator<>() {
      private Boolean ahead;

      @Override
      public boolean hasNext() {
        if (ahead == null) {
          ahead = cursor.advance();
        }
        return ahead;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        ahead = null;
        return decode(cursor.clustering(), cursor.row());
      }
    };
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
    RowTree rows = this.rows;
    if (rows == null) {
      byte[] packed = singleRow;
      if (packed == null || (singleClustering.length > 0 && Bytes.compare(singleClustering, from) < 0)) {
        return Collections.emptyIterator();
      }
      return List.of(decode(singleClustering, packed)).iterator();
    }
    if (from.length == 0) {
      return decoding(rows.ascending(null, true));
    }
    byte[] staticPacked = rows.staticRow();
    Iterator<Row> tail = decoding(rows.ascending(from, true));
    if (staticPacked == null) {
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
          return decode(Bytes.EMPTY, staticPacked);
        }
        return tail.next();
      }
    };
  }

  @Override
  public Iterator<Row> rowsDescending(io.cassette.storage.Slice slice) {
    byte[] upper = PartitionSource.upperBound(slice);
    RowTree rows = this.rows;
    if (rows == null) {
      byte[] packed = singleRow;
      if (packed == null || (upper != null && Bytes.compare(singleClustering, upper) >= 0)) {
        return Collections.emptyIterator();
      }
      return List.of(decode(singleClustering, packed)).iterator();
    }
    return decoding(rows.descending(upper));
  }

  /**
   * Every row, in clustering order, into {@code writer} straight from its packed bytes: no
   * Row or Cell is built (the flush's decoding was a tenth of its time, JFR).
   */
  void writeRows(io.cassette.storage.sstable.SSTableWriter writer, PackedCellCursor[] reuse) {
    PackedCellCursor cursor = reuse[0];
    if (cursor == null || cursor.columns != columns) {
      cursor = reuse[0] = new PackedCellCursor(new byte[] {0, 0}, columns); // an empty row until reset
    }
    RowTree rows = this.rows;
    if (rows == null) {
      byte[] packed = singleRow;
      if (packed != null) {
        writer.row(singleClustering, cursor.reset(packed));
      }
      return;
    }
    for (RowTree.Cursor c = rows.ascending(null, true); c.advance(); ) {
      writer.row(c.clustering(), cursor.reset(c.row()));
    }
  }

  public int rowCount() {
    RowTree tree = rows;
    return tree != null ? tree.size() : singleRow == null ? 0 : 1;
  }
}
