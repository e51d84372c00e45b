package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.server.ResourceSizing;
import io.cassette.server.admin.AdminEndpoints;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.storage.TableSpec;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nodetool as an operator runs it, against a real admin HTTP server with the node's endpoints. */
class NodetoolMainTest {
  @TempDir Path dir;
  private NioEventLoopGroup loop;
  private AdminHttpServer http;
  private FakeEngine engine;
  private int port;

  /** What one nodetool run printed and returned. */
  record Run(int exit, String out, String err) {}

  @BeforeEach
  void startNode() throws Exception {
    Config config = ConfigLoader.load(null, Map.of(), Map.of(
        "data_directory", new FlagValue(dir.toString(), "flag --data-dir"),
        "cluster_name", new FlagValue("Board Cluster", "flag")));
    engine = new FakeEngine(config.dataFileDirectory());
    engine.createTable(TableSpec.withDefaults("ks", "events", UUID.randomUUID()));
    engine.createTable(TableSpec.withDefaults("ks", "users", UUID.randomUUID()));
    engine.createTable(TableSpec.withDefaults("other", "t", UUID.randomUUID()));
    loop = new NioEventLoopGroup(1);
    http = new AdminHttpServer("127.0.0.1", 0, loop);
    AdminEndpoints.register(http, engine, config, ResourceSizing.derive(256L << 20, 2, null, null));
    port = http.start().getPort();
  }

  @AfterEach
  void stopNode() {
    http.close();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
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
    assertThat(UUID.fromString(node[6])).isNotNull();
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
    assertThat(nodetool("flush").exit()).isZero();
    assertThat(nodetool("compact", "ks").exit()).isZero();

    Run stats = nodetool("tablestats", "ks.events");
    assertThat(stats.exit()).isZero();
    assertThat(stats.out()).contains("Total number of tables: 1", "Keyspace : ks", "\t\tTable: events",
        "\t\tSSTable count: 2", "\t\tSpace used (live): 2000", "\t\tLocal read latency: 0.150 ms");
    assertThat(nodetool("tablestats", "-H", "ks").out())
        .contains("Total number of tables: 2", "Space used (live): 1.95 KiB", "Table: users");
    assertThat(nodetool("status").out()).contains("3.91 KiB");
    assertThat(((FakeEngine.FakeTable) engine.table("ks", "users").orElseThrow()).compactions).isEqualTo(1);
    assertThat(((FakeEngine.FakeTable) engine.table("other", "t").orElseThrow()).compactions).isZero();
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
    assertThat(list.out().lines().filter(l -> l.startsWith("before-upgrade ks  "))).hasSize(2)
        .allSatisfy(l -> assertThat(l).contains("0 bytes   1000 bytes"));
    assertThat(list.out()).contains("Snapshot name  Keyspace name", "events", "users",
        "Total TrueDiskSpaceUsed: 0 bytes");

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
        .contains("ks/users histograms", "Mean", "150.00", "Read Latency");
    assertThat(nodetool("info").out()).contains("Mode                   : DRAINED");
  }

  @Test
  void setCompactionThroughputSaysWhyItCannot() {
    Run r = nodetool("setcompactionthroughput", "16");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("nodetool: Changing compaction throughput on a running node is not"
        + " supported yet").hasLineCount(1);
    assertThat(nodetool("setcompactionthroughput", "fast").exit()).isEqualTo(2);
  }
}
