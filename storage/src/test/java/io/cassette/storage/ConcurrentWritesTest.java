package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers racing with memory-triggered flushes and background compactions lose nothing. */
class ConcurrentWritesTest {
  @TempDir
  Path dir;

  @Test
  void nothingLostWhileFlushingAndCompacting() throws Exception {
    EngineOptions d = EngineOptions.defaults(dir);
    EngineOptions o = new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), CommitLogSync.PERIODIC,
        Duration.ofMillis(50), 256 * 1024, 1 << 20, 512 * 1024, 0, 1);
    int perThread = Integer.getInteger("concurrent.perThread", 6000);
    try (Engine e = Engine.open(o)) {
      Table t = e.createTable(new TableSpec("ks", "crash", UUID.randomUUID(),
          Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "4"),
          Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "2"), 864000, 0.01, 0));
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int thread = w;
        Thread th = new Thread(() -> {
          for (long seq = 1; seq <= perThread; seq++) {
            t.apply(CrashChild.update(thread, seq));
          }
        });
        writers.add(th);
        th.start();
      }
      for (Thread th : writers) {
        th.join();
      }
      List<String> missing = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        for (long seq = 1; seq <= perThread; seq++) {
          if (t.read(CrashChild.key(w, seq), ReadQuery.all(0)).staticRow() == null) {
            missing.add(w + "/" + seq);
          }
        }
      }
      assertThat(missing).as("flushes %d compactions %d", e.metrics().flushes(), e.metrics().compactions()).isEmpty();
    }
  }
}
