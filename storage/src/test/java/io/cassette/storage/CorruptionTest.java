package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files are detected and named, never silently returned. */
class CorruptionTest {
  @TempDir
  Path dir;

  static final TableSpec SPEC = new TableSpec("ks", "t", UUID.fromString("00000000-0000-0000-0000-000000000001"),
      Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "4"), Map.of("class", "SizeTieredCompactionStrategy"),
      864000, 0.01, 0);

  static PartitionUpdate put(int i) {
    return PartitionUpdate.builder("ks", "t", ("key" + i).getBytes(StandardCharsets.UTF_8))
        .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", ("value" + i + "-".repeat(i % 40)).getBytes(StandardCharsets.UTF_8), i))))
        .build();
  }

  static Path onlyFile(Path root, String suffix) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).findFirst().orElseThrow();
    }
  }

  @Test
  void truncatedCommitLogTailIsSkippedAndEarlierRecordsReplayed() throws Exception {
    Engine e = Engine.open(EngineOptions.defaults(dir));
    Table t = e.createTable(SPEC);
    for (int i = 0; i < 100; i++) {
      t.apply(put(i));
    }
    ((StorageEngine) e).simulateCrash();
    Path segment = onlyFile(dir.resolve("commitlog"), ".log");
    long size = Files.size(segment);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.setLength(size - 7); // tears the last record
    }
    try (Engine e2 = Engine.open(EngineOptions.defaults(dir))) {
      Table t2 = e2.table("ks", "t").orElseThrow();
      for (int i = 0; i < 99; i++) {
        assertThat(t2.read(("key" + i).getBytes(StandardCharsets.UTF_8), ReadQuery.all(0)).staticRow())
            .as("record %d", i).isNotNull();
      }
      assertThat(t2.read("key99".getBytes(StandardCharsets.UTF_8), ReadQuery.all(0)).isEmpty()).isTrue();
    }
  }

  @Test
  void corruptCommitLogRecordStopsReplayOfThatSegmentOnly() throws Exception {
    Engine e = Engine.open(EngineOptions.defaults(dir));
    Table t = e.createTable(SPEC);
    for (int i = 0; i < 100; i++) {
      t.apply(put(i));
    }
    ((StorageEngine) e).simulateCrash();
    Path segment = onlyFile(dir.resolve("commitlog"), ".log");
    long size = Files.size(segment);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.seek(size / 2);
      int b = f.read();
      f.seek(size / 2);
      f.write(b ^ 0x40);
    }
    try (Engine e2 = Engine.open(EngineOptions.defaults(dir))) {
      Table t2 = e2.table("ks", "t").orElseThrow();
      int present = 0;
      for (int i = 0; i < 100; i++) {
        if (!t2.read(("key" + i).getBytes(StandardCharsets.UTF_8), ReadQuery.all(0)).isEmpty()) {
          present++;
        }
      }
      assertThat(present).isBetween(30, 60); // records before the damage, none after
    }
  }

  @Test
  void flippedSSTableByteIsReportedWithFileAndOffset() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(SPEC);
      for (int i = 0; i < 2000; i++) {
        t.apply(put(i));
      }
      t.flush();
    }
    Path data = onlyFile(dir.resolve("data"), "-Data.db");
    long size = Files.size(data);
    long offset = size / 2;
    try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x01);
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      // a full scan must meet the damaged chunk
      assertThatThrownBy(() -> {
        try (Table.CloseableIterator<PartitionView> it = t.scan(KeyRange.ALL, ReadQuery.all(0))) {
          it.forEachRemaining(p -> { });
        }
      }).isInstanceOf(StorageException.class)
          .hasMessageContaining(data.toString())
          .hasMessageContaining("at offset ")
          .hasMessageContaining("checksum");
    }
  }

  @Test
  void truncatedSSTableIsRefusedAtOpen() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(SPEC);
      for (int i = 0; i < 100; i++) {
        t.apply(put(i));
      }
      t.flush();
    }
    Path data = onlyFile(dir.resolve("data"), "-Data.db");
    try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
      f.setLength(f.length() - 10);
    }
    assertThatThrownBy(() -> Engine.open(EngineOptions.defaults(dir)))
        .isInstanceOf(StorageException.class).hasMessageContaining(data.toString()).hasMessageContaining("truncated");
  }

  @Test
  void leftoverTemporaryAndIncompleteFilesAreRemovedAtOpen() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(SPEC);
      t.apply(put(1));
      t.flush();
    }
    Path data = onlyFile(dir.resolve("data"), "-Data.db");
    Path tableDir = data.getParent();
    Path tmp = tableDir.resolve("v1-77-Data.db.tmp");
    Path incomplete = tableDir.resolve("v1-78-Data.db");
    Files.write(tmp, new byte[] {1, 2, 3});
    Files.write(incomplete, new byte[] {1, 2, 3});
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      assertThat(tmp).doesNotExist();
      assertThat(incomplete).doesNotExist();
      assertThat(e.table("ks", "t").orElseThrow().read("key1".getBytes(StandardCharsets.UTF_8), ReadQuery.all(0)).isEmpty()).isFalse();
    }
  }
}
