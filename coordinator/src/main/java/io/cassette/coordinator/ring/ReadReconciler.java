package io.cassette.coordinator.ring;

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
import io.cassette.storage.partition.PartitionReader;
import io.cassette.storage.partition.Reconcile;
import io.cassette.storage.partition.UpdateSource;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Merges the answers of several replicas for one partition with storage's last-write-wins rules
 * ({@link Reconcile}, {@link PartitionReader}: by timestamp, cell by cell, deletions included),
 * and computes what a stale replica lacks (the read-repair mutation). Pure functions.
 *
 * <p>Replicas answer with unfiltered partitions ({@link PartitionUpdate}: partition deletion,
 * range tombstones, row deletions, tombstone and expired cells, as storage's
 * {@code Table.readUnfiltered} / {@code scanUnfiltered} give them). They are merged first
 * ({@link #mergeUnfiltered}), repairs computed from that, including the deletions a stale
 * replica missed ({@link #repair}), and only then filtered to the live view the client sees,
 * with its limit ({@link #live}), as Cassandra does. Single-partition reads and range scans
 * that ask several replicas both go this way.
 *
 * <p>Limit: no short-read protection. A replica stops after the query's limit of rows live on
 * it; when another replica's deletions remove some of those, the merged answer can have fewer
 * rows than the limit although more exist (Cassandra asks the replica for more).
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
