package io.cassette.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A point read finds its Index.db entry through the summary, the block's sub-summary and the
 * in-chunk skip of entries below the key: every partition is found and no absent one is, over
 * dozens of summary blocks whose entries straddle 4 KiB index chunks, with keys of one- and
 * two-byte lengths and large partitions (entries with a row index) among them.
 */
class IndexWalkTest {
  @TempDir
  Path dir;

  static final int PARTITIONS = 4_000;
  static final int LARGE_ROWS = 250; // 250 x 100 B: past one 16 KiB row-index block

  static byte[] key(int i) {
    String k = i % 5 == 0 ? "long-" + i + "-" + "x".repeat(120 + i % 180) : "k" + i;
    return k.getBytes(StandardCharsets.US_ASCII);
  }

  static boolean large(int i) {
    return i % 37 == 3;
  }

  @Test
  void everyPartitionIsFoundAndNoAbsentOne() {
    // a Bloom filter that lets about half the absent keys through to the index walk
    TableSpec spec = new TableSpec("ks", "t", UUID.randomUUID(), Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "4"),
        Map.of("class", "SizeTieredCompactionStrategy"), 864000, 0.5, 0);
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec);
      for (int i = 0; i < PARTITIONS; i++) {
        PartitionUpdate.Builder b = PartitionUpdate.builder("ks", "t", key(i));
        b.row(Row.of(Bytes.EMPTY, List.of(Cell.live("s", ("v" + i).getBytes(StandardCharsets.US_ASCII), 1))));
        if (large(i)) {
          for (int r = 0; r < LARGE_ROWS; r++) {
            b.row(Row.of(ByteBuffer.allocate(4).putInt(r).array(), List.of(Cell.live("v", new byte[100], 1))));
          }
        }
        t.apply(b.build());
      }
      t.flush();
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < PARTITIONS; i++) {
        order.add(i);
      }
      Collections.shuffle(order, new java.util.Random(7)); // sub-summaries built in any order
      for (int pass = 0; pass < 2; pass++) { // building them, then using them
        int wrong = 0;
        for (int i : order) {
          PartitionView v = t.read(key(i), ReadQuery.all(0));
          boolean ok = v.staticRow() != null
              && new String(v.staticRow().cell("s").value(), StandardCharsets.US_ASCII).equals("v" + i)
              && v.rows().size() == (large(i) ? LARGE_ROWS : 0);
          if (!ok) {
            wrong++;
          }
        }
        assertThat(wrong).as("partitions not read back, pass " + pass).isZero();
        int found = 0;
        for (int i = 0; i < PARTITIONS; i++) {
          if (!t.read(("absent-" + i).getBytes(StandardCharsets.US_ASCII), ReadQuery.all(0)).isEmpty()) {
            found++;
          }
        }
        assertThat(found).as("absent partitions found, pass " + pass).isZero();
      }
    }
  }
}
