package io.cassette.tools.ring;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
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
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real node processes for the ring tests, as a JUnit 5 extension each test class registers
 * ({@code @RegisterExtension final RingProcesses ring = new RingProcesses(3);}): before each
 * test a new directory ({@link #dir}), after it every node started is killed (pass or fail, so
 * none outlives its test holding the ports) and the directory deleted, or kept and named when
 * the test failed (the nodes' logs).
 *
 * <p>A node is {@code Main start} (the java command bin/cassette runs) with the test's class
 * path, a 128 MB heap and 200 ms heartbeats, logging to {@code n<i>.log} in {@link #dir}. Node
 * {@code i} listens on {@link #address}(i), 127.0.0.i by default; every node uses the same ports
 * (picked free on 127.0.0.1-6 by {@link #pickPorts}, or fixed). Also the waits the tests share
 * (ready, a ring of n UN, a condition with the nodes' last log lines on a timeout), driver
 * sessions, DDL and nodetool in-process. Not thread-safe.
 */
final class RingProcesses implements AutoCloseable, BeforeEachCallback, AfterEachCallback {
  /** Heartbeats every 200 ms: a silent peer is DOWN after a few seconds instead of ~18 s. */
  static final String HEARTBEAT = "200ms";
  /** Ring formation (Raft cold start) took 21-35 s at load 30: slack for a loaded machine. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  /** phi 8 at a 200 ms interval convicts in ~4-8 s; slack for a loaded machine. */
  static final Duration DOWN_BOUND = Duration.ofSeconds(30);
  /** A schema change waits for the Raft commit (and up to 5 s for "no quorum"); the driver's default is 2 s. */
  static final Duration DDL_TIMEOUT = Duration.ofSeconds(20);
  /** Lines of each node's log shown when a wait times out. */
  private static final int LOG_TAIL_LINES = 30;

  private Path dir;
  private final Process[] nodes;
  private IntFunction<String> address = i -> "127.0.0." + i;
  private IntFunction<List<String>> launcher = i -> List.of();
  /** JVM options of the next {@link #start} of each node (e.g. a test fault), then cleared. */
  private final java.util.Map<Integer, List<String>> jvmOptions = new java.util.HashMap<>();
  private String seeds = "127.0.0.1";
  int cqlPort;
  int httpPort;
  /** 0: the node's default (storage_port, metadata_port); the Redis door is off at 0. */
  int storagePort;
  int metadataPort;
  int respPort;

  /** Up to {@code maxNodes} nodes (1..maxNodes), logging into the test's {@link #dir}. */
  RingProcesses(int maxNodes) {
    this.nodes = new Process[maxNodes + 1];
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    dir = Files.createTempDirectory("cassette-ring-");
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    close();
    if (context.getExecutionException().isPresent()) {
      System.out.println("The nodes' logs are kept in " + dir);
      return;
    }
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** This test's directory: the nodes' data ({@code n<i>}) and logs ({@code n<i>.log}). */
  Path dir() {
    return dir;
  }

  /** Where node {@code i} listens (and is reached by nodetool). */
  RingProcesses addresses(IntFunction<String> addressOfNode) {
    this.address = addressOfNode;
    return this;
  }

  /** A command each node's java runs under (e.g. {@code ip netns exec <ns>}). */
  RingProcesses launcher(IntFunction<List<String>> prefixOfNode) {
    this.launcher = prefixOfNode;
    return this;
  }

  RingProcesses seeds(String commaSeparated) {
    this.seeds = commaSeparated;
    return this;
  }

  /** Fixed ports for every node (0: the node's default; no Redis door at respPort 0). */
  RingProcesses ports(int cql, int http, int storage, int metadata, int resp) {
    cqlPort = cql;
    httpPort = http;
    storagePort = storage;
    metadataPort = metadata;
    respPort = resp;
    return this;
  }

  /** Picks CQL, HTTP, storage and metadata ports (and Redis when {@code redis}) free on 127.0.0.1-6 alike. */
  RingProcesses pickPorts(boolean redis) throws IOException {
    Random random = new Random();
    for (int attempt = 0; attempt < 50; attempt++) {
      int base = 10_000 + random.nextInt(22_000); // below the ephemeral range (32768+): between the pick and a node's bind, a client socket could take it
      if (free(base) && free(base + 1) && free(base + 2) && free(base + 3) && (!redis || free(base + 4))) {
        return ports(base, base + 1, base + 2, base + 3, redis ? base + 4 : 0);
      }
    }
    throw new IOException("no free port set found");
  }

  String address(int i) {
    return address.apply(i);
  }

  /** Adds JVM options (e.g. {@code -Dcassette.test_fault...}) to the next start of node {@code i} only. */
  RingProcesses jvmOptionsOnce(int i, String... options) {
    jvmOptions.put(i, List.of(options));
    return this;
  }

  /** Starts node {@code i} (its log appended to, so a restart's "ready in" is the next one). */
  Process start(int i, String... extra) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path data = dir.resolve("n" + i);
    Files.createDirectories(data);
    List<String> cmd = new ArrayList<>(launcher.apply(i));
    cmd.addAll(List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(jvmOptions.getOrDefault(i, List.of()));
    jvmOptions.remove(i);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "start",
        "--data-dir", data.toString(), "--listen", address(i), "--cql-port", Integer.toString(cqlPort),
        "--resp-port", Integer.toString(respPort), "--http-port", Integer.toString(httpPort), "--seeds", seeds,
        "--set", "heartbeat_interval=" + HEARTBEAT));
    if (storagePort > 0) {
      cmd.addAll(List.of("--storage-port", Integer.toString(storagePort)));
    }
    if (metadataPort > 0) {
      cmd.addAll(List.of("--set", "metadata_port=" + metadataPort));
    }
    cmd.addAll(List.of(extra));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("n" + i + ".log").toFile()));
    pb.environment().keySet().removeIf(k -> k.startsWith("CASSETTE_"));
    nodes[i] = pb.start();
    return nodes[i];
  }

  /** Starts nodes 1..n with {@code extra} flags, then waits until each has logged "ready in" once. */
  void startAll(int n, String... extra) throws Exception {
    for (int i = 1; i <= n; i++) {
      start(i, extra);
    }
    for (int i = 1; i <= n; i++) {
      awaitReady(i, 1);
    }
  }

  /** Waits (up to {@link #START_TIMEOUT}) until nodetool status on node {@code viewer} shows {@code count} UN. */
  void awaitUp(int viewer, int count) throws Exception {
    await(count + " UN on node " + viewer, START_TIMEOUT, () -> countState(status(viewer), "UN") == count);
  }

  Process process(int i) {
    return nodes[i];
  }

  /** SIGKILL, and waits for the process to be gone. */
  void kill(int i) throws InterruptedException {
    nodes[i].destroyForcibly().waitFor();
  }

  /** Waits until node {@code i} has logged "ready in" {@code times} times (restarts append); fails if it exited. */
  void awaitReady(int i, int times) throws Exception {
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

  /** Polls {@code condition} every 200 ms; past {@code timeout} fails with the nodes' last log lines. */
  void await(String what, Duration timeout, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what + "\n" + logTails());
      }
      Thread.sleep(200);
    }
  }

  /** The last lines of every node's log. */
  String logTails() throws IOException {
    StringBuilder logs = new StringBuilder();
    for (int i = 1; i < nodes.length; i++) {
      Path log = dir.resolve("n" + i + ".log");
      if (Files.exists(log)) {
        List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        logs.append("--- n").append(i).append(" (last ").append(LOG_TAIL_LINES).append(" lines)\n")
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())))
            .append('\n');
      }
    }
    return logs.toString();
  }

  String status(int node) {
    return nodetool(node, "status");
  }

  /** nodetool against node {@code node}, in this JVM: its output, or "failed: ", its output and its error. */
  String nodetool(int node, String... command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("-h", address(node), "-p", Integer.toString(httpPort)));
    args.addAll(List.of(command));
    int code = io.cassette.tools.nodetool.NodetoolTestAccess.run(args.toArray(new String[0]),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return code == 0 ? out.toString(StandardCharsets.UTF_8)
        : "failed: " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
  }

  /** Lines of nodetool status in {@code state} (UN, DN ...). */
  static long countState(String status, String state) {
    return status.lines().filter(l -> l.startsWith(state + " ")).count();
  }

  /** The driver's node whose RPC address is {@code address}. */
  static Node node(CqlSession session, String address) {
    return session.getMetadata().getNodes().values().stream()
        .filter(n -> n.getBroadcastRpcAddress().get().getAddress().getHostAddress().equals(address))
        .findFirst().orElseThrow();
  }

  /**
   * A driver session with node {@code i} as contact point, the driver's defaults otherwise but for
   * 20 s (not 5) to answer the connection's first queries: a node just started on a loaded CI
   * machine can take longer than 5 s to answer them (seen at load 40), which is not what these
   * tests check.
   */
  CqlSession session(int i) {
    return CqlSession.builder().addContactPoint(new InetSocketAddress(address(i), cqlPort))
        .withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(20))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(20)).build())
        .build();
  }

  /** Runs a schema change, waiting {@link #DDL_TIMEOUT} for it. */
  void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
  }

  /** A driver session with node {@code i} as contact point, at {@code consistency}, 10 s per request. */
  CqlSession session(int i, String consistency) {
    return CqlSession.builder()
        .addContactPoint(new InetSocketAddress(address(i), cqlPort))
        .withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withString(DefaultDriverOption.REQUEST_CONSISTENCY, consistency)
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(20))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(20)).build())
        .build();
  }

  /** Kills every node started (bounded wait). */
  @Override
  public void close() throws InterruptedException {
    for (Process p : nodes) {
      if (p != null) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
    }
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
