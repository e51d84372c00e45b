package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's metrics show the key cache as Cassandra's system_views.caches "keys" row needs
 * it: a first round of point reads misses and fills it, a second round hits. The cache is one
 * per JVM, so the test looks at differences.
 */
class KeyCacheMetricsTest {
  @TempDir
  Path dir;

  @Test
  void pointReadsShowAsKeyCacheMissesThenHits() {
    int n = 200;
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (int i = 0; i < n; i++) {
        t.apply(PartitionUpdate.builder("ks", "t", key(i))
            .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", ("v" + i).getBytes(StandardCharsets.US_ASCII), 1)))).build());
      }
      t.flush();
      StorageMetrics before = e.metrics();
      assertThat(before.keyCacheCapacityBytes()).isPositive();
      readAll(t, n);
      StorageMetrics first = e.metrics();
      assertThat(first.keyCacheMisses() - before.keyCacheMisses()).as("first round: misses").isGreaterThanOrEqualTo(n);
      assertThat(first.keyCacheEntries() - before.keyCacheEntries()).as("first round fills it").isGreaterThan(n * 9 / 10);
      readAll(t, n);
      StorageMetrics second = e.metrics();
      assertThat(second.keyCacheHits() - first.keyCacheHits()).as("second round: hits").isGreaterThan(n * 9 / 10);
      assertThat(second.keyCacheBytes()).isEqualTo(second.keyCacheEntries() * 32)
          .isLessThanOrEqualTo(second.keyCacheCapacityBytes());
    }
  }

  private static byte[] key(int i) {
    return ("k" + i).getBytes(StandardCharsets.US_ASCII);
  }

  private static void readAll(Table t, int n) {
    for (int i = 0; i < n; i++) {
      PartitionView v = t.read(key(i), ReadQuery.all(0));
      assertThat(v.staticRow()).isNotNull();
    }
  }
}
