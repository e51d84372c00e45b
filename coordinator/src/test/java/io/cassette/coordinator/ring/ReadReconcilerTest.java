package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.Cell;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging replicas' answers by timestamp and what a stale replica is sent back. */
class ReadReconcilerTest {
  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Row row(String c, long markerTs, Cell... cells) {
    return new Row(b(c), markerTs < 0 ? LivenessInfo.EMPTY : LivenessInfo.of(markerTs),
        io.cassette.storage.DeletionTime.LIVE, List.of(cells));
  }

  static PartitionUpdate update(Row... rows) {
    PartitionUpdate.Builder u = PartitionUpdate.builder("ks", "t", b("k"));
    for (Row r : rows) {
      u.row(r);
    }
    return u.build();
  }

  @Test
  void newestCellWinsAndRowsUnite() {
    PartitionUpdate a = update(
        row("a", 1, Cell.live("x", b("old"), 1), Cell.live("y", b("y1"), 5)),
        row("c", 1, Cell.live("x", b("c"), 1)));
    PartitionUpdate bView = update(
        row("a", 1, Cell.live("x", b("new"), 2)),
        row("b", 2, Cell.live("x", b("b"), 2)));
    PartitionUpdate merged = ReadReconciler.mergeUnfiltered("ks", "t", List.of(a, bView), ReadQuery.all(0));
    assertThat(merged.rows()).extracting(r -> new String(r.clustering(), StandardCharsets.UTF_8))
        .containsExactly("a", "b", "c");
    assertThat(merged.rows().get(0).cell("x").value()).isEqualTo(b("new"));
    assertThat(merged.rows().get(0).cell("y").value()).isEqualTo(b("y1"));

    // What each replica lacks: a the newer a.x and row b; b the cell a.y and row c.
    PartitionUpdate forA = ReadReconciler.repair("ks", "t", merged, a);
    assertThat(forA.rows()).hasSize(2);
    assertThat(forA.rows().get(0).cells()).extracting(Cell::column).containsExactly("x");
    assertThat(forA.rows().get(0).liveness().isEmpty()).isTrue(); // the marker was already there
    PartitionUpdate forB = ReadReconciler.repair("ks", "t", merged, bView);
    assertThat(forB.rows()).extracting(r -> new String(r.clustering(), StandardCharsets.UTF_8))
        .containsExactly("a", "c");
    assertThat(forB.rows().get(0).cells()).extracting(Cell::column).containsExactly("y");
    assertThat(ReadReconciler.repair("ks", "t", merged, merged)).isNull();
    assertThat(ReadReconciler.repair("ks", "t", merged, update()).rows()).hasSize(3);
  }

  @Test
  void limitAndReverseOrderAreKept() {
    PartitionUpdate a = update(row("a", 1), row("c", 1));
    PartitionUpdate bView = update(row("b", 1), row("d", 1));
    ReadQuery firstTwoReversed = new ReadQuery(ReadQuery.all(0).slices(), true, 2, 0);
    PartitionView merged = ReadReconciler.live(List.of(a, bView), firstTwoReversed);
    assertThat(merged.rows()).extracting(r -> new String(r.clustering(), StandardCharsets.UTF_8))
        .containsExactly("d", "c");
  }

  @Test
  void unfilteredAnswersLetDeletionsWinThenTheLimitApplies() {
    io.cassette.storage.DeletionTime at5 = new io.cassette.storage.DeletionTime(5, 100);
    // Fresh: row a deleted, range [b, c] deleted, d live. Stale: a, b, c and d live, older.
    PartitionUpdate fresh = PartitionUpdate.builder("ks", "t", b("k"))
        .row(new Row(b("a"), LivenessInfo.EMPTY, at5, List.of()))
        .deleteRange(new io.cassette.storage.Slice(b("b"), true, b("c"), true), at5)
        .row(row("d", 1, Cell.live("x", b("d"), 1)))
        .build();
    PartitionUpdate stale = PartitionUpdate.builder("ks", "t", b("k"))
        .row(row("a", 1, Cell.live("x", b("a"), 1)))
        .row(row("b", 1, Cell.live("x", b("b"), 1)))
        .row(row("c", 1, Cell.live("x", b("c"), 1)))
        .row(row("d", 1, Cell.live("x", b("d"), 1)))
        .build();
    ReadQuery firstOne = new ReadQuery(ReadQuery.all(0).slices(), false, 1, 0);
    PartitionView live = ReadReconciler.live(List.of(stale, fresh), firstOne);
    assertThat(live.rows()).extracting(r -> new String(r.clustering(), StandardCharsets.UTF_8)).containsExactly("d");

    PartitionUpdate merged = ReadReconciler.mergeUnfiltered("ks", "t", List.of(stale, fresh), ReadQuery.all(0));
    PartitionUpdate forStale = ReadReconciler.repair("ks", "t", merged, stale);
    assertThat(forStale.rangeTombstones()).hasSize(1);
    assertThat(forStale.rows()).hasSize(1); // the row deletion of a; d is the same on both
    assertThat(forStale.rows().get(0).deletion()).isEqualTo(at5);
    assertThat(ReadReconciler.repair("ks", "t", merged, fresh)).isNull();

    PartitionUpdate wholeGone = PartitionUpdate.builder("ks", "t", b("k"))
        .deletePartition(new io.cassette.storage.DeletionTime(9, 100)).build();
    merged = ReadReconciler.mergeUnfiltered("ks", "t", List.of(stale, fresh, wholeGone), ReadQuery.all(0));
    assertThat(merged.rows()).isEmpty();
    assertThat(merged.rangeTombstones()).isEmpty();
    assertThat(ReadReconciler.repair("ks", "t", merged, fresh).partitionDeletion().markedForDeleteAt()).isEqualTo(9);
    assertThat(ReadReconciler.live(List.of(stale, fresh, wholeGone), ReadQuery.all(0)).isEmpty()).isTrue();
  }
}
