package io.cassette.storage;

import static io.cassette.storage.EngineBasicsTest.b;
import static io.cassette.storage.EngineBasicsTest.now;
import static io.cassette.storage.EngineBasicsTest.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.partition.PartitionReader;
import io.cassette.storage.partition.UpdateSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Table#readUnfiltered}: the deletions a replica must send so that they win the merge. */
class UnfilteredReadTest {
  @TempDir
  Path dir;

  private static List<String> clusterings(PartitionUpdate u) {
    List<String> out = new ArrayList<>();
    for (Row r : u.rows()) {
      out.add(new String(r.clustering()) + (r.deletion().isLive() ? "" : "(deleted@" + r.deletion().markedForDeleteAt() + ")")
          + r.cells().size());
    }
    return out;
  }

  @Test
  void keepsPartitionRangeRowAndCellTombstonesAcrossMemtableAndSstable() {
    long now = now();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (String ck : List.of("a", "b", "c", "d", "e")) {
        t.apply(put("p", ck, "v", ck, 10));
      }
      t.flush(); // tombstones in the memtable, data in the SSTable: the read merges both
      t.apply(PartitionUpdate.builder("ks", "t", b("p"))
          .row(new Row(b("a"), LivenessInfo.EMPTY, new DeletionTime(20, now), List.of())).build());
      t.apply(PartitionUpdate.builder("ks", "t", b("p"))
          .deleteRange(new Slice(b("c"), true, b("d"), true), new DeletionTime(20, now)).build());
      t.apply(PartitionUpdate.builder("ks", "t", b("p"))
          .row(Row.of(b("e"), List.of(Cell.tombstone("v", 20, now)))).build());

      assertThat(EngineBasicsTest.values(t.read(b("p"), ReadQuery.all(now)), "v")).containsExactly("b=b", "e=null");
      PartitionUpdate u = t.readUnfiltered(b("p"), ReadQuery.all(now));
      assertThat(u.partitionDeletion().isLive()).isTrue();
      assertThat(u.rangeTombstones()).hasSize(1);
      // a: its deletion, the shadowed data dropped; b: live; c, d: shadowed by the range
      // tombstone, which stands for them; e: the marker (10) and the cell tombstone (20)
      assertThat(clusterings(u)).containsExactly("a(deleted@20)0", "b1", "e1");
      assertThat(u.rows().get(2).cells().get(0).isTombstone()).isTrue();

      // The limit counts live rows: the deleted row a comes with the first live one.
      ReadQuery one = new ReadQuery(List.of(Slice.ALL), false, 1, now);
      assertThat(clusterings(t.readUnfiltered(b("p"), one))).containsExactly("a(deleted@20)0", "b1");
      ReadQuery lastOne = new ReadQuery(List.of(Slice.ALL), true, 1, now);
      assertThat(clusterings(t.readUnfiltered(b("p"), lastOne))).containsExactly("e1");

      // Merged with a stale copy that still has every row, the deletions win.
      PartitionUpdate stale = PartitionUpdate.builder("ks", "t", b("p"))
          .row(new Row(b("a"), LivenessInfo.of(10), DeletionTime.LIVE, List.of(Cell.live("v", b("a"), 10))))
          .row(new Row(b("c"), LivenessInfo.of(10), DeletionTime.LIVE, List.of(Cell.live("v", b("c"), 10))))
          .build();
      PartitionView merged = PartitionReader.read(DecoratedKey.of(b("p")),
          List.of(new UpdateSource(u), new UpdateSource(stale)), ReadQuery.all(now));
      assertThat(EngineBasicsTest.values(merged, "v")).containsExactly("b=b", "e=null");

      // A partition deletion shadows everything older; it alone is sent.
      t.apply(PartitionUpdate.builder("ks", "t", b("p")).deletePartition(new DeletionTime(30, now)).build());
      PartitionUpdate gone = t.readUnfiltered(b("p"), ReadQuery.all(now));
      assertThat(gone.partitionDeletion().markedForDeleteAt()).isEqualTo(30);
      assertThat(gone.rangeTombstones()).isEmpty();
      assertThat(gone.rows()).isEmpty();
    }
  }

  @Test
  void keepsExpiredCells() {
    long now = now();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(PartitionUpdate.builder("ks", "t", b("p"))
          .row(Row.of(b("a"), List.of(Cell.expiring("v", b("x"), 10, 5, now - 10)))).build());
      assertThat(t.read(b("p"), ReadQuery.all(now)).isEmpty()).isTrue();
      PartitionUpdate u = t.readUnfiltered(b("p"), ReadQuery.all(now));
      assertThat(u.rows()).hasSize(1);
      assertThat(u.rows().get(0).cells().get(0).isExpiring()).isTrue();
    }
  }

  @Test
  void scanUnfilteredKeepsPartitionsThatHoldOnlyTombstones() {
    long now = now();
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("live", "a", "v", "1", 10));
      t.apply(PartitionUpdate.builder("ks", "t", b("gone")).deletePartition(new DeletionTime(20, now)).build());
      int live = 0;
      try (Table.CloseableIterator<PartitionView> it = t.scan(KeyRange.ALL, ReadQuery.all(now))) {
        while (it.hasNext()) {
          it.next();
          live++;
        }
      }
      List<String> keys = new ArrayList<>();
      try (Table.CloseableIterator<PartitionUpdate> it = t.scanUnfiltered(KeyRange.ALL, ReadQuery.all(now))) {
        while (it.hasNext()) {
          keys.add(new String(it.next().key()));
        }
      }
      assertThat(live).isEqualTo(1);
      assertThat(keys).containsExactlyInAnyOrder("live", "gone");
    }
  }
}
