package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many partitions over many chunks and summary entries: flush, compact, restart, read all back. */
class LargeTableTest {
  @TempDir
  Path dir;

  static byte[] key(int i) {
    return ("t" + (i % 4) + "-" + i).getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void everyPartitionSurvivesFlushesCompactionsAndRestarts() {
    TableSpec spec = new TableSpec("ks", "big", UUID.randomUUID(), Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "4"),
        Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "2"), 864000, 0.01, 0);
    int n = 40_000;
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec);
      for (int i = 0; i < n; i++) {
        t.apply(PartitionUpdate.builder("ks", "big", key(i))
            .row(new Row(Bytes.EMPTY, LivenessInfo.of(i), DeletionTime.LIVE, List.of(Cell.live("v", ("value-" + i).getBytes(), i))))
            .build());
        if (i % 7000 == 6999) {
          t.flush();
        }
      }
      t.flush();
      t.compact();
      assertThat(t.metrics().sstableCount()).isEqualTo(1);
      int missing = 0;
      for (int i = 0; i < n; i++) {
        if (t.read(key(i), ReadQuery.all(0)).staticRow() == null) {
          missing++;
        }
      }
      assertThat(missing).as("missing after compaction").isZero();
      int scanned = 0;
      try (Table.CloseableIterator<PartitionView> it = t.scan(KeyRange.ALL, ReadQuery.all(0))) {
        while (it.hasNext()) {
          it.next();
          scanned++;
        }
      }
      assertThat(scanned).isEqualTo(n);
    }
  }
}
