package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
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
   * 120 of 123 on 2026-12-02 (the 3 left are error wordings). The ring comparison has not been
   * run against a Cassandra ring yet (bench/lwt-anchor ring).
   */
  static final int MIN_AGREEING_NODE = 120;
  static final int MIN_AGREEING_RING = 0;

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
    List<String> ours;
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
          NodeInfo.singleNode("anchor", InetAddress.getByName(address(anchor).getHostString()), 9042,
              UUID.randomUUID(), List.of(0L)));
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language)) {
        InetSocketAddress a = server.start();
        try (CqlSession s = DifferentialCorpusTest.session(a)) {
          ours = run(corpus, st -> answer(s, st));
        }
      }
    }
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
    try (CqlSession s = DifferentialCorpusTest.session(address(anchor))) {
      Node first = s.getMetadata().getNodes().values().stream()
          .filter(n -> n.getEndPoint().resolve().equals(address(anchor))).findFirst().orElseThrow();
      Function<SimpleStatement, String> on = st -> answer(s, st.setNode(first));
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
      for (int i = 0; i < 3; i++) {
        CqlLanguage language = new CqlLanguage(ring.node(i).coordinator(), NodeInfo.singleNode("anchor",
            RingHarness.address(i), 9042, UUID.randomUUID(), ring.ring(i).member(ring.node(i).endpoint()).tokens()));
        CqlServer server = new CqlServer(CqlServerOptions.defaults(RingHarness.address(i).getHostAddress(), 0), language);
        servers.add(server);
        sessions.add(DifferentialCorpusTest.session(server.start()));
      }
      // Schema goes to every node (the harness has no metadata service); the rest through node 0.
      Function<SimpleStatement, String> on = st -> {
        String q = st.getQuery().trim().toUpperCase(Locale.ROOT);
        if (q.startsWith("CREATE") || q.startsWith("ALTER") || q.startsWith("DROP")) {
          for (int i = 1; i < sessions.size(); i++) {
            answer(sessions.get(i), st);
          }
        }
        return answer(sessions.get(0), st);
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
    return DifferentialCorpusTest.answer(s, st.setTimeout(java.time.Duration.ofSeconds(20)), e -> {
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
      return null;
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
    StringBuilder report = new StringBuilder();
    int agree = 0;
    for (int i = 0; i < corpus.size(); i++) {
      if (ours.get(i).equals(theirs.get(i))) {
        agree++;
      } else {
        report.append("### ").append(corpus.get(i)).append('\n')
            .append("  cassandra: ").append(theirs.get(i)).append('\n')
            .append("  cassette : ").append(ours.get(i)).append('\n');
      }
    }
    String summary = name + ": " + agree + " of " + corpus.size() + " LWT statements agree with Cassandra 5.0.4\n";
    Path out = Path.of("target", "lwt-differential-" + name + ".txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, summary + report);
    System.out.println(summary + report);
    assertThat(agree).as("statements agreeing with Cassandra (differences in %s)", out.toAbsolutePath())
        .isGreaterThanOrEqualTo(min);
  }
}
