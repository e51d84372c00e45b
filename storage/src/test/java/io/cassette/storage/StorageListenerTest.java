package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageListenerTest {
  @TempDir Path dir;

  @Test
  void listenerHearsOfFsyncsFlushesAndCompactionsWithTheirSizes() {
    List<String> heard = new CopyOnWriteArrayList<>();
    EngineOptions batch = new EngineOptions(dir.resolve("data"), dir.resolve("commitlog"),
        CommitLogSync.BATCH, java.time.Duration.ofSeconds(10), 1 << 20, 1 << 20, 8 << 20, 0, 1);
    try (Engine engine = Engine.open(batch)) {
      engine.listen(new StorageListener() {
        @Override
        public void commitLogSynced(long micros, String segment) {
          heard.add("sync " + segment);
        }

        @Override
        public void memtableFlushed(String table, long micros, long bytes) {
          heard.add("flush " + table + " " + (bytes > 0));
        }

        @Override
        public void compacted(String table, long micros, long bytesRead, long bytesWritten) {
          heard.add("compact " + table + " " + (bytesRead > bytesWritten) + " " + (bytesWritten > 0));
        }
      });
      Table t = engine.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      long now = System.currentTimeMillis() / 1000;
      for (int round = 0; round < 2; round++) {
        // the same keys twice, so compaction merges them into less than it read
        for (int k = 0; k < 50; k++) {
          t.apply(PartitionUpdate.builder("ks", "t", new byte[] {(byte) k})
              .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", new byte[] {(byte) round}, round * 10L + 1))))
              .build());
        }
        t.flush();
      }
      t.compact();
    }
    assertThat(heard).anyMatch(h -> h.matches("sync .+"));
    assertThat(heard).filteredOn(h -> h.startsWith("flush")).contains("flush ks.t true");
    assertThat(heard).contains("compact ks.t true true");
  }
}
