package io.cassette.storage.compaction;

import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.Bytes;
import io.cassette.storage.partition.MergingRowIterator;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.partition.Reconcile;
import io.cassette.storage.partition.RowCursor;
import io.cassette.storage.sstable.SSTableWriter;
import io.cassette.storage.sstable.StoredRows;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Writes the merge of several versions of one partition: data shadowed by a deletion in the
 * merge is dropped; expired cells become tombstones; tombstones are dropped only when older
 * than {@code gcBefore} (local seconds) and older than {@code maxPurgeableTimestamp} (so no
 * data outside the compaction can be shadowed by them).
 */
public final class CompactionMerger {
  private final long nowInSeconds;
  private final long gcBefore;
  /** Tests only: false decodes every row, as before stored rows were copied (the files must not differ). */
  boolean copyStoredRows = true;
  /** Reads a partition's rows as stored; reused from partition to partition. */
  private final StoredRows stored = new StoredRows();

  public CompactionMerger(long nowInSeconds, int gcGraceSeconds) {
    this.nowInSeconds = nowInSeconds;
    this.gcBefore = nowInSeconds - gcGraceSeconds;
  }

  /**
   * The current partition's smallest timestamp outside the compaction, asked for only when a
   * tombstone past gc grace is met: finding it probes every other SSTable's Bloom filter and
   * the memtables, a seventh of a compaction's samples (JFR) when asked for every partition.
   */
  private java.util.function.LongSupplier maxPurgeableSource;
  private long maxPurgeable;
  private boolean maxPurgeableKnown;

  private boolean purgeable(long timestamp, long localDeletionTime) {
    if (localDeletionTime >= gcBefore) {
      return false;
    }
    if (!maxPurgeableKnown) {
      maxPurgeable = maxPurgeableSource.getAsLong();
      maxPurgeableKnown = true;
    }
    return timestamp < maxPurgeable;
  }

  public void write(SSTableWriter writer, DecoratedKey key, List<PartitionSource> sources, long maxPurgeable) {
    write(writer, key, sources, () -> maxPurgeable);
  }

  /**
   * The next partition written, if it is copied from one input, has the digest {@code high}
   * in that input's Digest.db (an entry with a digest: no deletion, tombstone or TTL in it,
   * so every row is copied as it is and the digest is the same).
   */
  void storedDigest(long high) {
    hasStoredDigest = true;
    storedHigh = high;
  }

  /** Whether rows are copied as stored: the stored digests are of use only then. */
  boolean copiesStoredRows() {
    return copyStoredRows;
  }

  private boolean hasStoredDigest;
  private long storedHigh;

  /** As above, {@code maxPurgeable} asked for only if needed (at most once). */
  public void write(SSTableWriter writer, DecoratedKey key, List<PartitionSource> sources,
                    java.util.function.LongSupplier maxPurgeable) {
    this.maxPurgeableSource = maxPurgeable;
    this.maxPurgeableKnown = false;
    DeletionTime pd = DeletionTime.LIVE;
    List<RangeTombstone> all = List.of(); // most partitions have none: no list is made for them
    for (int i = 0; i < sources.size(); i++) { // indexed: no iterator per partition
      PartitionSource s = sources.get(i);
      pd = Reconcile.deletion(pd, s.partitionDeletion());
      if (!s.rangeTombstones().isEmpty()) {
        if (all.isEmpty()) {
          all = new ArrayList<>();
        }
        all.addAll(s.rangeTombstones());
      }
    }
    List<RangeTombstone> kept = all.isEmpty() ? List.of() : new ArrayList<>();
    for (int t = 0; t < all.size(); t++) {
      RangeTombstone rt = all.get(t);
      DeletionTime d = rt.deletion();
      if (d.markedForDeleteAt() <= pd.markedForDeleteAt()
          || purgeable(d.markedForDeleteAt(), d.localDeletionTime())) {
        continue;
      }
      boolean duplicate = false;
      for (RangeTombstone k : kept) {
        if (k.deletion().equals(d) && Bytes.compare(k.slice().start(), rt.slice().start()) == 0
            && Bytes.compare(k.slice().end(), rt.slice().end()) == 0
            && k.slice().startInclusive() == rt.slice().startInclusive()
            && k.slice().endInclusive() == rt.slice().endInclusive()) {
          duplicate = true;
          break;
        }
      }
      if (!duplicate) {
        kept.add(rt);
      }
    }
    DeletionTime outPd = !pd.isLive() && purgeable(pd.markedForDeleteAt(), pd.localDeletionTime())
        ? DeletionTime.LIVE : pd;
    writer.beginPartition(key, outPd, kept);
    boolean digestGiven = hasStoredDigest;
    hasStoredDigest = false;
    if (copyStoredRows && sources.size() == 1 && pd.isLive() && all.isEmpty() && stored.open(sources.get(0))) {
      if (digestGiven) {
        writer.storedDigest(storedHigh);
      }
      // Most partitions: in one input, nothing deleting them. A row nothing would change is
      // copied as its stored bytes; any other is decoded and purged as below.
      while (stored.next()) {
        // A partition with a stored digest has no deletion, tombstone or TTL: every row is
        // unchanged, so its rows are not read twice to check (the cells' pass for the
        // statistics remains).
        if (digestGiven || unchanged(stored.cursor())) {
          writer.rowAsStored(stored);
        } else {
          Row r = purgeRow(stored.decode(), pd, all);
          if (r != null) {
            writer.row(r);
          }
        }
      }
      writer.endPartition();
      return;
    }
    Iterator<Row> rows;
    if (sources.size() == 1) {
      rows = sources.get(0).rows(Bytes.EMPTY); // most partitions: nothing to merge with
    } else {
      List<Iterator<Row>> its = new ArrayList<>(sources.size());
      for (PartitionSource s : sources) {
        its.add(s.rows(Bytes.EMPTY));
      }
      rows = new MergingRowIterator(its);
    }
    while (rows.hasNext()) {
      Row r = purgeRow(rows.next(), pd, all);
      if (r != null) {
        writer.row(r);
      }
    }
    writer.endPartition();
  }

  /**
   * True when {@link #purgeRow} would return the cursor's row as it is, given no partition
   * deletion or range tombstone: it has no deletion, no expired liveness or cell, and no
   * tombstone old enough to be purged. Reads the cursor to its end.
   */
  private boolean unchanged(RowCursor c) {
    if (c.hasDeletion() || c.livenessTtl > 0 && c.livenessExpiration <= nowInSeconds) {
      return false;
    }
    while (c.next()) {
      if (c.isExpiring() && c.localDeletionTime <= nowInSeconds
          || c.isTombstone() && c.localDeletionTime < gcBefore) {
        return false;
      }
    }
    return true;
  }

  private Row purgeRow(Row row, DeletionTime pd, List<RangeTombstone> rts) {
    DeletionTime covering = Reconcile.deletion(pd, Reconcile.covering(rts, row.clustering()));
    DeletionTime rowDeletion = row.deletion();
    if (rowDeletion.markedForDeleteAt() <= covering.markedForDeleteAt()
        || purgeable(rowDeletion.markedForDeleteAt(), rowDeletion.localDeletionTime())) {
      rowDeletion = DeletionTime.LIVE;
    }
    DeletionTime d = Reconcile.deletion(covering, row.deletion());
    LivenessInfo liveness = row.liveness();
    if (!liveness.isEmpty()) {
      if (d.deletes(liveness.timestamp())) {
        liveness = LivenessInfo.EMPTY;
      } else if (liveness.ttl() > 0 && liveness.localExpirationTime() <= nowInSeconds
          && purgeable(liveness.timestamp(), liveness.localExpirationTime() - liveness.ttl())) {
        liveness = LivenessInfo.EMPTY;
      }
    }
    List<Cell> in = row.cells();
    List<Cell> cells = null; // stays null while every cell is kept as it is: the row is then written as read
    for (int i = 0; i < in.size(); i++) {
      Cell c = in.get(i);
      Cell out = purgeCell(c, d);
      if (out != c && cells == null) {
        cells = new ArrayList<>(in.size());
        cells.addAll(in.subList(0, i));
      }
      if (out != null && cells != null) {
        cells.add(out);
      }
    }
    if (cells == null) {
      if (liveness == row.liveness() && rowDeletion == row.deletion()) {
        return row;
      }
      cells = in;
    }
    if (liveness.isEmpty() && rowDeletion.isLive() && cells.isEmpty()) {
      return null;
    }
    return new Row(row.clustering(), liveness, rowDeletion, cells);
  }

  /** What is left of {@code c} under deletion {@code d}: null if nothing, {@code c} itself if unchanged. */
  private Cell purgeCell(Cell c, DeletionTime d) {
    if (d.deletes(c.timestamp())) {
      return null;
    }
    if (c.isExpiring() && c.localDeletionTime() <= nowInSeconds) {
      // An expired cell still shadows older versions elsewhere: keep it as a tombstone
      // dated from its write, so gc grace counts from when it was written (as Cassandra).
      c = new Cell(c.column(), c.path(), null, c.timestamp(), 0, c.localDeletionTime() - c.ttl());
    }
    if (c.isTombstone() && purgeable(c.timestamp(), c.localDeletionTime())) {
      return null;
    }
    return c;
  }
}
