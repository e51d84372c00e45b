package io.cassette.tools.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of migrate that need no cluster: ranges, throttle, checkpoint, checksum, options. */
class MigrateUnitsTest {
  @TempDir
  Path dir;

  @Test
  void rangesTileTheRingExactlyOnce() {
    for (int n : new int[] {1, 2, 3, 64, 1000}) {
      List<TokenSplits.Range> r = TokenSplits.of(n).ranges();
      assertThat(r).hasSize(n);
      assertThat(r.get(0).start()).isEqualTo(Long.MIN_VALUE);
      assertThat(r.get(n - 1).end()).isEqualTo(Long.MAX_VALUE);
      for (int i = 1; i < n; i++) {
        assertThat(r.get(i).start()).isEqualTo(r.get(i - 1).end());
        assertThat(r.get(i).end()).isGreaterThan(r.get(i).start());
      }
    }
    assertThatThrownBy(() -> TokenSplits.of(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void checksumIgnoresRowOrderButNotContent() {
    ByteBuffer a = ByteBuffer.wrap("a".getBytes(StandardCharsets.UTF_8));
    ByteBuffer b = ByteBuffer.wrap("b".getBytes(StandardCharsets.UTF_8));
    RowChecksum x = new RowChecksum();
    x.add(new ByteBuffer[] {a, b});
    x.add(new ByteBuffer[] {b, null});
    RowChecksum y = new RowChecksum();
    y.add(new ByteBuffer[] {b, null});
    y.add(new ByteBuffer[] {a, b});
    assertThat(y.sum()).isEqualTo(x.sum());
    assertThat(y.rows()).isEqualTo(2);
    RowChecksum z = new RowChecksum();
    z.add(new ByteBuffer[] {b, a}); // columns swapped
    z.add(new ByteBuffer[] {b, null});
    assertThat(z.sum()).isNotEqualTo(x.sum());
    RowChecksum w = new RowChecksum();
    w.add(new ByteBuffer[] {a, b});
    w.add(new ByteBuffer[] {b, ByteBuffer.allocate(0)}); // empty is not null
    assertThat(w.sum()).isNotEqualTo(x.sum());
  }

  @Test
  void throttleHoldsTheRate() {
    Throttle t = new Throttle(2000, 0);
    long t0 = System.nanoTime();
    for (int i = 0; i < 800; i++) {
      t.acquire(1, 10);
    }
    // 800 rows at 2,000/s: 0.4 s less at most 0.1 s of credit
    assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(280);
    assertThat(new Throttle(0, 0).unlimited()).isTrue();
    Throttle mb = new Throttle(0, 1); // 1 MB/s: 300 KB take ~0.2 s after the credit
    t0 = System.nanoTime();
    for (int i = 0; i < 30; i++) {
      mb.acquire(1, 10_240);
    }
    assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(150);
  }

  @Test
  void checkpointRemembersFinishedRangesAndRefusesAnotherSplit() throws IOException {
    Path f = dir.resolve("c.ckpt");
    try (Checkpoint c = Checkpoint.open(f, 16)) {
      c.finished("ks.t", 3, 10, 0xabc);
      c.finished("ks.t", 4, 0, 0);
    }
    Files.writeString(f, "done ks.t 9", java.nio.file.StandardOpenOption.APPEND); // a torn last line
    try (Checkpoint c = Checkpoint.open(f, 16)) {
      assertThat(c.isDone("ks.t", 3)).isTrue();
      assertThat(c.isDone("ks.t", 4)).isTrue();
      assertThat(c.isDone("ks.t", 5)).isFalse();
      assertThat(c.isDone("ks.u", 3)).isFalse();
      assertThat(c.doneCount()).isEqualTo(2);
      c.finished("ks.t", 7, 1, 1);
    }
    try (Checkpoint c = Checkpoint.open(f, 16)) { // written after the torn line: still read
      assertThat(c.isDone("ks.t", 7)).isTrue();
      assertThat(c.isDone("ks.t", 9)).isFalse();
    }
    assertThatThrownBy(() -> Checkpoint.open(f, 32)).hasMessageContaining("--ranges 16");
    Files.writeString(dir.resolve("x"), "hello\n");
    assertThatThrownBy(() -> Checkpoint.open(dir.resolve("x"), 16)).hasMessageContaining("not a cassette migrate checkpoint");
  }

  @Test
  void replicationIsCappedAtTheTargetNodes() {
    assertThat(SchemaCopier.replication(Map.of("class", "org.apache.cassandra.locator.SimpleStrategy",
        "replication_factor", "3"), 1)).contains("'class': 'SimpleStrategy'").contains("'replication_factor': '1'");
    assertThat(SchemaCopier.replication(new java.util.LinkedHashMap<>(Map.of("class", "NetworkTopologyStrategy")),
        3)).contains("NetworkTopologyStrategy");
  }

  @Test
  void commandLine() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(MigrateMain.run(new String[] {"--help"}, new PrintStream(out), new PrintStream(out))).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--rows-per-second").contains("--checkpoint");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(MigrateMain.run(new String[] {"--from", "a"}, new PrintStream(out), new PrintStream(err)))
        .isEqualTo(MigrateMain.EXIT_USAGE);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--from and --to are required");
    MigrateOptions o = MigrateOptions.parse(new String[] {"--from", "h1,h2:9043", "--to", "c", "--ranges", "8",
        "--rows-per-second", "100", "--mb-per-second", "2.5", "--no-verify", "--consistency", "local_quorum"});
    assertThat(o.from()).containsExactly("h1", "h2:9043");
    assertThat(o.ranges()).isEqualTo(8);
    assertThat(o.verify()).isFalse();
    assertThat(o.consistency()).isEqualTo("LOCAL_QUORUM");
    assertThatThrownBy(() -> MigrateOptions.parse(new String[] {"--from", "a", "--to", "b", "--threads", "0"}))
        .hasMessageContaining("at least 1");
  }
}
