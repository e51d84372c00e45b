package io.cassette.coordinator.ring;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.partition.PartitionReader;
import io.cassette.storage.partition.Reconcile;
import io.cassette.storage.partition.UpdateSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Merges the answers of several replicas for one partition with storage's last-write-wins rules
 * ({@link Reconcile}: by timestamp, cell by cell, row marker by row marker), and computes what a
 * stale replica lacks (the read-repair mutation). Pure functions.
 *
 * <p>Single-partition reads exchange unfiltered partitions ({@link PartitionUpdate}: partition
 * deletion, range tombstones, row deletions, tombstone and expired cells, as storage's
 * {@code Table.readUnfiltered} gives them): they are merged first ({@link #mergeUnfiltered}),
 * repairs computed from that, including the deletions a stale replica missed
 * ({@link #repair(String, String, PartitionUpdate, PartitionUpdate)}), and only then filtered to
 * the live view the client sees, with its limit ({@link #live}) — as Cassandra does.
 *
 * <p>Range scans still merge live views ({@link #merge}, {@link #repair(String, String,
 * PartitionView, PartitionView)}): there a replica that missed a deletion can still bring the
 * deleted row back in the answer until hints or repair reach it.
 */
final class ReadReconciler {
  private ReadReconciler() {}

  /**
   * The unfiltered merge of replicas' unfiltered answers for one partition (rows ascending, data
   * shadowed by a deletion dropped), within the query's slices but without its limit: every
   * row any replica sent is there, so what each lacks can be computed.
   */
  static PartitionUpdate mergeUnfiltered(String keyspace, String table, List<PartitionUpdate> answers, ReadQuery query) {
    ReadQuery all = new ReadQuery(query.slices(), false, Integer.MAX_VALUE, query.nowInSeconds());
    return PartitionReader.readUnfiltered(keyspace, table, DecoratedKey.of(answers.get(0).key()), sources(answers), all);
  }

  /** The live view of the replicas' unfiltered answers merged, as the query asks it (order, limit, TTLs). */
  static PartitionView live(List<PartitionUpdate> answers, ReadQuery query) {
    return PartitionReader.read(DecoratedKey.of(answers.get(0).key()), sources(answers), query);
  }

  private static List<UpdateSource> sources(List<PartitionUpdate> answers) {
    List<UpdateSource> out = new ArrayList<>(answers.size());
    for (PartitionUpdate u : answers) {
      out.add(new UpdateSource(u));
    }
    return out;
  }

  /**
   * What replica answer {@code have} lacks of the unfiltered merge {@code merged}: a newer
   * partition deletion, the range tombstones it does not have, and per row a newer row deletion,
   * marker or cell (tombstones included), as one update; null when it is up to date.
   */
  static PartitionUpdate repair(String keyspace, String table, PartitionUpdate merged, PartitionUpdate have) {
    PartitionUpdate.Builder b = PartitionUpdate.builder(keyspace, table, merged.key());
    boolean any = false;
    if (!merged.partitionDeletion().isLive() && !merged.partitionDeletion().equals(have.partitionDeletion())) {
      b.deletePartition(merged.partitionDeletion());
      any = true;
    }
    for (RangeTombstone rt : merged.rangeTombstones()) {
      boolean has = false;
      for (RangeTombstone h : have.rangeTombstones()) {
        has |= PartitionReader.compareRt(h, rt) == 0;
      }
      if (!has) {
        b.deleteRange(rt.slice(), rt.deletion());
        any = true;
      }
    }
    TreeMap<byte[], Row> theirs = new TreeMap<>(Bytes::compare);
    for (Row r : have.rows()) {
      theirs.merge(r.clustering(), r, Reconcile::row);
    }
    for (Row m : merged.rows()) {
      Row h = theirs.get(m.clustering());
      Row missing = missing(m, h);
      DeletionTime deletion = !m.deletion().isLive() && (h == null || !h.deletion().equals(m.deletion()))
          ? m.deletion() : DeletionTime.LIVE;
      if (missing != null || !deletion.isLive()) {
        b.row(new Row(m.clustering(), missing == null ? LivenessInfo.EMPTY : missing.liveness(), deletion,
            missing == null ? List.of() : missing.cells()));
        any = true;
      }
    }
    return any ? b.build() : null;
  }

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
