package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read's byte limit ends it after the row that reaches it, in a memtable and in an SSTable,
 * forward and reversed: a pager asking for 8 rows of a partition of 1 MiB rows gets one or two,
 * not 8 MiB (a 64 MiB node ran out of heap on such a read).
 */
class ReadByteLimitTest {
  @TempDir
  Path dir;

  static final int ROW_BYTES = 100_000;

  static byte[] ck(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  @Test
  void aReadStopsAfterTheRowThatReachesItsByteLimit() {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      byte[] pk = "big".getBytes();
      for (int i = 0; i < 10; i++) {
        t.apply(PartitionUpdate.builder("ks", "t", pk)
            .row(Row.of(ck(i), List.of(Cell.live("v", new byte[ROW_BYTES], 1)))).build());
      }
      for (boolean flushed : new boolean[] {false, true}) {
        if (flushed) {
          t.flush();
        }
        // 2.5 rows' worth: the third row reaches it, and ends the read
        ReadQuery q = new ReadQuery(List.of(Slice.ALL), false, 8, 0, ROW_BYTES * 5L / 2);
        PartitionView pv = t.read(pk, q);
        assertThat(pv.rows()).as("flushed: " + flushed).hasSize(3);
        assertThat(q.mayHaveMore(pv.rows())).isTrue();

        PartitionView back = t.read(pk, new ReadQuery(List.of(Slice.ALL), true, 8, 0, ROW_BYTES * 5L / 2));
        assertThat(back.rows()).hasSize(3);
        assertThat(ByteBuffer.wrap(back.rows().get(0).clustering()).getInt()).isEqualTo(9);

        // a limit smaller than one row still returns that row
        assertThat(t.read(pk, new ReadQuery(List.of(Slice.ALL), false, 8, 0, 1)).rows()).hasSize(1);

        // the last rows of the partition: fewer than both limits, nothing more to read
        ReadQuery tail = q.withSlices(List.of(new Slice(ck(8), true, Bytes.EMPTY, true)));
        PartitionView end = t.read(pk, tail);
        assertThat(end.rows()).hasSize(2);
        assertThat(tail.mayHaveMore(end.rows())).isFalse();

        // without a byte limit, the row limit alone
        assertThat(t.read(pk, new ReadQuery(List.of(Slice.ALL), false, 8, 0)).rows()).hasSize(8);
      }
    }
  }
}
