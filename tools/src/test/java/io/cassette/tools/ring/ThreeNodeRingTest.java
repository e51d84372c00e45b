package io.cassette.tools.ring;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.internal.core.context.InternalDriverContext;
import com.datastax.oss.driver.internal.core.metadata.TopologyEvent;
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
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real node processes ({@code Main start}, the java command bin/cassette runs) on
 * 127.0.0.1-3 with the same ports and {@code --seeds 127.0.0.1}: they form one ring
 * (nodetool status on each: 3 UN, ownership summing to 100%), a driver connected to one node
 * sees all three, DDL on node 2 reaches node 3, a node killed with SIGKILL is DN on the others
 * and the driver receives its DOWN event, and the restarted node is UN again.
 */
class ThreeNodeRingTest {
  /** Heartbeats every 200 ms: a silent peer is DOWN after a few seconds instead of ~18 s. */
  private static final String HEARTBEAT = "200ms";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  /** phi 8 at a 200 ms interval (window seeded with 400 ms) convicts in ~4-8 s; slack for a loaded machine. */
  private static final Duration DOWN_BOUND = Duration.ofSeconds(30);
  /** A schema change waits for the Raft commit (and up to 5 s for "no quorum"); the driver's default is 2 s. */
  private static final Duration DDL_TIMEOUT = Duration.ofSeconds(20);
  private static final Pattern PERCENT = Pattern.compile("(\\d+\\.\\d)%");

  @TempDir
  Path dir;
  private final Process[] nodes = new Process[7];
  private String seeds = "127.0.0.1";
  private int count = 3;
  private int cqlPort;
  private int httpPort;
  private int storagePort;
  private int metadataPort;
  /** The Redis port of every node; 0 (the door off) unless a test turns it on. */
  private int respPort;

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
  void threeProcessesFormOneRing() throws Exception {
    pickPorts();
    long start = System.nanoTime();
    for (int i = 1; i <= 3; i++) {
      nodes[i] = startNode(i);
    }
    for (int i = 1; i <= 3; i++) {
      awaitReady(i, 1);
    }
    for (int i = 1; i <= 3; i++) {
      int node = i;
      await("nodetool status on node " + node + " shows 3 UN", START_TIMEOUT,
          () -> countState(status(node), "UN") == 3);
      String status = status(node);
      double owns = 0;
      Matcher m = PERCENT.matcher(status);
      while (m.find()) {
        owns += Double.parseDouble(m.group(1));
      }
      assertThat(owns).as(status).isBetween(99.8, 100.2);
    }
    System.out.printf("ring of 3 formed in %d ms%n", (System.nanoTime() - start) / 1_000_000);

    // A node of another cluster_name is refused and stops with the reason.
    nodes[4] = startNode(4, "--set", "cluster_name=Other Ring");
    assertThat(nodes[4].waitFor(START_TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(nodes[4].exitValue()).isEqualTo(1);
    assertThat(Files.readString(dir.resolve("n4.log"), StandardCharsets.ISO_8859_1))
        .contains("cluster name mismatch: the cluster is 'Test Cluster'");

    List<TopologyEvent> events = new CopyOnWriteArrayList<>();
    try (CqlSession session = CqlSession.builder()
        .addContactPoint(new InetSocketAddress("127.0.0.1", cqlPort))
        .withLocalDatacenter("datacenter1")
        .build()) {
      ((InternalDriverContext) session.getContext()).getEventBus().register(TopologyEvent.class, events::add);
      assertThat(session.getMetadata().getNodes()).hasSize(3);
      Node node2 = node(session, "127.0.0.2");
      Node node3 = node(session, "127.0.0.3");
      assertThat(node3.getDatacenter()).isEqualTo("datacenter1");
      assertThat(session.getMetadata().getTokenMap()).isPresent();
      assertThat(session.getMetadata().getTokenMap().get().getTokenRanges()).hasSize(48);

      session.execute(SimpleStatement.newInstance("CREATE KEYSPACE ring WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 1}").setNode(node2).setTimeout(DDL_TIMEOUT));
      session.execute(SimpleStatement.newInstance("CREATE TABLE ring.t (k text PRIMARY KEY, v int)").setNode(node2)
          .setTimeout(DDL_TIMEOUT));
      assertThat(session.execute(SimpleStatement.newInstance(
          "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'ring'").setNode(node3)).all())
          .hasSize(1);
      assertThat(session.checkSchemaAgreement()).isTrue();
      String v1 = session.execute(SimpleStatement.newInstance("SELECT schema_version FROM system.local")
          .setNode(node(session, "127.0.0.1"))).one().getUuid(0).toString();
      String v3 = session.execute(SimpleStatement.newInstance("SELECT schema_version FROM system.local")
          .setNode(node3)).one().getUuid(0).toString();
      assertThat(v3).isEqualTo(v1);

      // Rows written through one node (token-aware: to each key's owner) are read through every node.
      for (int i = 0; i < 30; i++) {
        session.execute(SimpleStatement.newInstance("INSERT INTO ring.t (k, v) VALUES (?, ?)", "k" + i, i));
      }
      for (Node via : session.getMetadata().getNodes().values()) {
        assertThat(session.execute(SimpleStatement.newInstance("SELECT k FROM ring.t").setNode(via)).all())
            .as("scan through %s", via).hasSize(30);
        assertThat(session.execute(SimpleStatement.newInstance("SELECT v FROM ring.t WHERE k = 'k7'").setNode(via))
            .one().getInt(0)).isEqualTo(7);
      }
      // nodetool getendpoints names the replica the driver routes to.
      java.util.Set<Node> replicas = session.getMetadata().getTokenMap().get().getReplicas("ring",
          java.nio.ByteBuffer.wrap("k7".getBytes(StandardCharsets.UTF_8)));
      assertThat(replicas).hasSize(1);
      String owner = replicas.iterator().next().getBroadcastRpcAddress().get().getAddress().getHostAddress();
      assertThat(nodetool(2, "getendpoints", "ring", "t", "k7").trim()).isEqualTo(owner);

      indexBuiltOnOneNodeAnswersOnAnother(session, node(session, "127.0.0.1"), node2, node3);
      peersLoadIsKnownEverywhere();
      pythonDriverRoutesByToken();

      // SIGKILL node 3: the others call it DN and node 1 tells the driver.
      long killed = System.nanoTime();
      nodes[3].destroyForcibly().waitFor();
      await("node 3 is DN on node 1 and node 2", DOWN_BOUND,
          () -> status(1).contains("DN  127.0.0.3") && status(2).contains("DN  127.0.0.3"));
      await("the driver received DOWN for node 3", DOWN_BOUND, () -> events.stream().anyMatch(e ->
          e.type == TopologyEvent.Type.SUGGEST_DOWN && e.broadcastRpcAddress.getAddress().getHostAddress()
              .equals("127.0.0.3")));
      System.out.printf("DOWN seen %d ms after kill -9%n", (System.nanoTime() - killed) / 1_000_000);

      nodes[3] = startNode(3);
      awaitReady(3, 2);
      await("node 3 is UN again on node 1", START_TIMEOUT, () -> countState(status(1), "UN") == 3);
      // It caught up on the schema it missed nothing of, and still has the table.
      await("node 3 serves the schema after restart", START_TIMEOUT, () -> {
        try {
          return session.execute(SimpleStatement.newInstance(
              "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'ring' AND table_name = 't'")
              .setNode(node3)).all().size() == 1;
        } catch (RuntimeException e) {
          return false;
        }
      });

      // The metadata service is node 1 alone (the seed): without it DDL fails with the reason,
      // while reads and writes of partitions on the nodes left go on.
      String ownedBy2 = null;
      for (int i = 0; i < 30 && ownedBy2 == null; i++) {
        Node keyOwner = session.getMetadata().getTokenMap().get().getReplicas("ring",
            java.nio.ByteBuffer.wrap(("k" + i).getBytes(StandardCharsets.UTF_8))).iterator().next();
        if (keyOwner.equals(node2)) {
          ownedBy2 = "k" + i;
        }
      }
      assertThat(ownedBy2).isNotNull();
      nodes[1].destroyForcibly().waitFor();
      Throwable ddl = org.assertj.core.api.Assertions.catchThrowable(() -> session.execute(
          SimpleStatement.newInstance("CREATE TABLE ring.t3 (k int PRIMARY KEY)").setNode(node2)
              .setTimeout(DDL_TIMEOUT)));
      assertThat(ddl).isNotNull();
      assertThat(ddl.getMessage()).contains("metadata service unavailable: no quorum");
      session.execute(SimpleStatement.newInstance("UPDATE ring.t SET v = 100 WHERE k = ?", ownedBy2).setNode(node2));
      assertThat(session.execute(SimpleStatement.newInstance("SELECT v FROM ring.t WHERE k = ?", ownedBy2)
          .setNode(node2)).one().getInt(0)).isEqualTo(100);
    }
  }

  /**
   * Replication factor 3 on three real processes: QUORUM writes go on while one node is killed
   * with SIGKILL, every acknowledged one is read back at QUORUM (zero lost), and with two nodes
   * down QUORUM is Unavailable at once (required 2, alive 1), not a timeout.
   */
  @Test
  void replicationFactorThreeSurvivesAKilledNode() throws Exception {
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
        .withConfigLoader(com.datastax.oss.driver.api.core.config.DriverConfigLoader.programmaticBuilder()
            .withString(com.datastax.oss.driver.api.core.config.DefaultDriverOption.REQUEST_CONSISTENCY, "QUORUM")
            .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.REQUEST_TIMEOUT,
                Duration.ofSeconds(10)).build())
        .build()) {
      Node node1 = node(session, "127.0.0.1");
      session.execute(SimpleStatement.newInstance("CREATE KEYSPACE rf3 WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}").setNode(node1).setTimeout(DDL_TIMEOUT));
      session.execute(SimpleStatement.newInstance("CREATE TABLE rf3.t (k int PRIMARY KEY, v int)").setNode(node1)
          .setTimeout(DDL_TIMEOUT));
      await("the table reached every node", START_TIMEOUT, session::checkSchemaAgreement);
      com.datastax.oss.driver.api.core.cql.PreparedStatement insert =
          session.prepare("INSERT INTO rf3.t (k, v) VALUES (?, ?)");
      List<Integer> acknowledged = new ArrayList<>();
      int failed = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      for (int k = 0; k < 600 && System.nanoTime() < deadline; k++) {
        if (k == 200) {
          nodes[3].destroyForcibly().waitFor(); // killed in the middle of the load
        }
        try {
          session.execute(insert.bind(k, k));
          acknowledged.add(k);
        } catch (RuntimeException e) {
          failed++;
        }
      }
      System.out.printf("RF=3 QUORUM with node 3 killed: %d acknowledged, %d failed%n", acknowledged.size(), failed);
      assertThat(acknowledged.size()).isGreaterThan(500);
      await("node 3 is DN on nodes 1 and 2", DOWN_BOUND,
          () -> status(1).contains("DN  127.0.0.3") && status(2).contains("DN  127.0.0.3"));
      com.datastax.oss.driver.api.core.cql.PreparedStatement select = session.prepare("SELECT v FROM rf3.t WHERE k = ?");
      int lost = 0;
      for (int k : acknowledged) {
        com.datastax.oss.driver.api.core.cql.Row row = session.execute(select.bind(k)).one();
        lost += row == null || row.getInt(0) != k ? 1 : 0;
      }
      assertThat(lost).as("acknowledged QUORUM writes not read back").isZero();

      nodes[2].destroyForcibly().waitFor();
      await("node 2 is DN on node 1", DOWN_BOUND, () -> status(1).contains("DN  127.0.0.2"));
      long start = System.nanoTime();
      Throwable unavailable = org.assertj.core.api.Assertions.catchThrowable(() -> session.execute(
          insert.bind(9999, 1).setNode(node1)));
      long elapsed = System.nanoTime() - start;
      if (unavailable instanceof com.datastax.oss.driver.api.core.AllNodesFailedException all) {
        unavailable = all.getAllErrors().values().iterator().next().get(0);
      }
      assertThat(unavailable).isInstanceOfSatisfying(
          com.datastax.oss.driver.api.core.servererrors.UnavailableException.class, e -> {
            assertThat(e.getRequired()).isEqualTo(2);
            assertThat(e.getAlive()).isEqualTo(1);
          });
      assertThat(elapsed).isLessThan(Duration.ofSeconds(1).toNanos());
      // ONE still works on the node left.
      session.execute(insert.bind(9999, 1).setNode(node1)
          .setConsistencyLevel(com.datastax.oss.driver.api.core.DefaultConsistencyLevel.ONE));
    }
  }

  /**
   * redis-cli against three processes: INCRs of one key through two nodes at once are all
   * counted (each runs on the key's node), databases created at once on two nodes both exist,
   * PUBLISH reaches a subscriber on another node, BLPOP on one node is woken by LPUSH on
   * another, keys of two nodes in one command get CROSSSLOT unless they share a hash tag.
   */
  @Test
  void redisCommandsRunOnTheirKeysNode() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/redis-cli")),
        "redis-cli is not installed");
    respPort = 1; // turned on: pickPorts chooses it
    pickPorts();
    for (int i = 1; i <= 3; i++) {
      nodes[i] = startNode(i);
    }
    for (int i = 1; i <= 3; i++) {
      awaitReady(i, 1);
    }
    for (int i = 1; i <= 3; i++) {
      int node = i;
      await("nodetool status on node " + node + " shows 3 UN", START_TIMEOUT,
          () -> countState(status(node), "UN") == 3);
    }
    // Two loops of 200 INCRs through nodes 2 and 3, at once; and SELECT 3 / SELECT 4 at once.
    int n = 200;
    long t0 = System.nanoTime();
    Process a = cli(2, "-r", Integer.toString(n), "INCR", "counter");
    Process b = cli(3, "-r", Integer.toString(n), "INCR", "counter");
    Process c = cli(2, "-n", "3", "SET", "in3", "x");
    Process d = cli(3, "-n", "4", "SET", "in4", "y");
    for (Process p : new Process[] {a, b, c, d}) {
      boolean finished = p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
      if (!finished) {
        p.destroyForcibly().waitFor();
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(finished).as("redis-cli %s finished within 120 s; its output: %s", p.info().commandLine()
          .orElse("?"), out).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out).as("redis-cli output").doesNotContain("ERR");
    }
    System.out.printf("%d INCRs through two nodes in %d ms%n", 2 * n, (System.nanoTime() - t0) / 1_000_000);
    for (int i = 1; i <= 3; i++) {
      assertThat(cliOut(i, "GET", "counter")).isEqualTo(Integer.toString(2 * n));
      assertThat(cliOut(i, "-n", "3", "GET", "in3")).isEqualTo("x");
      assertThat(cliOut(i, "-n", "4", "GET", "in4")).isEqualTo("y");
    }
    assertThat(cliOut(1, "MSET", "{u}a", "1", "{u}b", "2")).isEqualTo("OK");
    assertThat(cliOut(2, "MGET", "{u}a", "{u}b")).isEqualTo("1\n2");

    // PUBLISH on node 1 reaches a subscriber on node 3.
    Process sub = cli(3, "SUBSCRIBE", "news");
    StringBuffer heard = new StringBuffer();
    Thread reader = new Thread(() -> {
      try (var in = sub.getInputStream()) {
        byte[] buf = new byte[256];
        for (int r; (r = in.read(buf)) > 0; ) {
          heard.append(new String(buf, 0, r, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        // the subscriber was stopped
      }
    });
    reader.start();
    await("the subscriber on node 3 is subscribed", Duration.ofSeconds(20), () -> heard.toString().contains("news"));
    assertThat(cliOut(1, "PUBLISH", "news", "hello")).isEqualTo("0");
    // BLPOP on node 2 woken by LPUSH on node 3.
    Process pop = cli(2, "BLPOP", "queue", "30");
    Thread.sleep(1000);
    assertThat(cliOut(3, "LPUSH", "queue", "job")).isEqualTo("1");
    assertThat(pop.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(new String(pop.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim()).isEqualTo("queue\njob");
    await("the subscriber on node 3 got the message", Duration.ofSeconds(20), () -> heard.toString().contains("hello"));
    sub.destroyForcibly().waitFor();
    reader.join(5_000);
  }

  private Process cli(int node, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0." + node, "-p", Integer.toString(respPort)));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).start();
  }

  private String cliOut(int node, String... args) throws Exception {
    Process p = cli(node, args);
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
  }

  /**
   * Five nodes, three of them (the seeds) the metadata service: losing one member leaves DDL
   * working; losing two (no majority) fails DDL with the reason while the rest goes on.
   */
  @Test
  @org.junit.jupiter.api.Tag("slow")
  void fiveProcessesAndAThreeMemberMetadataService() throws Exception {
    count = 5;
    seeds = "127.0.0.1,127.0.0.2,127.0.0.3";
    pickPorts();
    long start = System.nanoTime();
    for (int i = 1; i <= 5; i++) {
      nodes[i] = startNode(i);
    }
    for (int i = 1; i <= 5; i++) {
      awaitReady(i, 1);
    }
    for (int i = 1; i <= 5; i++) {
      int node = i;
      await("nodetool status on node " + node + " shows 5 UN", START_TIMEOUT,
          () -> countState(status(node), "UN") == 5);
    }
    System.out.printf("ring of 5 formed in %d ms%n", (System.nanoTime() - start) / 1_000_000);
    try (CqlSession session = CqlSession.builder()
        .addContactPoint(new InetSocketAddress("127.0.0.4", cqlPort))
        .withLocalDatacenter("datacenter1")
        .build()) {
      assertThat(session.getMetadata().getNodes()).hasSize(5);
      session.execute(SimpleStatement.newInstance("CREATE KEYSPACE five WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 1}").setTimeout(DDL_TIMEOUT));
      nodes[3].destroyForcibly().waitFor();
      await("node 3 is DN on node 4", DOWN_BOUND, () -> status(4).contains("DN  127.0.0.3"));
      session.execute(SimpleStatement.newInstance("CREATE TABLE five.t (k int PRIMARY KEY, v int)")
          .setTimeout(DDL_TIMEOUT));
      nodes[2].destroyForcibly().waitFor();
      Throwable ddl = org.assertj.core.api.Assertions.catchThrowable(() -> session.execute(
          SimpleStatement.newInstance("CREATE TABLE five.t2 (k int PRIMARY KEY)").setTimeout(DDL_TIMEOUT)));
      assertThat(ddl).isNotNull();
      assertThat(ddl.getMessage()).contains("metadata service unavailable: no quorum (1 of 3 members reachable)");
      assertThat(session.execute(SimpleStatement.newInstance("SELECT * FROM system.local")
          .setNode(node(session, "127.0.0.5"))).all()).hasSize(1);
    }
  }

  /**
   * CREATE INDEX through node 1 indexes the rows every node holds (the build scans the ring):
   * an index query through node 2 finds rows owned by each node, and rows written afterwards.
   */
  private void indexBuiltOnOneNodeAnswersOnAnother(CqlSession session, Node node1, Node node2, Node node3) {
    session.execute(SimpleStatement.newInstance("CREATE TABLE ring.ix (k text PRIMARY KEY, tag text)").setNode(node1)
        .setTimeout(DDL_TIMEOUT));
    java.util.Set<String> tagged = new java.util.HashSet<>();
    for (int i = 0; i < 30; i++) {
      session.execute(SimpleStatement.newInstance("INSERT INTO ring.ix (k, tag) VALUES (?, ?)", "x" + i,
          i % 2 == 0 ? "even" : "odd"));
      if (i % 2 == 0) {
        tagged.add("x" + i);
      }
    }
    session.execute(SimpleStatement.newInstance("CREATE INDEX ix_tag ON ring.ix (tag)").setNode(node1)
        .setTimeout(DDL_TIMEOUT));
    session.execute(SimpleStatement.newInstance("INSERT INTO ring.ix (k, tag) VALUES ('late', 'even')").setNode(node3));
    tagged.add("late");
    java.util.Set<String> found = new java.util.HashSet<>();
    java.util.Set<Node> owners = new java.util.HashSet<>();
    for (com.datastax.oss.driver.api.core.cql.Row row : session.execute(SimpleStatement.newInstance(
        "SELECT k FROM ring.ix WHERE tag = 'even'").setNode(node2).setTimeout(DDL_TIMEOUT))) {
      String k = row.getString(0);
      found.add(k);
      owners.addAll(session.getMetadata().getTokenMap().get().getReplicas("ring",
          java.nio.ByteBuffer.wrap(k.getBytes(StandardCharsets.UTF_8))));
    }
    assertThat(found).isEqualTo(tagged);
    assertThat(owners).as("owners of the rows found through node 2's index query").contains(node2, node3);
  }

  /** Each node's load reaches the others in heartbeat answers: no "?" in nodetool status or the dashboard. */
  private void peersLoadIsKnownEverywhere() throws Exception {
    assertThat(nodetool(2, "flush")).doesNotStartWith("failed");
    String own = loadColumn(status(2), "127.0.0.2");
    assertThat(own).isNotEqualTo("?").doesNotContain("bytes");
    for (int i = 1; i <= 3; i++) {
      int node = i;
      await("node " + node + " shows node 2's load " + own, DOWN_BOUND,
          () -> own.equals(loadColumn(status(node), "127.0.0.2")) && !status(node).contains(" ? "));
      java.net.http.HttpResponse<String> dashboard = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0." + node + ":" + httpPort
              + "/api/dashboard.json")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(dashboard.body()).contains("\"ring\":").contains("\"address\":\"127.0.0.3\"")
          .doesNotContain("\"loadBytes\":-1");
    }
  }

  /** The Load column of {@code address}'s line in nodetool status. */
  private static String loadColumn(String status, String address) {
    for (String line : status.lines().toList()) {
      String[] cols = line.split("\\s{2,}");
      if (cols.length > 2 && cols[1].equals(address)) {
        return cols[2];
      }
    }
    return "no line for " + address;
  }

  /** The Python driver connected to node 1 discovers all three and routes to each key's owner. */
  private void pythonDriverRoutesByToken() throws Exception {
    String python = "/usr/bin/python3";
    Process probe = new ProcessBuilder(python, "-c", "import cassandra.cluster").redirectErrorStream(true).start();
    if (!probe.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || probe.exitValue() != 0) {
      System.out.println("python3-cassandra not installed: the Python driver part is skipped");
      return;
    }
    Path script = dir.resolve("python_ring_check.py");
    try (var in = ThreeNodeRingTest.class.getResourceAsStream("python_ring_check.py")) {
      Files.write(script, in.readAllBytes());
    }
    Process p = new ProcessBuilder(python, script.toString(), "127.0.0.1", Integer.toString(cqlPort), "ring")
        .redirectErrorStream(true).start();
    boolean finished = p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
    if (!finished) {
      p.destroyForcibly().waitFor();
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(finished).as("python driver finished: %s", output).isTrue();
    assertThat(p.exitValue()).as("python driver output: %s", output).isZero();
    assertThat(output).contains("OK 3 60");
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
        "--resp-port", Integer.toString(respPort), "--http-port", Integer.toString(httpPort),
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
      if (free(base) && free(base + 1) && free(base + 2) && free(base + 3) && free(base + 4)) {
        cqlPort = base;
        httpPort = base + 1;
        storagePort = base + 2;
        metadataPort = base + 3;
        if (respPort != 0) {
          respPort = base + 4;
        }
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
