package io.cassette.cql.language.views;

import io.cassette.coordinator.view.ViewUpdates;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.statements.KeyCodec;
import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.partition.Reconcile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The views of one base table and how a base write changes them, as Cassandra's
 * ViewUpdateGenerator does it: for each base row the write touches, the row before and after
 * (as reads would see them), each mapped to its view row; a view row whose key changed or whose
 * base row is gone is deleted, the current one is written whole (cells keep their base
 * timestamps and TTLs, so writing it again is harmless).
 *
 * <p>A view row's key is the base primary key plus at most one base regular column ("the view
 * column"). Its row marker: the base row's, or, with a view column, the newer of the base row's
 * marker and the view column's cell, expiring with that cell. Deleting a view row uses the
 * newest timestamp of what the row held, so it removes exactly that row; a row re-created later
 * under the same key is written above that deletion by the view replica ({@code ViewRowRestamp}).
 */
final class ViewMapping implements ViewUpdates {
  /** One view of the base table, compiled. */
  record View(TableMetadata table, String viewColumn, List<ViewFilter> filters) {}

  private final TableMetadata base;
  private final List<View> views;

  ViewMapping(TableMetadata base, List<View> views) {
    this.base = base;
    this.views = List.copyOf(views);
  }

  @Override
  public ReadQuery readBefore(PartitionUpdate update, long nowInSeconds) {
    if (!update.partitionDeletion().isLive() || !update.rangeTombstones().isEmpty() || base.clustering.isEmpty()) {
      return ReadQuery.all(nowInSeconds);
    }
    List<Slice> slices = new ArrayList<>(update.rows().size());
    for (Row r : update.rows()) {
      if (r.clustering().length > 0) {
        slices.add(Slice.prefix(r.clustering()));
      }
    }
    if (slices.isEmpty()) {
      return ReadQuery.all(nowInSeconds);
    }
    slices.sort((a, b) -> Bytes.compare(a.start(), b.start()));
    return new ReadQuery(slices, false, Integer.MAX_VALUE, nowInSeconds);
  }

  @Override
  public List<PartitionUpdate> compute(PartitionUpdate update, PartitionUpdate before, long now) {
    boolean wide = !update.partitionDeletion().isLive() || !update.rangeTombstones().isEmpty();
    // Base rows the write touches: its own rows, and every existing row when it deletes ranges.
    Map<ByteBuffer, Row[]> rows = new LinkedHashMap<>();
    for (Row r : update.rows()) {
      if (isBaseRow(r)) {
        rows.computeIfAbsent(ByteBuffer.wrap(r.clustering()), k -> new Row[2])[1] = r;
      }
    }
    if (before != null) {
      for (Row r : before.rows()) {
        if (!isBaseRow(r)) {
          continue;
        }
        Row[] pair = rows.get(ByteBuffer.wrap(r.clustering()));
        if (pair != null) {
          pair[0] = r;
        } else if (wide) {
          rows.put(ByteBuffer.wrap(r.clustering()), new Row[] {r, null});
        }
      }
    }
    if (rows.isEmpty()) {
      return List.of();
    }
    DeletionTime beforePartition = before == null ? DeletionTime.LIVE : before.partitionDeletion();
    List<byte[]> partitionValues = KeyCodec.splitPartitionKey(base, update.key());
    Map<String, Map<ByteBuffer, ViewPartition>> out = new LinkedHashMap<>();
    for (Row[] pair : rows.values()) {
      byte[] clustering = pair[0] != null ? pair[0].clustering() : pair[1].clustering();
      DeletionTime coveredBefore = before == null ? beforePartition
          : Reconcile.covering(before.rangeTombstones(), clustering).supersedes(beforePartition);
      DeletionTime coveredAfter = coveredBefore.supersedes(update.partitionDeletion())
          .supersedes(Reconcile.covering(update.rangeTombstones(), clustering));
      LiveRow old = LiveRow.of(pair[0], coveredBefore, now);
      LiveRow neu = LiveRow.of(Reconcile.row(pair[0], pair[1]), coveredAfter, now);
      if (!old.exists() && !neu.exists()) {
        continue;
      }
      List<byte[]> key = new ArrayList<>(partitionValues);
      if (!base.clustering.isEmpty()) {
        key.addAll(KeyCodec.splitClustering(base, clustering));
      }
      for (View v : views) {
        apply(v, key, old, neu, now, out);
      }
    }
    List<PartitionUpdate> updates = new ArrayList<>();
    for (Map<ByteBuffer, ViewPartition> byKey : out.values()) {
      for (ViewPartition p : byKey.values()) {
        p.rows().sort((a, b) -> Bytes.compare(a.clustering(), b.clustering()));
        updates.add(new PartitionUpdate(p.table().keyspace, p.table().name, p.key(), DeletionTime.LIVE, List.of(), p.rows()));
      }
    }
    return updates;
  }

  /** A clustering row of the base (or its only row when it has no clustering columns); not the static row. */
  private boolean isBaseRow(Row r) {
    return base.clustering.isEmpty() ? r.clustering().length == 0 : r.clustering().length > 0;
  }

  private void apply(View v, List<byte[]> baseKey, LiveRow old, LiveRow neu, long now,
                     Map<String, Map<ByteBuffer, ViewPartition>> out) {
    for (ViewFilter f : v.filters()) {
      if (!f.accepts(baseKey)) {
        return; // the key never changes, so the row is never in this view
      }
    }
    ViewKey oldKey = viewKey(v, baseKey, old);
    ViewKey newKey = viewKey(v, baseKey, neu);
    if (oldKey != null && !oldKey.equals(newKey)) {
      // The view row moved (its view column changed) or the base row is gone: delete what it held.
      long at = old.maxTimestamp();
      Cell vc = v.viewColumn() == null ? null : old.cell(v.viewColumn());
      if (vc != null) {
        at = Math.max(at, vc.timestamp());
      }
      rows(v, oldKey, out).add(new Row(oldKey.clustering(), LivenessInfo.EMPTY, new DeletionTime(at, now), List.of()));
    }
    if (newKey == null) {
      return;
    }
    List<Cell> cells = new ArrayList<>();
    for (Cell c : neu.cells()) {
      ColumnMetadata col = v.table().column(c.column());
      if (col != null && col.kind() != ColumnMetadata.Kind.PARTITION_KEY && col.kind() != ColumnMetadata.Kind.CLUSTERING) {
        cells.add(c);
      }
    }
    if (newKey.equals(oldKey)) {
      // Same view row: cells the write removed are removed there too, at their own timestamps.
      for (Cell c : old.cells()) {
        ColumnMetadata col = v.table().column(c.column());
        if (col == null || col.kind() == ColumnMetadata.Kind.PARTITION_KEY || col.kind() == ColumnMetadata.Kind.CLUSTERING) {
          continue;
        }
        if (!containsIdentity(neu.cells(), c)) {
          cells.add(new Cell(c.column(), c.path(), null, c.timestamp(), 0, now));
        }
      }
      cells = Reconcile.sortCells(cells);
    }
    rows(v, newKey, out).add(new Row(newKey.clustering(), viewLiveness(v, neu), DeletionTime.LIVE, cells));
  }

  private static boolean containsIdentity(List<Cell> cells, Cell c) {
    for (Cell x : cells) {
      if (Reconcile.compareCellIdentity(x, c) == 0) {
        return true;
      }
    }
    return false;
  }

  /** The view row's marker: the base row's, or with a view column the newer of it and that cell (expiring with the cell). */
  private static LivenessInfo viewLiveness(View v, LiveRow row) {
    if (v.viewColumn() == null) {
      return row.liveness();
    }
    Cell c = row.cell(v.viewColumn());
    long ts = Math.max(row.liveness().timestamp(), c.timestamp());
    if (c.isExpiring()) {
      return new LivenessInfo(ts, c.ttl(), c.localDeletionTime());
    }
    if (!row.liveness().isEmpty() && row.liveness().ttl() > 0) {
      return new LivenessInfo(ts, row.liveness().ttl(), row.liveness().localExpirationTime());
    }
    return LivenessInfo.of(ts);
  }

  /** The view row key of a base row, or null when the row is not in the view. */
  private ViewKey viewKey(View v, List<byte[]> baseKey, LiveRow row) {
    if (!row.exists()) {
      return null;
    }
    byte[] viewValue = null;
    if (v.viewColumn() != null) {
      Cell c = row.cell(v.viewColumn());
      if (c == null) {
        return null;
      }
      viewValue = c.value();
    }
    TableMetadata t = v.table();
    List<byte[]> pk = new ArrayList<>(t.partitionKey.size());
    for (ColumnMetadata c : t.partitionKey) {
      pk.add(valueOf(c.name(), baseKey, v.viewColumn(), viewValue));
    }
    List<byte[]> ck = new ArrayList<>(t.clustering.size());
    for (ColumnMetadata c : t.clustering) {
      ck.add(valueOf(c.name(), baseKey, v.viewColumn(), viewValue));
    }
    return new ViewKey(KeyCodec.partitionKey(t, pk), t.clustering.isEmpty() ? Bytes.EMPTY : KeyCodec.clustering(t, ck));
  }

  private byte[] valueOf(String column, List<byte[]> baseKey, String viewColumn, byte[] viewValue) {
    if (column.equals(viewColumn)) {
      return viewValue;
    }
    ColumnMetadata c = base.column(column);
    int i = c.kind() == ColumnMetadata.Kind.PARTITION_KEY ? c.position() : base.partitionKey.size() + c.position();
    return baseKey.get(i);
  }

  private static List<Row> rows(View v, ViewKey key, Map<String, Map<ByteBuffer, ViewPartition>> out) {
    return out.computeIfAbsent(v.table().name, n -> new LinkedHashMap<>())
        .computeIfAbsent(ByteBuffer.wrap(key.partition()), k -> new ViewPartition(v.table(), key.partition(), new ArrayList<>()))
        .rows();
  }

  /** The rows one base write gives one view partition (sorted by clustering before they are sent). */
  private record ViewPartition(TableMetadata table, byte[] key, List<Row> rows) {}

  /** A view row's partition key and clustering, compared by content. */
  private record ViewKey(byte[] partition, byte[] clustering) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ViewKey k && java.util.Arrays.equals(partition, k.partition)
          && java.util.Arrays.equals(clustering, k.clustering);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(partition) * 31 + java.util.Arrays.hashCode(clustering);
    }
  }
}
