package io.cassette.tools.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.cassette.server.CassetteNode;
import io.cassette.server.ResourceSizing;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cassette migrate} both ways between a Cassette node and a real Apache Cassandra 5.0.4
 * (the shared anchor, about a minute to start; -Pslow): every column kind (collections, a UDT,
 * static columns, clustering order, counters), row counts and per-range checksums compared,
 * a checkpoint that skips ranges, a throttle that holds. A running anchor is reused when
 * CASSETTE_CASSANDRA_PORT names its port.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MigrateCassandraAnchorTest {
  static final Path ANCHOR = anchors().resolve("cassandra");
  private static final int ROWS = 3000;
  private String cassandraDir;
  private int cassandraPort;
  private CassetteNode node;
  private int cassettePort;
  @TempDir
  Path dir;

  static Path anchors() {
    for (String p : List.of("../../shared/anchors", "../../../shared/anchors", "/work/shared/anchors")) {
      Path a = Path.of(p).toAbsolutePath().normalize();
      if (Files.isDirectory(a)) {
        return a;
      }
    }
    return Path.of("/nonexistent");
  }

  @BeforeAll
  void start(@TempDir Path data) throws Exception {
    String reuse = System.getenv("CASSETTE_CASSANDRA_PORT");
    if (reuse != null) {
      cassandraPort = Integer.parseInt(reuse);
    } else {
      assumeTrue(Files.isExecutable(ANCHOR.resolve("start-cassandra.sh")), "no Cassandra anchor at " + ANCHOR);
      cassandraPort = freePort();
      ProcessBuilder pb = new ProcessBuilder("bash", ANCHOR.resolve("start-cassandra.sh").toString())
          .redirectErrorStream(true);
      pb.environment().put("PORT", Integer.toString(cassandraPort));
      pb.environment().put("STORAGE_PORT", Integer.toString(freePort()));
      pb.environment().put("JMX_PORT", "off");
      pb.environment().put("MLOCK", "no");
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assumeTrue(p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0, "Cassandra did not start:\n" + out);
      Matcher m = Pattern.compile("DATA_DIR=(\\S+)").matcher(out);
      assumeTrue(m.find(), "no DATA_DIR in " + out);
      cassandraDir = m.group(1);
    }
    cassettePort = freePort();
    node = new CassetteNode(ConfigLoader.load(null, Map.of(), Map.of(
        "data_directory", new FlagValue(data.toString(), "test"),
        "native_transport_port", new FlagValue(Integer.toString(cassettePort), "test"),
        "resp_port", new FlagValue("0", "test"), "http_port", new FlagValue("0", "test"))),
        ResourceSizing.forThisJvm(null, null));
    node.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (cassandraDir != null) {
      new ProcessBuilder("bash", ANCHOR.resolve("stop-cassandra.sh").toString(), cassandraDir)
          .inheritIO().start().waitFor(90, TimeUnit.SECONDS);
    }
  }

  private CqlSession session(int port) {
    return MigrateMain.open(List.of("127.0.0.1"), port, null, null);
  }

  /** Three tables of every column kind, {@code ROWS} rows in the first. */
  private static void fill(CqlSession s, String ks) {
    s.execute("CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
    s.execute("CREATE TYPE " + ks + ".addr (street text, zip int)");
    s.execute("CREATE TABLE " + ks + ".items (id int PRIMARY KEY, name text, price decimal, tags set<text>, "
        + "attrs map<text, int>, seen list<timestamp>, home frozen<addr>, blob_v blob, u uuid)");
    s.execute("CREATE TABLE " + ks + ".events (dev text, at bigint, v double, owner text STATIC, "
        + "PRIMARY KEY ((dev), at)) WITH CLUSTERING ORDER BY (at DESC)");
    s.execute("CREATE TABLE " + ks + ".hits (page text PRIMARY KEY, n counter)");
    PreparedStatement items = s.prepare("INSERT INTO " + ks + ".items (id, name, price, tags, attrs, seen, home, "
        + "blob_v, u) VALUES (?, ?, ?, ?, ?, ?, {street: ?, zip: ?}, ?, uuid())");
    for (int i = 0; i < ROWS; i += 50) {
      BatchStatement b = BatchStatement.newInstance(BatchType.UNLOGGED);
      for (int j = i; j < i + 50; j++) {
        b = b.add(items.bind(j, j % 7 == 0 ? null : "item " + j, new java.math.BigDecimal(j + ".25"),
            java.util.Set.of("t" + j % 3, "x"), Map.of("a", j, "b", -j),
            List.of(java.time.Instant.ofEpochMilli(1_700_000_000_000L + j)), "street " + j, j,
            java.nio.ByteBuffer.wrap(new byte[] {(byte) j, 0, (byte) (j >> 8)})));
      }
      s.execute(b);
    }
    PreparedStatement ev = s.prepare("INSERT INTO " + ks + ".events (dev, at, v) VALUES (?, ?, ?)");
    for (int i = 0; i < 300; i++) {
      s.execute(ev.bind("dev" + i % 10, (long) i, i / 3.0));
    }
    s.execute("INSERT INTO " + ks + ".events (dev, owner) VALUES ('dev0', 'ann')");
    s.execute("INSERT INTO " + ks + ".events (dev, owner) VALUES ('lonely', 'bob')"); // static row only
    for (int i = 0; i < 40; i++) {
      s.execute("UPDATE " + ks + ".hits SET n = n + " + (i + 1) + " WHERE page = 'p" + i % 20 + "'");
    }
  }

  private static String run(int expectedExit, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = MigrateMain.run(args, new PrintStream(out, true), new PrintStream(err, true));
    String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isEqualTo(expectedExit);
    return text;
  }

  @Test
  void cassetteToCassandraAndBack() throws Exception {
    try (CqlSession cassette = session(cassettePort); CqlSession cassandra = session(cassandraPort)) {
      cassandra.execute("DROP KEYSPACE IF EXISTS shop");
      fill(cassette, "shop");
      long t0 = System.nanoTime();
      String there = run(0, "--from", "127.0.0.1:" + cassettePort, "--to", "127.0.0.1:" + cassandraPort,
          "--keyspaces", "shop", "--consistency", "ONE", "--checkpoint", dir.resolve("there.ckpt").toString());
      System.out.println("Cassette -> Cassandra (" + (System.nanoTime() - t0) / 1_000_000 + " ms):\n" + there);
      assertThat(there).contains("verified shop.items: 3,000 rows in 64 ranges, row counts and checksums match")
          .contains("verified shop.events: 301 rows").contains("verified shop.hits: 20 rows").doesNotContain("DIFFERENT");
      assertThat(cassandra.execute("SELECT n FROM shop.hits WHERE page = 'p3'").one().getLong(0)).isEqualTo(4 + 24);
      assertThat(cassandra.execute("SELECT owner FROM shop.events WHERE dev = 'lonely'").one().getString(0)).isEqualTo("bob");
      assertThat(cassandra.execute("SELECT home FROM shop.items WHERE id = 42").one().getUdtValue(0).getString("street"))
          .isEqualTo("street 42");
      // keyspace RF 3 capped to the one-node target
      assertThat(cassandra.getMetadata().getKeyspace("shop").get().getReplication()).containsEntry("replication_factor", "1");

      // and back: Cassandra's own keyspace into Cassette
      cassandra.execute("DROP KEYSPACE IF EXISTS back");
      fill(cassandra, "back");
      t0 = System.nanoTime();
      String back = run(0, "--from", "127.0.0.1:" + cassandraPort, "--to", "127.0.0.1:" + cassettePort,
          "--keyspaces", "back", "--consistency", "ONE");
      System.out.println("Cassandra -> Cassette (" + (System.nanoTime() - t0) / 1_000_000 + " ms):\n" + back);
      assertThat(back).contains("verified back.items: 3,000 rows in 64 ranges, row counts and checksums match")
          .doesNotContain("DIFFERENT");
      assertThat(cassette.execute("SELECT attrs FROM back.items WHERE id = 7").one().getMap(0, String.class, Integer.class))
          .isEqualTo(Map.of("a", 7, "b", -7));
    }
  }

  @Test
  void checkpointSkipsFinishedRangesAndVerificationSeesThem() throws Exception {
    try (CqlSession cassette = session(cassettePort); CqlSession cassandra = session(cassandraPort)) {
      cassandra.execute("DROP KEYSPACE IF EXISTS resume");
      cassette.execute("CREATE KEYSPACE resume WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      cassette.execute("CREATE TABLE resume.kv (k int PRIMARY KEY, v text)");
      PreparedStatement p = cassette.prepare("INSERT INTO resume.kv (k, v) VALUES (?, ?)");
      for (int i = 0; i < 1000; i++) {
        cassette.execute(p.bind(i, "v" + i));
      }
      // a checkpoint claiming the first 8 of 16 ranges are done: they must not be copied
      Path ckpt = dir.resolve("resume.ckpt");
      StringBuilder c = new StringBuilder("# cassette migrate checkpoint v1 ranges=16\n");
      for (int i = 0; i < 8; i++) {
        c.append("done resume.kv ").append(i).append(" 0 0\n");
      }
      Files.writeString(ckpt, c);
      String partial = run(MigrateMain.EXIT_DIFFERENT, "--from", "127.0.0.1:" + cassettePort,
          "--to", "127.0.0.1:" + cassandraPort, "--keyspaces", "resume", "--ranges", "16",
          "--checkpoint", ckpt.toString());
      assertThat(partial).contains("resuming from").contains("8 of 16 ranges already done")
          .contains("DIFFERENT resume.kv range 0").doesNotContain("DIFFERENT resume.kv range 8 ")
          .contains("8 range(s) differ");
      assertThat(Files.readAllLines(ckpt)).hasSize(17);
      // another range count is refused
      run(MigrateMain.EXIT_FAILED, "--from", "127.0.0.1:" + cassettePort, "--to", "127.0.0.1:" + cassandraPort,
          "--keyspaces", "resume", "--ranges", "32", "--checkpoint", ckpt.toString());
      // without the checkpoint: everything copied, verified equal
      Files.delete(ckpt);
      assertThat(run(0, "--from", "127.0.0.1:" + cassettePort, "--to", "127.0.0.1:" + cassandraPort,
          "--keyspaces", "resume", "--ranges", "16", "--checkpoint", ckpt.toString()))
          .contains("verified resume.kv: 1,000 rows in 16 ranges, row counts and checksums match");

      // throttled: 1,000 rows at 500 rows/s take about 2 s (the first 100 ms are credit)
      cassandra.execute("TRUNCATE resume.kv");
      long t0 = System.nanoTime();
      run(0, "--from", "127.0.0.1:" + cassettePort, "--to", "127.0.0.1:" + cassandraPort,
          "--keyspaces", "resume", "--no-verify", "--rows-per-second", "500", "--no-schema");
      assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThan(1700);
    }
  }

  static int freePort() throws java.io.IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
