package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data written in SSTable format 1 and commit-log version 1 (before cells could share their
 * row's timestamp) is read unchanged by format 2, and rewritten as format 2 by a flush and a
 * compaction. The fixture under src/test/resources/format-v1 was written by revision b9ad3aa's
 * engine running {@link #main} (compiled against that revision's storage jar): a data
 * directory with one flushed SSTable, and a commit log holding more writes that were never
 * flushed (copied while the engine was open, as a crash leaves it).
 */
class FormatVersionOneTest {
  static final String KS = "ks";
  static final String TABLE = "t";
  static final UUID ID = UUID.nameUUIDFromBytes("format-v1".getBytes(StandardCharsets.UTF_8));
  static final long NOW = 1_900_000_000L; // 2030: the TTL and tombstone stay unexpired and unpurged for years
  static final long TS = 1_900_000_000_000_000L;

  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Every shape of row: INSERT (cells share the liveness timestamp), UPDATE, TTL, tombstones. */
  static List<PartitionUpdate> updates(String prefix) {
    List<PartitionUpdate> out = new ArrayList<>();
    out.add(PartitionUpdate.builder(KS, TABLE, b(prefix + "insert"))
        .row(new Row(b("r"), LivenessInfo.of(TS), DeletionTime.LIVE,
            List.of(Cell.live("a", b("va"), TS), Cell.live("b", b("vb"), TS), Cell.live("c", b("vc"), TS))))
        .build());
    out.add(PartitionUpdate.builder(KS, TABLE, b(prefix + "update"))
        .row(Row.of(b("r"), List.of(Cell.live("a", b("x"), TS + 1), Cell.live("b", b("y"), TS + 1),
            Cell.live("c", b("z"), TS + 2))))
        .build());
    out.add(PartitionUpdate.builder(KS, TABLE, b(prefix + "ttl"))
        .row(new Row(b("r"), LivenessInfo.expiring(TS, 1_000_000, NOW), DeletionTime.LIVE,
            List.of(Cell.expiring("a", b("t"), TS, 1_000_000, NOW), Cell.tombstone("b", TS, NOW))))
        .build());
    return out;
  }

  /** What a test can compare: rows with their cells' timestamps, TTLs and deletion times. */
  static String render(PartitionUpdate u) {
    StringBuilder s = new StringBuilder(new String(u.key(), StandardCharsets.UTF_8)).append(':');
    for (Row r : u.rows()) {
      s.append(" row ").append(HexFormat.of().formatHex(r.clustering())).append(' ').append(r.liveness());
      for (Cell c : r.cells()) {
        s.append(" [").append(c.column()).append('=')
            .append(c.value() == null ? "tombstone" : new String(c.value(), StandardCharsets.UTF_8))
            .append(" ts ").append(c.timestamp()).append(" ttl ").append(c.ttl())
            .append(" ldt ").append(c.localDeletionTime()).append(']');
      }
    }
    return s.toString();
  }

  static EngineOptions options(Path root) {
    EngineOptions d = EngineOptions.defaults(root);
    return new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), CommitLogSync.BATCH, Duration.ofSeconds(10),
        d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), d.memtableBudgetBytes(), 0, 1);
  }

  /** Writes the fixture into args[0] (run against the old revision's jar, then halts). */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    Path work = Files.createTempDirectory("format-v1");
    Engine engine = Engine.open(options(work));
    Table t = engine.createTable(TableSpec.withDefaults(KS, TABLE, ID));
    updates("flushed-").forEach(t::apply);
    t.flush();
    updates("logged-").forEach(t::apply); // batch mode: fsynced before apply returns
    copy(work, out);
    Runtime.getRuntime().halt(0); // no close: the log keeps the unflushed writes
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  private void unpackFixture() throws IOException {
    List<String> names;
    try (InputStream list = getClass().getResourceAsStream("/format-v1/files.txt")) {
      names = new String(list.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }
    for (String name : names) {
      try (InputStream in = getClass().getResourceAsStream("/format-v1/" + name)) {
        Path target = dir.resolve(name);
        Files.createDirectories(target.getParent());
        Files.copy(in, target);
      }
    }
  }

  private static List<Integer> dataFormatVersions(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.getFileName().toString().endsWith("-Data.db")).map(p -> {
        try (InputStream in = Files.newInputStream(p)) {
          return (int) ByteBuffer.wrap(in.readNBytes(6)).getShort(4);
        } catch (IOException e) {
          throw new RuntimeException(e);
        }
      }).sorted().toList();
    }
  }

  private static void assertReadsEverything(Table t) {
    for (String prefix : List.of("flushed-", "logged-")) {
      for (PartitionUpdate u : updates(prefix)) {
        assertThat(render(t.readUnfiltered(u.key(), ReadQuery.all(NOW)))).isEqualTo(render(u));
      }
    }
  }

  @Test
  void formatOneFilesAreReadThenRewrittenAsFormatTwo() throws IOException {
    unpackFixture();
    assertThat(dataFormatVersions(dir)).containsExactly(1);
    try (Engine engine = Engine.open(options(dir))) {
      Table t = engine.table(KS, TABLE).orElseThrow();
      assertReadsEverything(t); // the SSTable of format 1 and the replayed version-1 log
      t.flush();
      assertReadsEverything(t);
      t.compact();
      assertReadsEverything(t);
    }
    assertThat(dataFormatVersions(dir)).containsOnly(2);
    try (Engine engine = Engine.open(options(dir))) {
      assertReadsEverything(engine.table(KS, TABLE).orElseThrow());
    }
  }
}
