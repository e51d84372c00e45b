package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.sstable.SSTableReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction whose inputs are all purgeable tombstones writes no output; when a truncate
 * removes its inputs meanwhile, the compaction must give back only its own references. Giving
 * back the view's reference too (already given back by the truncate) lets a reader that still
 * holds one read unmapped memory.
 */
class CompactionTruncateRaceTest {
  @TempDir
  Path dir;

  @Test
  void truncateDuringACompactionWithNoOutputReleasesEachReferenceOnce() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      for (int attempt = 0; attempt < 12; attempt++) {
        Table t = e.createTable(new TableSpec("ks", "t" + attempt, UUID.randomUUID(),
            Map.of("class", "LZ4Compressor"), Map.of("class", "SizeTieredCompactionStrategy"), 0, 0.01, 0));
        long deletedAt = System.currentTimeMillis() / 1000 - 10; // past gc_grace 0: purgeable
        for (int f = 0; f < 2; f++) {
          for (int i = 0; i < 4000; i++) {
            t.apply(PartitionUpdate.builder("ks", "t" + attempt, ("k" + i).getBytes(StandardCharsets.UTF_8))
                .deletePartition(new DeletionTime(1, deletedAt)).build());
          }
          t.flush();
        }
        List<SSTableReader> inputs = ((LocalTable) t).view().sstables();
        assertThat(inputs).hasSize(2);
        for (SSTableReader r : inputs) {
          assertThat(r.tryRef()).isTrue(); // a reader that is still reading
        }
        CompletableFuture<Void> compaction = CompletableFuture.runAsync(t::compact);
        Thread.sleep(attempt % 4 * 5);
        t.truncate();
        compaction.get(30, TimeUnit.SECONDS);
        for (SSTableReader r : inputs) {
          assertThat(r.references()).as("references left to the reader, attempt " + attempt).isEqualTo(1);
          r.release();
        }
      }
    }
  }
}
