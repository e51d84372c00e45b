package io.cassette.cql.language;


import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lightweight transactions against Cassandra 5.0.4, statement by statement ({@code
 * differential/lwt.cql}: IF NOT EXISTS, IF EXISTS, IF col op ..., collections, UDTs, NULL,
 * static columns, conditional batches, SERIAL and LOCAL_SERIAL reads and serial levels, the
 * errors): results with their {@code [applied]} columns, column metadata and error kinds.
 *
 * <ul>
 *   <li>one node: Cassette in this JVM against {@code -Dcassandra.anchor=host:port} (one node);
 *   <li>a ring: three Cassette nodes in this JVM (RingHarness, RF 3) against a three-node
 *       Cassandra ring, {@code -Dcassandra.anchor.ring=host:port} (its first node), then with
 *       nodes gone: two nodes paused before the coordinator notices (CAS timeouts) and after it
 *       has marked them down (Unavailable at SERIAL); {@code -Dcassandra.anchor.ring.pids=p2,p3}
 *       are the Cassandra nodes to pause (SIGSTOP, SIGCONT at the end).
 * </ul>
 *
 * Each writes {@code target/lwt-differential-{node,ring}.txt} with every difference; skipped
 * without its anchor ({@code bench/lwt-anchor} starts them and runs this).
 */
@Tag("slow")
class LwtDifferentialTest {
  /**
   * Agreement last recorded; fewer is a regression (raise it when Cassette improves). One node:
   * 120 of 123 on 2026-12-02 (the 3 left were error wordings, since fixed and a fourth added:
   * all four agree on the ring, the node run is still to repeat). Ring: 127 then 128 of 132 on
   * 2026-12-02 (bench/results/2026-12-02-lwt-differential-ring.txt): the whole corpus agrees; with
   * 2 of 3 nodes gone the LWT Unavailable named QUORUM, not SERIAL (mended after), and the
   * paused QUORUM read's data flag varies between Cassandra's own runs.
   */
  static final int MIN_AGREEING_NODE = 120;
  static final int MIN_AGREEING_RING = 127;

  /**
   * The ring comparison speaks protocol v4: in v5 a CAS WriteTimeout carries a contentions
   * field (Cassandra 5.0.4 and Cassette both send it) that Java driver 4.x does not read; the
   * driver then closed the connection, and every later statement failed with "No connection
   * was available", on both sides alike (seen 2026-12-02).
   */
  static final String RING_PROTOCOL = "V4";

  @TempDir
  Path dir;

  @Test
  void oneNodeAgreesWithCassandra() throws Exception {
    String anchor = System.getProperty("cassandra.anchor");
    Assumptions.assumeTrue(anchor != null, "set -Dcassandra.anchor=host:port to run");
    List<String> corpus = corpus(1);
    List<String> theirs;
    try (CqlSession s = DifferentialCorpusTest.session(address(anchor))) {
      theirs = run(corpus, st -> answer(s, st));
    }
    List<String> ours = CorpusComparison.onOneNode(dir, address(anchor).getHostString(),
        io.cassette.cql.language.statements.TombstoneThresholds.DEFAULTS, s -> run(corpus, st -> answer(s, st)));
    compare("node", corpus, theirs, ours, MIN_AGREEING_NODE);
  }

  @Test
  void ringAgreesWithCassandraRing() throws Exception {
    String anchor = System.getProperty("cassandra.anchor.ring");
    Assumptions.assumeTrue(anchor != null, "set -Dcassandra.anchor.ring=host:port (its first node) to run");
    List<String> pids = List.of(System.getProperty("cassandra.anchor.ring.pids", "").split(","));
    List<String> corpus = corpus(3);
    List<String> downCorpus = List.of(
        "UPDATE lwt.t SET v = 500 WHERE k = 1 IF EXISTS",
        "INSERT INTO lwt.t (k, v) VALUES (500, 1) IF NOT EXISTS",
        "@SERIAL SELECT k, v FROM lwt.t WHERE k = 1",
        "@QUORUM SELECT k, v FROM lwt.t WHERE k = 1");
    List<String> theirs;
    try (CqlSession s = DifferentialCorpusTest.session(address(anchor), RING_PROTOCOL)) {
      Node first = s.getMetadata().getNodes().values().stream()
          .filter(n -> n.getEndPoint().resolve().equals(address(anchor))).findFirst().orElseThrow();
      Function<SimpleStatement, String> on = st -> answerOrAwaitSchema(s, st.setNode(first));
      theirs = run(corpus, on);
      signal("STOP", pids);
      try {
        theirs.addAll(run(downCorpus, on)); // paused, not yet convicted: timeouts
        awaitUnavailable(on, downCorpus.get(0));
        theirs.addAll(run(downCorpus, on));
      } finally {
        signal("CONT", pids);
      }
    }
    List<String> ours;
    List<CqlServer> servers = new ArrayList<>();
    List<CqlSession> sessions = new ArrayList<>();
    try (RingHarness ring = new RingHarness(dir.resolve("ring"), 3, 16, b -> b)) {
      ring.schema(new io.cassette.coordinator.metadata.KeyspaceDefinition("warm",
          java.util.Map.of("class", "SimpleStrategy", "replication_factor", "3"), List.of(io.cassette.storage.TableSpec
              .withDefaults("warm", "t", java.util.UUID.nameUUIDFromBytes("warm.t".getBytes()))), null));
      ring.awaitConnected("warm", "t");
      // Each node's system.peers lists the other two (as a Cassandra ring's does: the RF 3
      // keyspace then draws no "higher than the number of nodes" warning); the driver talks to
      // node 0 only, as it talks to Cassandra's first node.
      List<RingView.Peer> peers = new java.util.concurrent.CopyOnWriteArrayList<>();
      List<InetSocketAddress> natives = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        int me = i;
        List<Long> tokens = ring.ring(i).member(ring.node(i).endpoint()).tokens();
        RingView view = new RingView() {
          @Override
          public List<Long> localTokens() {
            return null;
          }

          @Override
          public int storagePort() {
            return 7000;
          }

          @Override
          public List<RingView.Peer> peers() {
            return peers.stream().filter(p -> !p.peer().equals(RingHarness.address(me))).toList();
          }
        };
        CqlLanguage language = new CqlLanguage(ring.node(i).coordinator(), new NodeInfo("anchor",
            RingHarness.address(i), RingHarness.address(i), 9042, ring.node(i).endpoint().hostId(), tokens,
            NodeInfo.DEFAULT_DATA_CENTER, NodeInfo.DEFAULT_RACK, NodeInfo.RELEASE_VERSION, view));
        CqlServer server = new CqlServer(CqlServerOptions.defaults(RingHarness.address(i).getHostAddress(), 0), language);
        servers.add(server);
        InetSocketAddress a = server.start();
        natives.add(a);
        peers.add(new RingView.Peer(RingHarness.address(i), 7000, NodeInfo.DEFAULT_DATA_CENTER, NodeInfo.DEFAULT_RACK,
            ring.node(i).endpoint().hostId(), a.getAddress(), a.getPort(), NodeInfo.RELEASE_VERSION, tokens));
      }
      List<Node> own = new ArrayList<>(); // each session's own node: statements are pinned to it
      for (InetSocketAddress a : natives) {
        CqlSession session = DifferentialCorpusTest.session(a, RING_PROTOCOL);
        sessions.add(session);
        own.add(session.getMetadata().getNodes().values().stream()
            .filter(n -> n.getEndPoint().resolve().equals(a)).findFirst().orElseThrow());
      }
      // Schema goes to every node (the harness has no metadata service); the rest through node 0.
      Function<SimpleStatement, String> on = st -> {
        String q = st.getQuery().trim().toUpperCase(Locale.ROOT);
        if (q.startsWith("CREATE") || q.startsWith("ALTER") || q.startsWith("DROP")) {
          for (int i = 1; i < sessions.size(); i++) {
            answer(sessions.get(i), st.setNode(own.get(i)));
          }
        }
        return answer(sessions.get(0), st.setNode(own.get(0)));
      };
      ours = run(corpus, on);
      List<io.cassette.cluster.net.MessageFilters.Rule> cuts = List.of(
          ring.filters().allVerbs().to(RingHarness.address(1)).drop(),
          ring.filters().allVerbs().to(RingHarness.address(2)).drop());
      ours.addAll(run(downCorpus, on));
      ring.markDown(1, true);
      ring.markDown(2, true);
      ours.addAll(run(downCorpus, on));
      cuts.forEach(io.cassette.cluster.net.MessageFilters.Rule::off);
      sessions.forEach(CqlSession::close);
      servers.forEach(CqlServer::close);
    }
    List<String> all = new ArrayList<>(corpus);
    downCorpus.forEach(q -> all.add("[2 of 3 nodes paused] " + q));
    downCorpus.forEach(q -> all.add("[2 of 3 nodes down] " + q));
    compare("ring", all, theirs, ours, MIN_AGREEING_RING);
  }

  // ------------------------------------------------------------------ running

  static InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }

  static List<String> corpus(int rf) throws Exception {
    List<String> out = new ArrayList<>();
    for (String q : DifferentialCorpusTest.corpus("differential/lwt.cql")) {
      out.add(q.replace("%RF%", Integer.toString(rf)));
    }
    return out;
  }

  /** Each statement with its leading {@code @LEVEL} / {@code @SERIAL_CL=LEVEL} applied. */
  static List<String> run(List<String> corpus, Function<SimpleStatement, String> execute) {
    List<String> out = new ArrayList<>();
    for (String q : corpus) {
      out.add(execute.apply(statement(q)));
    }
    return out;
  }

  static SimpleStatement statement(String q) {
    ConsistencyLevel cl = null;
    ConsistencyLevel serial = null;
    while (q.startsWith("@")) {
      int sp = q.indexOf(' ');
      String directive = q.substring(1, sp);
      q = q.substring(sp + 1).trim();
      if (directive.startsWith("SERIAL_CL=")) {
        serial = DefaultConsistencyLevel.valueOf(directive.substring("SERIAL_CL=".length()));
      } else {
        cl = DefaultConsistencyLevel.valueOf(directive);
      }
    }
    SimpleStatement st = SimpleStatement.newInstance(q);
    if (cl != null) {
      st = st.setConsistencyLevel(cl);
    }
    if (serial != null) {
      st = st.setSerialConsistencyLevel(serial);
    }
    return st;
  }

  /**
   * The answer as DifferentialCorpusTest gives it, except timeouts and Unavailable: their kind
   * and numbers (consistency, write type, acknowledgements), not their wording.
   */
  static String answer(CqlSession s, SimpleStatement st) {
    return DifferentialCorpusTest.answer(s, st.setTimeout(java.time.Duration.ofSeconds(20)), thrown -> {
      RuntimeException e = thrown;
      // Pinned to one node, an Unavailable the retry policy passed on to the "next host" comes
      // back wrapped, with that node's address and host id in the text: compare what it wraps.
      if (e instanceof com.datastax.oss.driver.api.core.AllNodesFailedException all && all.getAllErrors().size() == 1
          && all.getAllErrors().values().iterator().next().size() == 1
          && all.getAllErrors().values().iterator().next().get(0) instanceof RuntimeException inner) {
        e = inner;
      }
      if (e instanceof WriteTimeoutException w) {
        return "ERROR WriteTimeoutException " + w.getConsistencyLevel() + " " + w.getWriteType() + " "
            + w.getReceived() + " of " + w.getBlockFor();
      }
      if (e instanceof ReadTimeoutException r) {
        return "ERROR ReadTimeoutException " + r.getConsistencyLevel() + " " + r.getReceived() + " of "
            + r.getBlockFor() + (r.wasDataPresent() ? " data" : "");
      }
      if (e instanceof UnavailableException u) {
        return "ERROR UnavailableException " + u.getConsistencyLevel() + " required " + u.getRequired() + " alive "
            + u.getAlive();
      }
      return e == thrown ? null : "ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage();
    });
  }

  private static void awaitUnavailable(Function<SimpleStatement, String> on, String q) throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (on.apply(statement(q)).contains("UnavailableException")) {
        return;
      }
      Thread.sleep(2000);
    }
  }

  private static void signal(String sig, List<String> pids) throws Exception {
    for (String p : pids) {
      if (!p.isBlank()) {
        new ProcessBuilder("kill", "-" + sig, p.trim()).inheritIO().start().waitFor();
      }
    }
  }

  private static void compare(String name, List<String> corpus, List<String> theirs, List<String> ours, int min)
      throws Exception {
    // Every answer side by side, the differing ones marked: what bench/results keeps.
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < corpus.size(); i++) {
      all.append(ours.get(i).equals(theirs.get(i)) ? "  " : "! ").append(corpus.get(i)).append('\n')
          .append("    cassandra: ").append(theirs.get(i)).append('\n')
          .append("    cassette : ").append(ours.get(i)).append('\n');
    }
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "lwt-differential-" + name + "-all.txt"), all);
    CorpusComparison.compare("LWT statements (" + name + ")", corpus, theirs, ours,
        Path.of("target", "lwt-differential-" + name + ".txt"), min);
  }

  /**
   * A schema change on a loaded Cassandra ring can take longer than a statement's 20 s: it gets
   * two minutes, and then the nodes' schema versions must agree (bounded) before the next statement.
   */
  private static String answerOrAwaitSchema(CqlSession s, SimpleStatement st) {
    String q = st.getQuery().trim().toUpperCase(Locale.ROOT);
    if (!(q.startsWith("CREATE") || q.startsWith("ALTER") || q.startsWith("DROP"))) {
      return answer(s, st);
    }
    String a = DifferentialCorpusTest.answer(s, st.setTimeout(java.time.Duration.ofSeconds(120)));
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
    while (!s.checkSchemaAgreement() && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.SECONDS.toNanos(1));
    }
    return a;
  }
}
