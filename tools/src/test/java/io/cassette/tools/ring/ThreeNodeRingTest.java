package io.cassette.tools.ring;

import static io.cassette.tools.ring.RingProcesses.DDL_TIMEOUT;
import static io.cassette.tools.ring.RingProcesses.DOWN_BOUND;
import static io.cassette.tools.ring.RingProcesses.START_TIMEOUT;
import static io.cassette.tools.ring.RingProcesses.countState;
import static io.cassette.tools.ring.RingProcesses.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.internal.core.context.InternalDriverContext;
import com.datastax.oss.driver.internal.core.metadata.TopologyEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three real node processes ({@code Main start}, the java command bin/cassette runs) on
 * 127.0.0.1-3 with the same ports and {@code --seeds 127.0.0.1}: they form one ring
 * (nodetool status on each: 3 UN, ownership summing to 100%), a driver connected to one node
 * sees all three, DDL on node 2 reaches node 3, a node killed with SIGKILL is DN on the others
 * and the driver receives its DOWN event, and the restarted node is UN again.
 */
class ThreeNodeRingTest {
  private static final Pattern PERCENT = Pattern.compile("(\\d+\\.\\d)%");

  @RegisterExtension
  final RingProcesses ring = new RingProcesses(6);

  @Test
  void threeProcessesFormOneRing() throws Exception {
    ring.pickPorts(false);
    long start = System.nanoTime();
    ring.startAll(3);
    for (int i = 1; i <= 3; i++) {
      ring.awaitUp(i, 3);
      String status = ring.status(i);
      double owns = 0;
      Matcher m = PERCENT.matcher(status);
      while (m.find()) {
        owns += Double.parseDouble(m.group(1));
      }
      // No user keyspace yet: effective ownership by system_traces' replication (SimpleStrategy,
      // 2), as Cassandra 5.0's nodetool status without a keyspace shows it.
      assertThat(owns).as(status).isBetween(199.8, 200.2);
    }
    System.out.printf("ring of 3 formed in %d ms%n", (System.nanoTime() - start) / 1_000_000);

    // A node of another cluster_name is refused and stops with the reason.
    ring.start(4, "--set", "cluster_name=Other Ring");
    assertThat(ring.process(4).waitFor(START_TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(ring.process(4).exitValue()).isEqualTo(1);
    assertThat(Files.readString(ring.dir().resolve("n4.log"), StandardCharsets.ISO_8859_1))
        .contains("cluster name mismatch: the cluster is 'Test Cluster'");

    List<TopologyEvent> events = new CopyOnWriteArrayList<>();
    try (CqlSession session = ring.session(1)) {
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
      assertThat(ring.nodetool(2, "getendpoints", "ring", "t", "k7").trim()).isEqualTo(owner);

      indexBuiltOnOneNodeAnswersOnAnother(session, node(session, "127.0.0.1"), node2, node3);
      peersLoadIsKnownEverywhere();
      pythonDriverRoutesByToken();

      // SIGKILL node 3: the others call it DN and node 1 tells the driver.
      long killed = System.nanoTime();
      ring.kill(3);
      ring.await("node 3 is DN on node 1 and node 2", DOWN_BOUND,
          () -> ring.status(1).contains("DN  127.0.0.3") && ring.status(2).contains("DN  127.0.0.3"));
      ring.await("the driver received DOWN for node 3", DOWN_BOUND, () -> events.stream().anyMatch(e ->
          e.type == TopologyEvent.Type.SUGGEST_DOWN && e.broadcastRpcAddress.getAddress().getHostAddress()
              .equals("127.0.0.3")));
      System.out.printf("DOWN seen %d ms after kill -9%n", (System.nanoTime() - killed) / 1_000_000);

      ring.start(3);
      ring.awaitReady(3, 2);
      ring.await("node 3 is UN again on node 1", START_TIMEOUT, () -> countState(ring.status(1), "UN") == 3);
      // It caught up on the schema it missed nothing of, and still has the table.
      ring.await("node 3 serves the schema after restart", START_TIMEOUT, () -> {
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
      ring.kill(1);
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
    ring.pickPorts(false);
    ring.startAll(3);
    ring.awaitUp(1, 3);
    try (CqlSession session = ring.session(1, "QUORUM")) {
      Node node1 = node(session, "127.0.0.1");
      // RF 3 on three nodes draws no warning; RF 4 names the ring's node count (the fault lab
      // saw "higher than the number of nodes 1" here).
      assertThat(session.execute(SimpleStatement.newInstance("CREATE KEYSPACE rf3 WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}").setNode(node1).setTimeout(DDL_TIMEOUT))
          .getExecutionInfo().getWarnings()).isEmpty();
      assertThat(session.execute(SimpleStatement.newInstance("CREATE KEYSPACE rf4 WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 4}").setNode(node1).setTimeout(DDL_TIMEOUT))
          .getExecutionInfo().getWarnings())
          .containsExactly("Your replication factor 4 for keyspace rf4 is higher than the number of nodes 3");
      session.execute(SimpleStatement.newInstance("CREATE TABLE rf3.t (k int PRIMARY KEY, v int)").setNode(node1)
          .setTimeout(DDL_TIMEOUT));
      session.execute(SimpleStatement.newInstance("CREATE TABLE rf3.py (k int PRIMARY KEY, v text)").setNode(node1)
          .setTimeout(DDL_TIMEOUT));
      ring.await("the tables reached every node", START_TIMEOUT, session::checkSchemaAgreement);
      // The Python driver and cqlsh at QUORUM against RF=3 with every node up.
      int pythonRows = pythonAtQuorum("write", "OK 3 ");
      cqlshCountsAtQuorum(pythonRows);
      com.datastax.oss.driver.api.core.cql.PreparedStatement insert =
          session.prepare("INSERT INTO rf3.t (k, v) VALUES (?, ?)");
      List<Integer> acknowledged = new ArrayList<>();
      int failed = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      for (int k = 0; k < 600 && System.nanoTime() < deadline; k++) {
        if (k == 200) {
          ring.kill(3); // killed in the middle of the load
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
      ring.await("node 3 is DN on nodes 1 and 2", DOWN_BOUND,
          () -> ring.status(1).contains("DN  127.0.0.3") && ring.status(2).contains("DN  127.0.0.3"));
      com.datastax.oss.driver.api.core.cql.PreparedStatement select = session.prepare("SELECT v FROM rf3.t WHERE k = ?");
      int lost = 0;
      for (int k : acknowledged) {
        com.datastax.oss.driver.api.core.cql.Row row = session.execute(select.bind(k)).one();
        lost += row == null || row.getInt(0) != k ? 1 : 0;
      }
      assertThat(lost).as("acknowledged QUORUM writes not read back").isZero();
      // With node 3 down the Python driver and cqlsh still read everything at QUORUM.
      pythonAtQuorum("read", "OK ");
      cqlshCountsAtQuorum(pythonRows);

      ring.kill(2);
      ring.await("node 2 is DN on node 1", DOWN_BOUND, () -> ring.status(1).contains("DN  127.0.0.2"));
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
    ring.pickPorts(true); // with the Redis door
    ring.startAll(3);
    for (int i = 1; i <= 3; i++) {
      ring.awaitUp(i, 3);
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
      // An error is an answer (e.g. "ERR timeout" when a node is slower than request_timeout);
      // a lost INCR would show in the count below.
      out.lines().filter(l -> l.contains("ERR")).limit(5).forEach(l -> System.out.println("redis-cli: " + l));
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
    ring.await("the subscriber on node 3 is subscribed", Duration.ofSeconds(20), () -> heard.toString().contains("news"));
    assertThat(cliOut(1, "PUBLISH", "news", "hello")).isEqualTo("0");
    // BLPOP on node 2 woken by LPUSH on node 3.
    Process pop = cli(2, "BLPOP", "queue", "30");
    Thread.sleep(1000);
    assertThat(cliOut(3, "LPUSH", "queue", "job")).isEqualTo("1");
    assertThat(pop.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(new String(pop.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim()).isEqualTo("queue\njob");
    ring.await("the subscriber on node 3 got the message", Duration.ofSeconds(20), () -> heard.toString().contains("hello"));
    sub.destroyForcibly().waitFor();
    reader.join(5_000);
  }

  private Process cli(int node, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0." + node, "-p", Integer.toString(ring.respPort)));
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
    ring.seeds("127.0.0.1,127.0.0.2,127.0.0.3").pickPorts(false);
    long start = System.nanoTime();
    ring.startAll(5);
    for (int i = 1; i <= 5; i++) {
      ring.awaitUp(i, 5);
    }
    System.out.printf("ring of 5 formed in %d ms%n", (System.nanoTime() - start) / 1_000_000);
    try (CqlSession session = ring.session(4)) {
      assertThat(session.getMetadata().getNodes()).hasSize(5);
      ring.ddl(session, "CREATE KEYSPACE five WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
      ring.kill(3);
      ring.await("node 3 is DN on node 4", DOWN_BOUND, () -> ring.status(4).contains("DN  127.0.0.3"));
      ring.ddl(session, "CREATE TABLE five.t (k int PRIMARY KEY, v int)");
      ring.kill(2);
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
    assertThat(ring.nodetool(2, "flush")).doesNotStartWith("failed");
    String own = loadColumn(ring.status(2), "127.0.0.2");
    assertThat(own).isNotEqualTo("?").doesNotContain("bytes");
    for (int i = 1; i <= 3; i++) {
      int node = i;
      ring.await("node " + node + " shows node 2's load " + own, DOWN_BOUND,
          () -> own.equals(loadColumn(ring.status(node), "127.0.0.2")) && !ring.status(node).contains(" ? "));
      java.net.http.HttpResponse<String> dashboard = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0." + node + ":" + ring.httpPort
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

  /** Rows the Python driver writes at QUORUM into rf3.py. */
  private static final int PYTHON_ROWS = 60;

  /**
   * python_rf3_check.py (Debian's python3-cassandra, default settings, QUORUM) against keyspace
   * rf3: "write" writes and reads back {@link #PYTHON_ROWS} rows, "read" reads them back; its
   * output must start with {@code ok}. The rows there: {@link #PYTHON_ROWS}, or 0 when the
   * driver is not installed (skipped, with a message).
   */
  private int pythonAtQuorum(String mode, String ok) throws Exception {
    String python = "/usr/bin/python3";
    if (!pythonDriverInstalled(python)) {
      System.out.println("python3-cassandra not installed (apt-get install python3-cassandra): "
          + "the Python driver at QUORUM is skipped");
      return 0;
    }
    Path script = ring.dir().resolve("python_rf3_check.py");
    try (var in = ThreeNodeRingTest.class.getResourceAsStream("python_rf3_check.py")) {
      Files.write(script, in.readAllBytes());
    }
    String output = runBounded(List.of(python, script.toString(), "127.0.0.1", Integer.toString(ring.cqlPort), "rf3",
        mode, Integer.toString(PYTHON_ROWS)), 180);
    System.out.println("python driver at QUORUM (" + mode + "): " + output.trim());
    assertThat(output.lines().reduce((a, b) -> b).orElse("")).startsWith(ok).endsWith(" " + PYTHON_ROWS);
    return PYTHON_ROWS;
  }

  /**
   * cqlsh at QUORUM counts {@code rows} in rf3.py: Cassette's cqlsh (the java command bin/cassette
   * cqlsh runs), and Apache Cassandra's Python cqlsh too when one is on the PATH.
   */
  private void cqlshCountsAtQuorum(int rows) throws Exception {
    String statements = "CONSISTENCY QUORUM; SELECT count(*) FROM rf3.py;";
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String ours = runBounded(List.of(java, "-cp", System.getProperty("java.class.path"),
        "io.cassette.tools.cqlsh.CqlshMain", "127.0.0.1", Integer.toString(ring.cqlPort), "-e", statements), 120);
    assertThat(ours).as("cqlsh output").contains("Consistency level set to QUORUM").contains(" " + rows + "\n")
        .contains("(1 rows)");
    Path cqlsh = null;
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, "cqlsh"))) {
        cqlsh = Path.of(d, "cqlsh");
        break;
      }
    }
    if (cqlsh == null) {
      System.out.println("no Apache Cassandra cqlsh on the PATH (it is not packaged for Debian): only Cassette's "
          + "cqlsh was run");
      return;
    }
    String theirs = runBounded(List.of(cqlsh.toString(), "127.0.0.1", Integer.toString(ring.cqlPort), "-e",
        statements), 120);
    assertThat(theirs).as("%s output", cqlsh).contains(" " + rows + "\n").contains("(1 rows)");
  }

  private static boolean pythonDriverInstalled(String python) throws Exception {
    if (!Files.isExecutable(Path.of(python))) {
      return false;
    }
    Process probe = new ProcessBuilder(python, "-c", "import cassandra.cluster").redirectErrorStream(true).start();
    boolean done = probe.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
    if (!done) {
      probe.destroyForcibly().waitFor();
    }
    return done && probe.exitValue() == 0;
  }

  /** Runs {@code command} for at most {@code seconds}; fails unless it exits 0 in time. Its output. */
  private static String runBounded(List<String> command, int seconds) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean finished = p.waitFor(seconds, java.util.concurrent.TimeUnit.SECONDS);
    if (!finished) {
      p.destroyForcibly().waitFor();
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(finished).as("%s finished within %d s: %s", command.get(0), seconds, output).isTrue();
    assertThat(p.exitValue()).as("%s exit code; output: %s", command.get(0), output).isZero();
    return output;
  }

  /** The Python driver connected to node 1 discovers all three and routes to each key's owner. */
  private void pythonDriverRoutesByToken() throws Exception {
    String python = "/usr/bin/python3";
    Process probe = new ProcessBuilder(python, "-c", "import cassandra.cluster").redirectErrorStream(true).start();
    if (!probe.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || probe.exitValue() != 0) {
      System.out.println("python3-cassandra not installed: the Python driver part is skipped");
      return;
    }
    Path script = ring.dir().resolve("python_ring_check.py");
    try (var in = ThreeNodeRingTest.class.getResourceAsStream("python_ring_check.py")) {
      Files.write(script, in.readAllBytes());
    }
    Process p = new ProcessBuilder(python, script.toString(), "127.0.0.1", Integer.toString(ring.cqlPort), "ring")
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
}
