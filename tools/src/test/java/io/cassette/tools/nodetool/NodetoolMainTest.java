package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.server.NodeIdentity;
import io.cassette.server.ResourceSizing;
import io.cassette.server.admin.AdminEndpoints;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nodetool as an operator runs it, against a real admin HTTP server with the node's endpoints
 * over a real storage engine in a temporary directory.
 */
class NodetoolMainTest {
  @TempDir Path dir;
  private NioEventLoopGroup loop;
  private AdminHttpServer http;
  private Engine engine;
  private int port;

  /** What one nodetool run printed and returned. */
  record Run(int exit, String out, String err) {}

  @BeforeEach
  void startNode() throws Exception {
    Config config = ConfigLoader.load(null, Map.of(), Map.of(
        "data_directory", new FlagValue(dir.toString(), "flag --data-dir"),
        "cluster_name", new FlagValue("Board Cluster", "flag")));
    engine = Engine.open(EngineOptions.defaults(dir));
    for (String name : new String[] {"ks.events", "ks.users", "other.t"}) {
      String[] ksTable = name.split("\\.");
      Table t = engine.createTable(TableSpec.withDefaults(ksTable[0], ksTable[1], UUID.randomUUID()));
      write(t, 0, ROWS);
    }
    loop = new NioEventLoopGroup(1);
    http = new AdminHttpServer("127.0.0.1", 0, loop);
    AdminEndpoints.register(http, engine, config, ResourceSizing.derive(256L << 20, 2, null, null));
    port = http.start().getPort();
  }

  @AfterEach
  void stopNode() {
    http.close();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    engine.close();
  }

  /** Rows written to each table before a test. */
  static final int ROWS = 100;

  private static void write(Table t, int from, int to) {
    for (int i = from; i < to; i++) {
      t.apply(PartitionUpdate.builder(t.spec().keyspace(), t.spec().name(),
              ("key-" + i).getBytes(StandardCharsets.UTF_8))
          .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", new byte[64], 1_000_000L + i)))).build());
    }
  }

  private long sstables(String keyspace, String table) {
    return engine.table(keyspace, table).orElseThrow().metrics().sstableCount();
  }

  private Run nodetool(String... args) {
    String[] full = new String[args.length + 2];
    full[0] = "-p";
    full[1] = Integer.toString(port);
    System.arraycopy(args, 0, full, 2, args.length);
    return run(full);
  }

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = NodetoolMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void statusShowsOneNodeUpAndNormalOwningTheRing() {
    Run r = nodetool("status");
    assertThat(r.exit()).isZero();
    String[] lines = r.out().split("\n");
    assertThat(lines[0]).isEqualTo("Datacenter: datacenter1");
    assertThat(lines[1]).isEqualTo("=".repeat(lines[0].length()));
    assertThat(lines[4]).startsWith("--  Address    Load").contains("Tokens", "Owns (effective)", "Host ID", "Rack");
    String[] node = lines[5].split("\\s+");
    assertThat(node[0]).isEqualTo("UN");
    assertThat(node[1]).isEqualTo("127.0.0.1");
    assertThat(node[2] + " " + node[3]).isEqualTo("0 bytes");
    assertThat(node[4]).isEqualTo("16");
    assertThat(node[5]).isEqualTo("100.0%");
    // the identity the CQL front door reports in system.local
    assertThat(UUID.fromString(node[6])).isEqualTo(NodeIdentity.loadOrCreate(dir, 16).hostId());
    assertThat(node[7]).isEqualTo("rack1");
  }

  @Test
  void ringListsEveryTokenAndInfoCountsThem() {
    Run ring = nodetool("ring");
    assertThat(ring.exit()).isZero();
    assertThat(ring.out().lines().filter(l -> l.startsWith("127.0.0.1")))
        .hasSize(16).allSatisfy(l -> assertThat(l).contains("rack1", "Up", "Normal", "100.00%"));

    Run info = nodetool("info");
    assertThat(info.exit()).isZero();
    assertThat(info.out()).contains("Heap Memory (MB)       : ", "Data Center            : datacenter1",
        "Mode                   : NORMAL", "(invoke with -T/--tokens to see all 16 tokens)");
    assertThat(nodetool("info", "-T").out().lines().filter(l -> l.startsWith("Token "))).hasSize(16);
  }

  @Test
  void flushCompactAndTablestatsReportPerTable() {
    assertThat(nodetool("flush", "ks", "events").exit()).isZero();
    assertThat(sstables("ks", "events")).isEqualTo(1);
    assertThat(sstables("ks", "users")).isZero();
    write(engine.table("ks", "events").orElseThrow(), ROWS, 2 * ROWS);
    assertThat(nodetool("flush").exit()).isZero();
    assertThat(sstables("ks", "events")).isEqualTo(2);
    assertThat(sstables("other", "t")).isEqualTo(1);

    Run stats = nodetool("tablestats", "ks.events");
    assertThat(stats.exit()).isZero();
    assertThat(stats.out()).contains("Total number of tables: 1", "Keyspace : ks", "\t\tTable: events",
        "\t\tSSTable count: 2", "\tWrite Count: " + 2 * ROWS, "\t\tLocal write count: " + 2 * ROWS);
    long live = Long.parseLong(stats.out().lines().filter(l -> l.startsWith("\t\tSpace used (live): "))
        .findFirst().orElseThrow().substring("\t\tSpace used (live): ".length()));
    assertThat(live).isPositive();

    assertThat(nodetool("compact", "ks").exit()).isZero();
    assertThat(sstables("ks", "events")).isEqualTo(1);
    assertThat(nodetool("tablestats", "-H", "ks").out())
        .contains("Total number of tables: 2", "Table: users", "SSTable count: 1", " KiB\n");
    assertThat(nodetool("status").out()).containsPattern("UN  127\\.0\\.0\\.1  \\d+(\\.\\d+)? KiB");
  }

  @Test
  void snapshotsAreListedSizedAndCleared() {
    nodetool("flush");
    Run snap = nodetool("snapshot", "-t", "before-upgrade", "ks");
    assertThat(snap.exit()).isZero();
    assertThat(snap.out()).isEqualTo("Requested creating snapshot(s) for [ks] with snapshot name "
        + "[before-upgrade] and options {skipFlush=false}\nSnapshot directory: before-upgrade\n");
    assertThat(nodetool("snapshot", "-t", "before-upgrade").err())
        .isEqualTo("nodetool: Snapshot before-upgrade already exists.\n");

    Run list = nodetool("listsnapshots");
    // hard links of live SSTables: deleting the snapshot would free nothing yet
    assertThat(list.out().lines().filter(l -> l.startsWith("before-upgrade ks  "))).hasSize(2)
        .allSatisfy(l -> assertThat(l).containsPattern(" 0 bytes +\\d+(\\.\\d+)? KiB "));
    assertThat(list.out()).contains("Snapshot name  Keyspace name", "events", "users",
        "Total TrueDiskSpaceUsed: 0 bytes");
    assertThat(list.out()).doesNotContain("other");

    // once compaction replaces the SSTables, the snapshot alone holds the old ones
    write(engine.table("ks", "events").orElseThrow(), ROWS, 2 * ROWS);
    nodetool("flush");
    nodetool("compact", "ks", "events");
    assertThat(nodetool("listsnapshots").out()).containsPattern(
        "before-upgrade ks +events +\\d+(\\.\\d+)? KiB");

    Run clear = nodetool("clearsnapshot", "-t", "before-upgrade");
    assertThat(clear.exit()).isZero();
    assertThat(nodetool("listsnapshots").out()).contains("There are no snapshots");
    assertThat(nodetool("clearsnapshot").err()).contains("Specify snapshot name (-t) or --all");
  }

  @Test
  void unknownKeyspaceOrTableIsOneLineAndExitOne() {
    Run r = nodetool("flush", "ks", "nosuch");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("nodetool: Unknown table 'nosuch' in keyspace 'ks'\n");
    assertThat(nodetool("tablestats", "nosuch").err())
        .isEqualTo("nodetool: Keyspace [nosuch] does not exist.\n");
  }

  @Test
  void nodeDownIsOneClearLineAndExitOne() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Run r = run("-h", "127.0.0.1", "-p", Integer.toString(closed), "status");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("nodetool: Failed to connect to '127.0.0.1:" + closed + "' - ")
        .endsWith("Is the node running, with its HTTP admin port (http_port) on " + closed + "?\n")
        .hasLineCount(1);
  }

  @Test
  void badCommandLinesExitTwoWithUsage() {
    assertThat(nodetool("frobnicate").exit()).isEqualTo(2);
    assertThat(nodetool("frobnicate").err()).startsWith("nodetool: Unknown command 'frobnicate'\n");
    assertThat(run("-p", "notaport", "status").err()).startsWith("nodetool: invalid port 'notaport'");
    assertThat(nodetool("info", "--bogus").err()).startsWith("nodetool: Unknown option '--bogus'");
    assertThat(run().exit()).isEqualTo(2);
    assertThat(run("help").out()).contains("usage: cassette nodetool");
  }

  @Test
  void everyReportCommandAnswers() {
    for (String command : new String[] {"describecluster", "compactionstats", "gcstats", "version",
        "getcompactionthroughput", "tablehistograms", "drain", "cleanup"}) {
      Run r = nodetool(command);
      assertThat(r.exit()).as(command + ": " + r.err()).isZero();
    }
    assertThat(nodetool("describecluster").out()).contains("\tName: Board Cluster",
        "\tPartitioner: org.apache.cassandra.dht.Murmur3Partitioner", "\tLive: 1", "\tother\n");
    assertThat(nodetool("getcompactionthroughput").out()).isEqualTo("Current compaction throughput: 64 MiB/s\n");
    assertThat(nodetool("version").out()).startsWith("ReleaseVersion: ");
    assertThat(nodetool("gcstats").out()).contains("Interval (ms)", "Collections");
    assertThat(nodetool("tablehistograms", "ks", "users").out())
        .contains("ks/users histograms", "Mean", "Read Latency", "Count");
    assertThat(nodetool("info").out()).contains("Mode                   : DRAINED");
  }

  @Test
  void setCompactionThroughputChangesTheCapOfTheRunningNode() {
    Run r = nodetool("setcompactionthroughput", "16");
    assertThat(r.exit()).isZero();
    assertThat(nodetool("getcompactionthroughput").out()).isEqualTo("Current compaction throughput: 16 MiB/s\n");
    assertThat(nodetool("setcompactionthroughput", "0").exit()).isZero();
    assertThat(nodetool("getcompactionthroughput").out()).isEqualTo("Current compaction throughput: unthrottled\n");
    assertThat(nodetool("setcompactionthroughput", "fast").exit()).isEqualTo(2);
  }
}
