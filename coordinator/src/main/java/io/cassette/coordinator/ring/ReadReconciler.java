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
 * <p>Limit: a replica stops after the query's limit of rows live on it; when another replica's
 * deletions remove some of those, the merged answer can have fewer rows than the limit although
 * more exist. Single-partition reads then ask that replica for the rows after its last one
 * ({@link #after}, {@link #union}: short-read protection, in {@code ConsistentRead}); a range
 * scan reads such a partition again that way ({@code RingScan}).
 */
public final class ReadReconciler {
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
  public static PartitionView live(List<PartitionUpdate> answers, ReadQuery query) {
    return PartitionReader.read(DecoratedKey.of(answers.get(0).key()), sources(answers), query);
  }

  /** How many rows of one replica's answer are live by itself, without the query's limit. */
  static int liveRows(PartitionUpdate answer, ReadQuery query) {
    ReadQuery all = new ReadQuery(query.slices(), query.reversed(), Integer.MAX_VALUE, query.nowInSeconds());
    return PartitionReader.read(DecoratedKey.of(answer.key()), sources(List.of(answer)), all).rows().size();
  }

  /**
   * {@code query} for the rows beyond those of {@code page} in the query's order: after its last
   * row (before its first, reversed). Null when the page has no row to continue from, or
   * nothing of the query's slices is left beyond it.
   */
  static ReadQuery after(PartitionUpdate page, ReadQuery query) {
    byte[] edge = null;
    for (Row r : page.rows()) {
      if (r.clustering().length == 0) {
        continue; // the static row
      }
      if (edge == null || (query.reversed() ? Bytes.compare(r.clustering(), edge) < 0
          : Bytes.compare(r.clustering(), edge) > 0)) {
        edge = r.clustering();
      }
    }
    if (edge == null) {
      return null;
    }
    List<io.cassette.storage.Slice> rest = new ArrayList<>();
    for (io.cassette.storage.Slice s : query.slices()) {
      if (!query.reversed()) {
        if (s.end().length > 0 && !s.includes(edge) && Bytes.compare(s.end(), edge) < 0) {
          continue; // wholly before the edge
        }
        boolean startsAfter = s.start().length > 0 && !s.includes(edge) && Bytes.compare(s.start(), edge) > 0;
        rest.add(startsAfter ? s : new io.cassette.storage.Slice(edge, false, s.end(), s.endInclusive()));
      } else {
        if (s.start().length > 0 && !s.includes(edge) && Bytes.compare(s.start(), edge) > 0) {
          continue; // wholly after the edge
        }
        boolean endsBefore = s.end().length > 0 && !s.includes(edge) && Bytes.compare(s.end(), edge) < 0;
        rest.add(endsBefore ? s : new io.cassette.storage.Slice(s.start(), s.startInclusive(), edge, false));
      }
    }
    return rest.isEmpty() ? null : query.withSlices(rest);
  }

  /** One replica's two answers for one partition as one (rows merged by clustering, deletions kept). */
  static PartitionUpdate union(PartitionUpdate a, PartitionUpdate b) {
    DeletionTime pd = Reconcile.deletion(a.partitionDeletion(), b.partitionDeletion());
    List<RangeTombstone> rts = new ArrayList<>(a.rangeTombstones());
    for (RangeTombstone rt : b.rangeTombstones()) {
      boolean has = false;
      for (RangeTombstone h : rts) {
        has |= PartitionReader.compareRt(h, rt) == 0;
      }
      if (!has) {
        rts.add(rt);
      }
    }
    rts.sort(PartitionReader::compareRt);
    TreeMap<byte[], Row> rows = new TreeMap<>(Bytes::compare);
    for (Row r : a.rows()) {
      rows.merge(r.clustering(), r, Reconcile::row);
    }
    for (Row r : b.rows()) {
      rows.merge(r.clustering(), r, Reconcile::row);
    }
    return new PartitionUpdate(a.keyspace(), a.table(), a.key(), pd, rts, new ArrayList<>(rows.values()));
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
