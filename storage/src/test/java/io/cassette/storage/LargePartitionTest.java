package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Slices of a partition far larger than a row-index block read only the blocks they need. */
class LargePartitionTest {
  @TempDir
  Path dir;

  static final int ROWS = 6000;

  static byte[] ck(int i) {
    return ByteBuffer.allocate(4).putInt(i * 2).array(); // even numbers: odd bounds fall between rows
  }

  static int ckValue(byte[] c) {
    return ByteBuffer.wrap(c).getInt() / 2;
  }

  @Test
  void slicesOfALargePartitionInAnSSTable() {
    Random random = new Random(7);
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      byte[] pk = "big".getBytes();
      PartitionUpdate.Builder b = PartitionUpdate.builder("ks", "t", pk);
      b.row(Row.of(Bytes.EMPTY, List.of(Cell.live("s", "static".getBytes(), 1))));
      for (int i = 0; i < ROWS; i++) {
        byte[] v = new byte[100];
        random.nextBytes(v);
        b.row(Row.of(ck(i), List.of(Cell.live("v", v, 1))));
      }
      t.apply(b.build());
      t.apply(PartitionUpdate.builder("ks", "t", pk)
          .deleteRange(new Slice(ck(100), true, ck(199), true), new DeletionTime(2, 0)).build());
      t.flush();
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      byte[] pk = "big".getBytes();
      long missesBefore = e.metrics().chunkCacheMisses();
      PartitionView last = t.read(pk, ReadQuery.row(ck(ROWS - 1), 0));
      assertThat(last.rows()).hasSize(1);
      assertThat(ckValue(last.rows().get(0).clustering())).isEqualTo(ROWS - 1);
      assertThat(last.staticRow().cell("s").value()).isEqualTo("static".getBytes());
      // index chunk + first data chunk (static row) + the block's chunks; not the ~40 chunks of the partition
      assertThat(e.metrics().chunkCacheMisses() - missesBefore).isLessThan(8);

      missesBefore = e.metrics().chunkCacheMisses();
      PartitionView newest = t.read(pk, new ReadQuery(List.of(Slice.ALL), true, 1, 0));
      assertThat(newest.rows()).hasSize(1);
      assertThat(ckValue(newest.rows().get(0).clustering())).isEqualTo(ROWS - 1);
      assertThat(newest.staticRow()).isNotNull();
      // reversed with a limit reads the last block, not the whole partition
      assertThat(e.metrics().chunkCacheMisses() - missesBefore).isLessThan(8);

      for (int trial = 0; trial < 200; trial++) {
        int from = random.nextInt(ROWS);
        int to = from + random.nextInt(300);
        boolean reversed = random.nextBoolean();
        int limit = 1 + random.nextInt(50);
        byte[] start = random.nextBoolean() ? ck(from) : ByteBuffer.allocate(4).putInt(from * 2 - 1).array();
        ReadQuery q = new ReadQuery(List.of(new Slice(start, true, ck(to), true)), reversed, limit, 0);
        List<Integer> want = new ArrayList<>();
        for (int i = from; i <= Math.min(to, ROWS - 1); i++) {
          if (i < 100 || i > 199) {
            want.add(i);
          }
        }
        if (reversed) {
          java.util.Collections.reverse(want);
        }
        want = want.subList(0, Math.min(limit, want.size()));
        List<Integer> got = new ArrayList<>();
        for (Row r : t.read(pk, q).rows()) {
          got.add(ckValue(r.clustering()));
        }
        assertThat(got).as("slice [%d, %d] reversed %s limit %d", from, to, reversed, limit).isEqualTo(want);
      }
    }
  }
}
