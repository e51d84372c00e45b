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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nodetool repair} with real node processes (issue 17): three nodes, RF=3, hints off;
 * node 3 is killed, rows are written and some deleted at QUORUM through node 1, and repair
 * fails with "Endpoint not alive" while node 3 is down. Node 3 restarts (still missing those
 * writes: no hints), {@code nodetool repair} runs to "Repair completed successfully", and with
 * nodes 1 and 2 killed node 3 alone serves every row, and none of the deleted ones, at ONE.
 */
@Tag("slow") // real processes; the in-JVM ring tests cover this path in the default suite
class RepairProcessTest {
  private static final String HEARTBEAT = "200ms";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration DOWN_BOUND = Duration.ofSeconds(30);
  private static final Duration DDL_TIMEOUT = Duration.ofSeconds(20);
  private static final int ROWS = 200;
  private static final int DELETED = 20;

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
  void repairBringsARestartedNodeTheRowsAndTombstonesItMissed() throws Exception {
    pickPorts();
    for (int i = 1; i <= 3; i++) {
      nodes[i] = startNode(i, "--set", "hinted_handoff_enabled=false");
    }
    for (int i = 1; i <= 3; i++) {
      awaitReady(i, 1);
    }
    await("3 UN on node 1", START_TIMEOUT, () -> countState(status(1), "UN") == 3);
    try (CqlSession session = CqlSession.builder()
        .addContactPoint(new InetSocketAddress("127.0.0.1", cqlPort))
        .withLocalDatacenter("datacenter1")
        .build()) {
      session.execute(SimpleStatement.newInstance("CREATE KEYSPACE r WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}").setTimeout(DDL_TIMEOUT));
      session.execute(SimpleStatement.newInstance("CREATE TABLE r.t (k int PRIMARY KEY, v text)")
          .setTimeout(DDL_TIMEOUT));
      Node node1 = node(session, "127.0.0.1");
      for (int i = 0; i < DELETED; i++) { // written everywhere, deleted while node 3 is away
        session.execute(SimpleStatement.newInstance("INSERT INTO r.t (k, v) VALUES (?, ?)", i, "old" + i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.ALL));
      }
      String equal = nodetool(1, "repair", "r");
      System.out.print(equal);
      assertThat(equal).contains(" 0 partitions (0 rows, 0 bytes").contains("Repair completed successfully");

      nodes[3].destroyForcibly().waitFor();
      await("node 3 is DN on node 1", DOWN_BOUND, () -> status(1).contains("DN  127.0.0.3"));
      for (int i = DELETED; i < ROWS; i++) {
        session.execute(SimpleStatement.newInstance("INSERT INTO r.t (k, v) VALUES (?, ?)", i, "v" + i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.QUORUM));
      }
      for (int i = 0; i < DELETED; i++) {
        session.execute(SimpleStatement.newInstance("DELETE FROM r.t WHERE k = ?", i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.QUORUM));
      }
      String refused = nodetool(1, "repair", "r");
      System.out.print(refused);
      assertThat(refused).startsWith("failed (1): ")
          .contains("Repair job has failed with the error message: Endpoint not alive: /127.0.0.3:" + storagePort);

      nodes[3] = startNode(3, "--set", "hinted_handoff_enabled=false");
      awaitReady(3, 2);
      await("node 3 UN on node 1", START_TIMEOUT, () -> countState(status(1), "UN") == 3);
      long started = System.nanoTime();
      String repaired = nodetool(1, "repair", "-full", "r");
      System.out.print(repaired);
      System.out.printf("nodetool repair took %d ms%n", (System.nanoTime() - started) / 1_000_000);
      assertThat(repaired).contains("Starting repair command #").contains("repairing keyspace r with repair options")
          .contains("(progress: 100%)").contains("Repair completed successfully")
          .containsPattern("\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}\\] Repair command #\\d+ finished in \\d+ seconds?");
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
      List<Integer> keys = new ArrayList<>();
      session.execute(SimpleStatement.newInstance("SELECT k FROM r.t").setNode(node3)
          .setConsistencyLevel(ConsistencyLevel.ONE)).forEach(r -> keys.add(r.getInt("k")));
      assertThat(keys).as("rows node 3 holds itself").hasSize(ROWS - DELETED).allMatch(k -> k >= DELETED);
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
    return code == 0 ? out.toString(StandardCharsets.UTF_8)
        : "failed (" + code + "): " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
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
