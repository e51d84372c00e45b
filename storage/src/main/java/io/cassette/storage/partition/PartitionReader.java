package io.cassette.storage.partition;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Builds the live view of one partition from all its sources: merges them by timestamp,
 * applies the partition deletion, range tombstones, row deletions and TTLs, then the
 * query's slices, order and limit. Forward reads stop as soon as the limit is reached.
 */
public final class PartitionReader {
  private PartitionReader() {}

  public static PartitionView read(DecoratedKey key, List<? extends PartitionSource> sources, ReadQuery query) {
    if (sources.isEmpty()) {
      return new PartitionView(key, null, List.of());
    }
    DeletionTime pd = DeletionTime.LIVE;
    List<RangeTombstone> rts = new ArrayList<>();
    for (PartitionSource s : sources) {
      pd = Reconcile.deletion(pd, s.partitionDeletion());
      rts.addAll(s.rangeTombstones());
    }
    int sstables = 0;
    for (PartitionSource s : sources) {
      sstables += s instanceof io.cassette.storage.memtable.MemtablePartition ? 0 : 1;
    }
    io.cassette.storage.ReadStats.countSstables(sstables);
    long now = query.nowInSeconds();
    List<Slice> slices = new ArrayList<>(query.slices());
    slices.sort((a, b) -> Bytes.compare(a.start(), b.start()));
    if (query.reversed()) {
      return readReversed(key, sources, query, pd, rts, slices);
    }
    Row staticRow = null;
    boolean staticSeen = false;
    int limit = query.rowLimit();
    List<Row> rows = new ArrayList<>();
    if (slices.isEmpty()) {
      slices.add(new Slice(new byte[] {0}, true, new byte[] {0}, false)); // selects nothing
    }
    long bytes = 0;
    long byteLimit = query.byteLimit();
    for (Slice slice : slices) {
      if (rows.size() >= limit || bytes >= byteLimit) {
        break;
      }
      List<Iterator<Row>> its = new ArrayList<>(sources.size());
      for (PartitionSource s : sources) {
        its.add(s.rows(slice.start()));
      }
      MergingRowIterator merged = new MergingRowIterator(its);
      while (merged.hasNext() && rows.size() < limit && bytes < byteLimit) {
        Row r = merged.next();
        if (r.clustering().length == 0) {
          if (!staticSeen) {
            staticSeen = true;
            staticRow = live(r, pd, rts, now);
          }
          continue;
        }
        if (isAfter(slice, r.clustering())) {
          break;
        }
        if (!slice.includes(r.clustering())) {
          continue;
        }
        Row live = live(r, pd, rts, now);
        if (live != null) {
          rows.add(live);
          bytes += byteLimit == Long.MAX_VALUE ? 0 : live.dataSize();
        }
      }
    }
    return new PartitionView(key, staticRow, rows);
  }

  /**
   * Reversed reads walk every source backwards from each slice's end (slices last to first)
   * and stop at the limit, so "the last N rows" of a large partition reads about N rows.
   */
  private static PartitionView readReversed(DecoratedKey key, List<? extends PartitionSource> sources,
                                            ReadQuery query, DeletionTime pd, List<RangeTombstone> rts,
                                            List<Slice> slices) {
    long now = query.nowInSeconds();
    Row staticRow = null;
    for (PartitionSource s : sources) {
      staticRow = Reconcile.row(staticRow, s.staticRow());
    }
    Row liveStatic = staticRow == null ? null : live(staticRow, pd, rts, now);
    List<Row> rows = new ArrayList<>();
    long bytes = 0;
    long byteLimit = query.byteLimit();
    for (int i = slices.size() - 1; i >= 0 && rows.size() < query.rowLimit() && bytes < byteLimit; i--) {
      Slice slice = slices.get(i);
      List<Iterator<Row>> its = new ArrayList<>(sources.size());
      for (PartitionSource s : sources) {
        its.add(s.rowsDescending(slice));
      }
      MergingRowIterator merged = new MergingRowIterator(its, true);
      while (merged.hasNext() && rows.size() < query.rowLimit() && bytes < byteLimit) {
        Row r = merged.next();
        byte[] c = r.clustering();
        if (c.length == 0) {
          continue;
        }
        if (slice.start().length > 0 && Bytes.compare(c, slice.start()) < 0) {
          break; // this one and every later one lie before the slice
        }
        if (!slice.includes(c)) {
          continue;
        }
        Row live = live(r, pd, rts, now);
        if (live != null) {
          rows.add(live);
          bytes += byteLimit == Long.MAX_VALUE ? 0 : live.dataSize();
        }
      }
    }
    return new PartitionView(key, liveStatic, rows);
  }

  /**
   * The unfiltered content of the partition within the query: the partition deletion, its
   * range tombstones (all of them not shadowed by the partition deletion, sorted), the static
   * row and the rows of the slices with their row deletions, tombstone cells and expired cells
   * (data shadowed by a deletion is dropped, the deletion kept), in ascending clustering order.
   * The limit counts live rows at the query's time, as {@link #read} does, so the answer covers
   * at least what {@code read} returns. What replicas exchange so that deletions reconcile.
   */
  public static PartitionUpdate readUnfiltered(String keyspace, String table, DecoratedKey key,
                                               List<? extends PartitionSource> sources, ReadQuery query) {
    DeletionTime pd = DeletionTime.LIVE;
    List<RangeTombstone> rts = new ArrayList<>();
    Row staticRow = null;
    for (PartitionSource s : sources) {
      pd = Reconcile.deletion(pd, s.partitionDeletion());
      rts.addAll(s.rangeTombstones());
      staticRow = Reconcile.row(staticRow, s.staticRow());
    }
    List<RangeTombstone> keptRts = new ArrayList<>();
    for (RangeTombstone rt : rts) {
      if (rt.deletion().markedForDeleteAt() > pd.markedForDeleteAt() && !containsRt(keptRts, rt)) {
        keptRts.add(rt);
      }
    }
    keptRts.sort(PartitionReader::compareRt);
    long now = query.nowInSeconds();
    List<Slice> slices = new ArrayList<>(query.slices());
    slices.sort((a, b) -> Bytes.compare(a.start(), b.start()));
    List<Row> rows = new ArrayList<>();
    Row keptStatic = staticRow == null ? null : unshadowed(staticRow, pd, keptRts);
    if (keptStatic != null) {
      rows.add(keptStatic);
    }
    int live = 0;
    int limit = query.rowLimit();
    List<Row> body = new ArrayList<>();
    for (int i = 0; i < slices.size() && live < limit; i++) {
      Slice slice = query.reversed() ? slices.get(slices.size() - 1 - i) : slices.get(i);
      List<Iterator<Row>> its = new ArrayList<>(sources.size());
      for (PartitionSource s : sources) {
        its.add(query.reversed() ? s.rowsDescending(slice) : s.rows(slice.start()));
      }
      MergingRowIterator merged = new MergingRowIterator(its, query.reversed());
      while (merged.hasNext() && live < limit) {
        Row r = merged.next();
        byte[] c = r.clustering();
        if (c.length == 0) {
          continue;
        }
        if (query.reversed() ? slice.start().length > 0 && Bytes.compare(c, slice.start()) < 0 : isAfter(slice, c)) {
          break;
        }
        if (!slice.includes(c)) {
          continue;
        }
        Row kept = unshadowed(r, pd, keptRts);
        if (kept != null) {
          body.add(kept);
          if (live(kept, pd, keptRts, now) != null) {
            live++;
          }
        }
      }
    }
    if (query.reversed()) {
      java.util.Collections.reverse(body);
    }
    rows.addAll(body);
    return new PartitionUpdate(keyspace, table, key.key(), pd, keptRts, rows);
  }

  /**
   * {@code row} without what the partition deletion, a covering range tombstone or its own
   * deletion shadows (its deletion kept only when newer than the others), or null if nothing is left.
   */
  public static Row unshadowed(Row row, DeletionTime partitionDeletion, List<RangeTombstone> rts) {
    DeletionTime outer = Reconcile.deletion(partitionDeletion, Reconcile.covering(rts, row.clustering()));
    DeletionTime own = row.deletion().markedForDeleteAt() > outer.markedForDeleteAt() ? row.deletion() : DeletionTime.LIVE;
    DeletionTime d = Reconcile.deletion(outer, own);
    LivenessInfo liveness = !row.liveness().isEmpty() && d.deletes(row.liveness().timestamp())
        ? LivenessInfo.EMPTY : row.liveness();
    List<Cell> cells = new ArrayList<>(row.cells().size());
    for (Cell c : row.cells()) {
      if (!d.deletes(c.timestamp())) {
        cells.add(c);
      }
    }
    if (liveness.isEmpty() && cells.isEmpty() && own.isLive()) {
      return null;
    }
    return new Row(row.clustering(), liveness, own, cells);
  }

  private static boolean containsRt(List<RangeTombstone> rts, RangeTombstone rt) {
    for (RangeTombstone x : rts) {
      if (compareRt(x, rt) == 0) {
        return true;
      }
    }
    return false;
  }

  /** A total order of range tombstones (for stable digests): start, end, bounds, deletion. */
  public static int compareRt(RangeTombstone a, RangeTombstone b) {
    int c = Bytes.compare(a.slice().start(), b.slice().start());
    if (c == 0) {
      c = Bytes.compare(a.slice().end(), b.slice().end());
    }
    if (c == 0) {
      c = Boolean.compare(a.slice().startInclusive(), b.slice().startInclusive());
    }
    if (c == 0) {
      c = Boolean.compare(a.slice().endInclusive(), b.slice().endInclusive());
    }
    if (c == 0) {
      c = Long.compare(a.deletion().markedForDeleteAt(), b.deletion().markedForDeleteAt());
    }
    if (c == 0) {
      c = Long.compare(a.deletion().localDeletionTime(), b.deletion().localDeletionTime());
    }
    return c;
  }

  /** True if {@code clustering} and every later one lie beyond the slice's end. */
  public static boolean isAfter(Slice slice, byte[] clustering) {
    byte[] end = slice.end();
    if (end.length == 0) {
      return false;
    }
    int c = Bytes.compare(clustering, end);
    if (slice.endInclusive()) {
      return c > 0 && !Bytes.startsWith(clustering, end);
    }
    return c >= 0;
  }

  /**
   * The live part of a merged row at {@code now}, or null if nothing in it is live: deleted
   * or expired cells and a dead row marker are removed.
   */
  public static Row live(Row row, DeletionTime partitionDeletion, List<RangeTombstone> rts, long now) {
    DeletionTime d = Reconcile.deletion(partitionDeletion, row.deletion());
    if (!rts.isEmpty()) {
      d = Reconcile.deletion(d, Reconcile.covering(rts, row.clustering()));
    }
    int tombstones = row.deletion().isLive() ? 0 : 1;
    LivenessInfo liveness = row.liveness();
    if (!liveness.isEmpty() && (d.deletes(liveness.timestamp()) || !liveness.isLive(now))) {
      liveness = LivenessInfo.EMPTY;
    }
    List<Cell> cells = row.cells();
    List<Cell> kept = null;
    for (int i = 0; i < cells.size(); i++) {
      Cell c = cells.get(i);
      boolean shadowed = d.deletes(c.timestamp());
      boolean keep = !shadowed && c.isLive(now);
      if (!keep && !shadowed) {
        tombstones++; // a cell tombstone or an expired cell, as Cassandra counts them
      }
      if (!keep && kept == null) {
        kept = new ArrayList<>(cells.subList(0, i));
      } else if (keep && kept != null) {
        kept.add(c);
      }
    }
    if (kept != null) {
      cells = kept;
    }
    if (tombstones > 0) {
      io.cassette.storage.ReadStats.countTombstones(tombstones);
    }
    if (liveness.isEmpty() && cells.isEmpty()) {
      return null;
    }
    if (liveness == row.liveness() && cells == row.cells() && row.deletion().isLive()) {
      return row;
    }
    return new Row(row.clustering(), liveness, DeletionTime.LIVE, cells);
  }
}
