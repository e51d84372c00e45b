package io.cassette.storage;

import static io.cassette.storage.EngineOperationsTest.put;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When a periodic-mode write reaches the commit log's file (the OS: what a process crash keeps):
 * at once, or, in a thread's {@link AckBatch}, when the batch is flushed (before the door's
 * replies) or closed. The sync period is long here, so only those writes can move the file.
 */
class AckBatchTest {
  @TempDir
  Path dir;

  private Engine open() {
    EngineOptions d = EngineOptions.defaults(dir);
    return Engine.open(new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), CommitLogSync.PERIODIC,
        Duration.ofSeconds(60), d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), d.memtableBudgetBytes(), 0, 1));
  }

  private long logBytes() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("commitlog"))) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log")).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  @Test
  void aWriteOutsideABatchIsInTheFileWhenItReturns() throws Exception {
    try (Engine e = open()) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      long before = logBytes();
      t.apply(put("k0", 100));
      assertThat(logBytes()).as("commit log bytes after an acknowledged write").isGreaterThan(before + 100);
    }
  }

  @Test
  void writesOfABatchReachTheFileTogetherWhenItIsFlushed() throws Exception {
    try (Engine e = open()) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      long before = logBytes();
      AckBatch.open();
      try {
        for (int i = 0; i < 16; i++) {
          t.apply(put("k" + i, 100));
        }
        assertThat(logBytes()).as("before the batch's replies").isEqualTo(before);
        AckBatch.flush();
        long flushed = logBytes();
        assertThat(flushed).as("after the flush").isGreaterThan(before + 16 * 100);
        t.apply(put("k16", 100));
        assertThat(logBytes()).isEqualTo(flushed);
      } finally {
        AckBatch.close();
      }
      long closed = logBytes();
      assertThat(closed).as("after the batch closed").isGreaterThan(before + 17 * 100);
      t.apply(put("k17", 100));
      assertThat(logBytes()).as("a write after the batch").isGreaterThan(closed + 100);
    }
  }
}
