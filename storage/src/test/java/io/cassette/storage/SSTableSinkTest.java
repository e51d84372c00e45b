package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Streamed partitions written straight to SSTables: live together on commit, gone on abort. */
class SSTableSinkTest {
  @TempDir
  Path dir;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static PartitionUpdate put(String key, String clustering, String value, long ts) {
    return PartitionUpdate.builder("ks", "t", b(key))
        .row(Row.of(b(clustering), List.of(Cell.live("v", b(value), ts)))).build();
  }

  static String value(Table t, String key, String clustering) {
    PartitionView p = t.read(b(key), ReadQuery.all(0));
    for (Row r : p.rows()) {
      if (Bytes.compare(r.clustering(), b(clustering)) == 0) {
        return new String(r.cell("v").value(), StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  static List<String> tmpFiles(Path d) throws Exception {
    try (Stream<Path> s = Files.walk(d)) {
      return s.map(p -> d.relativize(p).toString()).filter(n -> n.contains("tmp")).toList();
    }
  }

  @Test
  void committedPartitionsAreReadAndAbortedOnesLeaveNothing() throws Exception {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      Table t = engine.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("k1", "a", "old", 1));
      t.apply(put("k1", "b", "memtable", 9));

      SSTableSink aborted = t.sink();
      aborted.add(put("gone", "c", "x", 5));
      aborted.close();
      assertThat(value(t, "gone", "c")).isNull();
      assertThat(tmpFiles(dir)).as("an aborted sink's files").isEmpty();

      SSTableSink sink = t.sink();
      // Keys in token order as a scan sends them, then one out of order (it starts another
      // file); rows unsorted, with a duplicate.
      List<String> keys = new java.util.ArrayList<>();
      for (int i = 0; i < 50; i++) {
        keys.add("s" + i);
      }
      keys.sort((x, y) -> DecoratedKey.of(b(x)).compareTo(DecoratedKey.of(b(y))));
      for (String k : keys) {
        sink.add(put(k, "c", "v" + k.substring(1), 5));
      }
      sink.add(PartitionUpdate.builder("ks", "t", b("k1"))
          .row(Row.of(b("b"), List.of(Cell.live("v", b("stream"), 5))))
          .row(Row.of(b("a"), List.of(Cell.live("v", b("stream"), 5))))
          .row(Row.of(b("a"), List.of(Cell.live("v", b("newest"), 6)))).build());
      assertThat(value(t, "s7", "c")).as("nothing visible before commit").isNull();
      assertThat(sink.commit()).isPositive();

      assertThat(value(t, "s7", "c")).isEqualTo("v7");
      assertThat(value(t, "k1", "a")).isEqualTo("newest");
      assertThat(value(t, "k1", "b")).as("the newer memtable write still wins").isEqualTo("memtable");
      assertThat(t.metrics().sstableCount()).isBetween(1, 3);

      Table u = engine.createTable(TableSpec.withDefaults("ks", "u", UUID.randomUUID()));
      SSTableSink beforeTruncate = u.sink();
      beforeTruncate.add(put("old", "c", "x", 5));
      u.truncate();
      assertThat(beforeTruncate.commit()).as("a stream that predates TRUNCATE is dropped").isZero();
      assertThat(value(u, "old", "c")).isNull();
    }
    // After a restart the committed files are the table's.
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      Table t = engine.table("ks", "t").orElseThrow();
      assertThat(value(t, "s49", "c")).isEqualTo("v49");
      assertThat(value(t, "gone", "c")).isNull();
    }
  }
}
