package io.cassette.tools.ring;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.cassette.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hinted handoff with real node processes (issue 16): three nodes, RF=3; node 3 is killed with
 * SIGKILL, writes at ONE through node 1 leave hints there ({@code nodetool listpendinghints}
 * shows node 3 DOWN), node 3 restarts and gets them ("no pending hints" on node 1), and with
 * nodes 1 and 2 killed node 3 alone serves every row at ONE from its own storage.
 */
class HintedHandoffProcessTest {
  private static final String HEARTBEAT = "200ms";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration DOWN_BOUND = Duration.ofSeconds(30);
  private static final Duration DDL_TIMEOUT = Duration.ofSeconds(20);
  private static final int ROWS = 50;

  @TempDir
  Path dir;
  private final Process[] nodes = new Process[4];
  private final String seeds = "127.0.0.1";
  private final int count = 3;
  private int cqlPort;
  private int httpPort;
  private int storagePort;
  private int metadataPort;

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process p : nodes) {
      if (p != null) {
        p.destroyForcibly();
        p.waitFor();
      }
    }
  }

  @Test
  void hintsLeftForAKilledNodeReachItWhenItRestarts() throws Exception {
    pickPorts();
    for (int i = 1; i <= 3; i++) {
      nodes[i] = startNode(i);
    }
    for (int i = 1; i <= 3; i++) {
      awaitReady(i, 1);
    }
    await("3 UN on node 1", START_TIMEOUT, () -> countState(status(1), "UN") == 3);
    try (CqlSession session = CqlSession.builder()
        .addContactPoint(new InetSocketAddress("127.0.0.1", cqlPort))
        .withLocalDatacenter("datacenter1")
        .build()) {
      session.execute(SimpleStatement.newInstance("CREATE KEYSPACE h WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}").setTimeout(DDL_TIMEOUT));
      session.execute(SimpleStatement.newInstance("CREATE TABLE h.t (k int PRIMARY KEY, v text)")
          .setTimeout(DDL_TIMEOUT));
      assertThat(nodetool(1, "listpendinghints")).isEqualTo("This node does not have any pending hints\n");

      nodes[3].destroyForcibly().waitFor();
      await("node 3 is DN on node 1", DOWN_BOUND, () -> status(1).contains("DN  127.0.0.3"));
      Node node1 = node(session, "127.0.0.1");
      for (int i = 0; i < ROWS; i++) {
        session.execute(SimpleStatement.newInstance("INSERT INTO h.t (k, v) VALUES (?, ?)", i, "v" + i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.ONE));
      }
      String pending = nodetool(1, "listpendinghints");
      System.out.print(pending);
      assertThat(pending).startsWith("Host ID").contains("127.0.0.3:" + storagePort).contains("DOWN")
          .contains("datacenter1").contains("rack1");
      assertThat(nodetool(1, "truncatehints", "127.0.0.9")).contains("Unknown endpoint: 127.0.0.9");

      long restarted = System.nanoTime();
      nodes[3] = startNode(3);
      awaitReady(3, 2);
      await("node 1 delivered its hints", START_TIMEOUT,
          () -> nodetool(1, "listpendinghints").startsWith("This node does not have any pending hints"));
      System.out.printf("hints delivered %d ms after the restart%n", (System.nanoTime() - restarted) / 1_000_000);
    }
    nodes[1].destroyForcibly().waitFor();
    nodes[2].destroyForcibly().waitFor();
    await("nodes 1 and 2 are DN on node 3", DOWN_BOUND,
        () -> status(3).contains("DN  127.0.0.1") && status(3).contains("DN  127.0.0.2"));
    try (CqlSession session = CqlSession.builder()
        .addContactPoint(new InetSocketAddress("127.0.0.3", cqlPort))
        .withLocalDatacenter("datacenter1")
        .build()) {
      Node node3 = node(session, "127.0.0.3");
      assertThat(session.execute(SimpleStatement.newInstance("SELECT k FROM h.t").setNode(node3)
          .setConsistencyLevel(ConsistencyLevel.ONE)).all()).as("rows node 3 holds itself").hasSize(ROWS);
    }
  }

  private static Node node(CqlSession session, String address) {
    return session.getMetadata().getNodes().values().stream()
        .filter(n -> n.getBroadcastRpcAddress().get().getAddress().getHostAddress().equals(address))
        .findFirst().orElseThrow();
  }

  private static long countState(String status, String state) {
    return status.lines().filter(l -> l.startsWith(state + " ")).count();
  }

  private String status(int node) {
    return nodetool(node, "status");
  }

  private String nodetool(int node, String... command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("-h", "127.0.0." + node, "-p", Integer.toString(httpPort)));
    args.addAll(List.of(command));
    int code = io.cassette.tools.nodetool.NodetoolTestAccess.run(args.toArray(new String[0]),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return code == 0 ? out.toString(StandardCharsets.UTF_8) : "failed: " + err.toString(StandardCharsets.UTF_8);
  }

  private Process startNode(int i, String... extra) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path data = dir.resolve("n" + i);
    Files.createDirectories(data);
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "start",
        "--data-dir", data.toString(), "--listen", "127.0.0." + i, "--cql-port", Integer.toString(cqlPort),
        "--resp-port", "0", "--http-port", Integer.toString(httpPort),
        "--storage-port", Integer.toString(storagePort), "--seeds", seeds,
        "--set", "metadata_port=" + metadataPort, "--set", "heartbeat_interval=" + HEARTBEAT));
    cmd.addAll(List.of(extra));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("n" + i + ".log").toFile()));
    pb.environment().keySet().removeIf(k -> k.startsWith("CASSETTE_"));
    return pb.start();
  }

  private void awaitReady(int i, int times) throws Exception {
    Path log = dir.resolve("n" + i + ".log");
    await("node " + i + " ready", START_TIMEOUT, () -> {
      try {
        String text = Files.readString(log, StandardCharsets.ISO_8859_1);
        if (!nodes[i].isAlive()) {
          throw new AssertionError("node " + i + " exited:\n" + text);
        }
        return text.split("ready in", -1).length - 1 >= times;
      } catch (IOException e) {
        return false;
      }
    });
  }

  private void await(String what, Duration timeout, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        StringBuilder logs = new StringBuilder();
        for (int i = 1; i <= count + 1; i++) {
          Path log = dir.resolve("n" + i + ".log");
          if (Files.exists(log)) {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            logs.append("--- n").append(i).append(" (last 30 lines)\n")
                .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()))).append('\n');
          }
        }
        throw new AssertionError("timed out waiting until " + what + "\n" + logs);
      }
      Thread.sleep(200);
    }
  }

  /** Four ports free on 127.0.0.1-6 alike (every node uses the same set). */
  private void pickPorts() throws IOException {
    Random random = new Random();
    for (int attempt = 0; attempt < 50; attempt++) {
      int base = 20_000 + random.nextInt(20_000);
      if (free(base) && free(base + 1) && free(base + 2) && free(base + 3)) {
        cqlPort = base;
        httpPort = base + 1;
        storagePort = base + 2;
        metadataPort = base + 3;
        return;
      }
    }
    throw new IOException("no free port set found");
  }

  private static boolean free(int port) {
    for (int i = 1; i <= 6; i++) {
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0." + i), port));
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }
}
