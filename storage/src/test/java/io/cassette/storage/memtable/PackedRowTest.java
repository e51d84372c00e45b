package io.cassette.storage.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.partition.Reconcile;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Packed memtable rows decode to the rows written, and a memtable answers as the Row objects it replaced did. */
class PackedRowTest {
  private static final String[] COLUMNS = {"a", "b", "c", "v", "map", "x".repeat(300)};

  @Test
  void everyKindOfRowRoundTrips() {
    Random r = new Random(42);
    ColumnDictionary columns = new ColumnDictionary();
    for (int i = 0; i < 1_000; i++) {
      Row row = randomRow(r, bytes(r, r.nextInt(4)));
      byte[] packed = PackedRow.encode(row, columns, new long[1]);
      assertEquals(text(row), text(PackedRow.decode(row.clustering(), packed, columns)), "row " + i);
    }
  }

  @Test
  void mergingPackedRowsGivesTheBytesOfDecodeReconcileEncode() {
    Random r = new Random(11);
    ColumnDictionary columns = new ColumnDictionary();
    for (int i = 0; i < 2_000; i++) {
      // timestamps and values from small ranges, so every tie-break of Reconcile is taken
      Row a = randomRow(r, Bytes.EMPTY, i % 2 == 0 ? 3 : 1000);
      Row b = randomRow(r, Bytes.EMPTY, i % 2 == 0 ? 3 : 1000);
      byte[] old = PackedRow.encode(a, columns, new long[1]);
      byte[] expected = PackedRow.encode(Reconcile.row(PackedRow.decode(Bytes.EMPTY, old, columns), b), columns, new long[1]);
      byte[] merged = PackedRowMerger.merge(old, b, columns, new long[1]);
      int pair = i;
      assertArrayEquals(expected, merged, () -> "pair " + pair + ": " + a + " + " + b);
    }
  }

  @Test
  void aRepeatedWriteKeepsTheOldArray() {
    Random r = new Random(5);
    ColumnDictionary columns = new ColumnDictionary();
    for (int i = 0; i < 200; i++) {
      Row a = randomRow(r, Bytes.EMPTY);
      byte[] old = PackedRow.encode(a, columns, new long[1]);
      assertSame(old, PackedRowMerger.merge(old, a, columns, new long[1]), "row " + i);
    }
  }

  @Test
  void memtableKeepsReconciledRowsInClusteringOrder() {
    Random r = new Random(7);
    Memtable m = new Memtable();
    byte[] key = {1, 2, 3};
    DecoratedKey dk = DecoratedKey.of(key);
    java.util.TreeMap<byte[], Row> model = new java.util.TreeMap<>(Bytes::compare);
    long counted = 0;
    for (int i = 0; i < 400; i++) {
      // few clusterings, so rows merge often; the first ones stay single-row for a while
      Row row = randomRow(r, i < 20 ? Bytes.EMPTY : new byte[] {(byte) r.nextInt(12)});
      counted += m.apply(dk, PartitionUpdate.builder("ks", "t", key).row(row).build());
      model.merge(row.clustering(), sorted(row), Reconcile::row);
      List<List<Object>> expected = new ArrayList<>();
      model.values().forEach(x -> expected.add(text(x)));
      List<List<Object>> actual = new ArrayList<>();
      for (Iterator<Row> it = m.get(dk).rows(Bytes.EMPTY); it.hasNext(); ) {
        actual.add(text(it.next()));
      }
      assertEquals(expected, actual, "after write " + i);
    }
    assertEquals(counted, m.liveBytes());
    assertTrue(m.liveBytes() > 0);
  }

  /** Row's equals compares clustering arrays by reference; this compares them by content. */
  private static List<Object> text(Row row) {
    return List.of(Bytes.hex(row.clustering()), row.liveness(), row.deletion(), row.cells());
  }

  private static Row sorted(Row row) {
    return new Row(row.clustering(), row.liveness(), row.deletion(), Reconcile.sortCells(row.cells()));
  }

  static Row randomRow(Random r, byte[] clustering) {
    return randomRow(r, clustering, 1000);
  }

  /** {@code spread}: how many distinct timestamps (and, when small, values) a row draws from. */
  private static Row randomRow(Random r, byte[] clustering, int spread) {
    long ts = 1_700_000_000_000_000L + r.nextInt(spread);
    LivenessInfo liveness = switch (r.nextInt(3)) {
      case 0 -> LivenessInfo.EMPTY;
      case 1 -> new LivenessInfo(ts, 0, Long.MAX_VALUE);
      default -> LivenessInfo.expiring(ts, 1 + r.nextInt(100_000), 1_700_000_000L);
    };
    DeletionTime deletion = r.nextInt(5) == 0 ? new DeletionTime(ts - 1, 1_700_000_000L) : DeletionTime.LIVE;
    List<Cell> cells = new ArrayList<>();
    for (String column : COLUMNS) {
      int kind = r.nextInt(6);
      if (kind == 0) {
        continue;
      }
      long cts = r.nextBoolean() ? ts : ts + r.nextInt(spread < 50 ? spread : 50);
      Cell c = switch (kind) {
        case 1 -> Cell.tombstone(column, cts, 1_700_000_000L);
        case 2 -> Cell.expiring(column, value(r, spread, 200), cts, 1 + r.nextInt(spread < 50 ? spread : 1 << 20),
            1_700_000_000L);
        default -> Cell.live(column, value(r, spread, r.nextInt(50) == 0 ? 70_000 : 40), cts);
      };
      if (column.equals("map")) {
        for (int e = 0; e < 3; e++) {
          cells.add(c.withPath(spread < 50 ? new byte[] {(byte) r.nextInt(5)} : bytes(r, 1 + r.nextInt(300))));
        }
      } else {
        cells.add(c);
      }
    }
    return new Row(clustering, liveness, deletion, Reconcile.sortCells(cells));
  }

  /** A random value, or with a small spread one of a few short ones (equal values tie). */
  private static byte[] value(Random r, int spread, int maxLength) {
    return spread < 50 ? new byte[] {(byte) r.nextInt(spread)} : bytes(r, r.nextInt(maxLength));
  }

  private static byte[] bytes(Random r, int length) {
    byte[] b = new byte[length];
    r.nextBytes(b);
    return b;
  }
}
