package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java driver against three CQL servers whose languages sit on a ring of three
 * {@link io.cassette.coordinator.ring.RingCoordinator}s (RingHarness: one JVM, 127.0.0.1-3).
 * Each session talks to one node; the data lands on the owners. The harness has no metadata
 * service, so DDL is run on every node (IF NOT EXISTS).
 */
class CqlRingTest {
  @TempDir
  static Path dir;
  static RingHarness ring;
  static final List<CqlServer> servers = new ArrayList<>();
  static final List<CqlSession> sessions = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    ring = new RingHarness(dir, 3, 16, b -> b);
    for (int i = 0; i < 3; i++) {
      // As EndToEndDriverTest: the language reports 9042, the driver keeps its contact point.
      CqlLanguage language = new CqlLanguage(ring.node(i).coordinator(), NodeInfo.singleNode("Test Cluster",
          RingHarness.address(i), 9042, UUID.randomUUID(), ring.ring(i).member(ring.node(i).endpoint()).tokens()));
      CqlServer server = new CqlServer(CqlServerOptions.defaults(RingHarness.address(i).getHostAddress(), 0), language);
      InetSocketAddress address = server.start();
      servers.add(server);
      sessions.add(CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
          .withConfigLoader(DriverConfigLoader.programmaticBuilder()
              .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20)).build())
          .build());
    }
    everywhere("CREATE KEYSPACE IF NOT EXISTS r WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    everywhere("CREATE TABLE IF NOT EXISTS r.kv (k int, c int, v text, PRIMARY KEY (k, c))");
    everywhere("CREATE TABLE IF NOT EXISTS r.u (k text PRIMARY KEY, v int, tag text)");
    everywhere("CREATE INDEX IF NOT EXISTS u_tag ON r.u (tag)");
    everywhere("CREATE TABLE IF NOT EXISTS r.c (k text PRIMARY KEY, n counter)");
    everywhere("CREATE KEYSPACE IF NOT EXISTS r3 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
    everywhere("CREATE TABLE IF NOT EXISTS r3.kv (k int PRIMARY KEY, v text)");
    everywhere("CREATE TABLE IF NOT EXISTS r3.c (k text PRIMARY KEY, n counter)");
  }

  static SimpleStatement quorum(String cql) {
    return SimpleStatement.newInstance(cql)
        .setConsistencyLevel(com.datastax.oss.driver.api.core.DefaultConsistencyLevel.QUORUM);
  }

  static void everywhere(String ddl) {
    for (CqlSession s : sessions) {
      s.execute(ddl);
    }
  }

  @AfterAll
  static void stop() {
    sessions.forEach(CqlSession::close);
    servers.forEach(CqlServer::close);
    if (ring != null) {
      ring.close();
    }
  }

  @Test
  void writesThroughOneNodeAreReadAndPagedThroughAnother() {
    PreparedStatement insert = sessions.get(0).prepare("INSERT INTO r.kv (k, c, v) VALUES (?, ?, ?)");
    for (int i = 0; i < 300; i++) {
      sessions.get(0).execute(insert.bind(i % 60, i, "v" + i));
    }
    // Every node's engine holds only part of the table, together all of it.
    int stored = 0;
    for (int n = 0; n < 3; n++) {
      int here = 0;
      try (Table.CloseableIterator<PartitionView> it = ring.node(n).engine().table("r", "kv").orElseThrow()
          .scan(KeyRange.ALL, ReadQuery.all(Long.MAX_VALUE / 2))) {
        while (it.hasNext()) {
          it.next();
          here++;
        }
      }
      assertThat(here).as("partitions on node %d", n).isBetween(1, 59);
      stored += here;
    }
    assertThat(stored).isEqualTo(60);
    for (int n = 1; n < 3; n++) {
      List<Row> rows = sessions.get(n).execute(SimpleStatement.newInstance("SELECT k, c FROM r.kv").setPageSize(37)).all();
      assertThat(rows).hasSize(300);
      Set<Integer> cs = new HashSet<>();
      rows.forEach(r -> cs.add(r.getInt("c")));
      assertThat(cs).hasSize(300);
      assertThat(sessions.get(n).execute("SELECT v FROM r.kv WHERE k = 7 AND c = 67").one().getString("v"))
          .isEqualTo("v67");
    }
    Row count = sessions.get(2).execute("SELECT count(*) FROM r.kv").one();
    assertThat(count.getLong(0)).isEqualTo(300);
  }

  @Test
  void secondaryIndexQueriesGatherFromEveryNode() {
    for (int i = 0; i < 90; i++) {
      sessions.get(i % 3).execute("INSERT INTO r.u (k, v, tag) VALUES ('u" + i + "', " + i + ", '" + (i % 2 == 0 ? "even" : "odd") + "')");
    }
    for (CqlSession s : sessions) {
      List<Row> even = s.execute("SELECT k, v FROM r.u WHERE tag = 'even'").all();
      assertThat(even).hasSize(45);
      assertThat(even).allMatch(r -> r.getInt("v") % 2 == 0);
    }
  }

  @Test
  void lightweightTransactionsAndCountersAcrossCoordinators() {
    assertThat(sessions.get(0).execute("INSERT INTO r.u (k, v) VALUES ('lwt', 1) IF NOT EXISTS").wasApplied()).isTrue();
    assertThat(sessions.get(1).execute("INSERT INTO r.u (k, v) VALUES ('lwt', 2) IF NOT EXISTS").wasApplied()).isFalse();
    assertThat(sessions.get(2).execute("UPDATE r.u SET v = 3 WHERE k = 'lwt' IF v = 1").wasApplied()).isTrue();
    assertThat(sessions.get(0).execute("SELECT v FROM r.u WHERE k = 'lwt'").one().getInt("v")).isEqualTo(3);
    for (int i = 0; i < 30; i++) {
      sessions.get(i % 3).execute("UPDATE r.c SET n = n + 1 WHERE k = 'hits'");
    }
    assertThat(sessions.get(1).execute("SELECT n FROM r.c WHERE k = 'hits'").one().getLong("n")).isEqualTo(30);
  }

  /** Errors as a driver sees them: unavailable owner, lost messages, a table the owner lacks. */
  @Test
  void ringErrorsReachTheDriverAsCassandrasErrors() {
    int k = keyOwnedBy(1);
    sessions.get(0).execute("CREATE TABLE IF NOT EXISTS r.only0 (k int PRIMARY KEY, v int)"); // node 0 only
    Throwable failure = error(() -> sessions.get(0).execute("INSERT INTO r.only0 (k, v) VALUES (" + k + ", 1)"));
    assertThat(failure).isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.WriteFailureException.class,
        e -> {
          assertThat(e.getReasonMap()).containsEntry(RingHarness.address(1), 3); // INCOMPATIBLE_SCHEMA
          assertThat(e.getWriteType()).isEqualTo(com.datastax.oss.driver.api.core.servererrors.WriteType.SIMPLE);
        });
    assertThat(error(() -> sessions.get(0).execute("SELECT v FROM r.only0 WHERE k = " + k)))
        .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.ReadFailureException.class);

    io.cassette.cluster.net.MessageFilters.Rule drop = ring.filters()
        .verbs(io.cassette.cluster.net.Verb.READ_REQ).to(RingHarness.address(1)).drop();
    try {
      assertThat(error(() -> sessions.get(0).execute("SELECT v FROM r.kv WHERE k = " + k)))
          .isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException.class,
              e -> assertThat(e.getBlockFor()).isEqualTo(1));
    } finally {
      drop.off();
    }
    ring.markDown(1, true);
    try {
      assertThat(error(() -> sessions.get(2).execute("SELECT v FROM r.kv WHERE k = " + k)))
          .isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.UnavailableException.class, e -> {
            assertThat(e.getRequired()).isEqualTo(1);
            assertThat(e.getAlive()).isEqualTo(0);
          });
    } finally {
      ring.markDown(1, false);
    }
  }

  /** Replication factor 3: QUORUM goes on with a node down; Cassandra's errors with their fields. */
  @Test
  void replicationFactorThreeErrorsReachTheDriverWithTheirFields() {
    for (int i = 0; i < 30; i++) {
      sessions.get(i % 3).execute(quorum("INSERT INTO r3.kv (k, v) VALUES (" + i + ", 'v" + i + "')"));
      sessions.get(i % 3).execute(quorum("UPDATE r3.c SET n = n + 1 WHERE k = 'hits'"));
    }
    ring.markDown(2, true);
    io.cassette.cluster.net.MessageFilters.Rule to2 = ring.filters().allVerbs().to(RingHarness.address(2)).drop();
    try {
      for (int i = 30; i < 40; i++) {
        sessions.get(i % 2).execute(quorum("INSERT INTO r3.kv (k, v) VALUES (" + i + ", 'v" + i + "')"));
        sessions.get(i % 2).execute(quorum("UPDATE r3.c SET n = n + 1 WHERE k = 'hits'"));
      }
      for (int i = 0; i < 40; i++) {
        assertThat(sessions.get((i + 1) % 2).execute(quorum("SELECT v FROM r3.kv WHERE k = " + i)).one()
            .getString("v")).isEqualTo("v" + i);
      }
      assertThat(sessions.get(1).execute(quorum("SELECT n FROM r3.c WHERE k = 'hits'")).one().getLong("n"))
          .isEqualTo(40);
      ring.markDown(1, true);
      long start = System.nanoTime();
      assertThat(error(() -> sessions.get(0).execute(quorum("INSERT INTO r3.kv (k, v) VALUES (1, 'x')"))))
          .isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.UnavailableException.class, e -> {
            assertThat(e.getConsistencyLevel().name()).isEqualTo("QUORUM");
            assertThat(e.getRequired()).isEqualTo(2);
            assertThat(e.getAlive()).isEqualTo(1);
          });
      assertThat(System.nanoTime() - start).isLessThan(1_000_000_000L);
    } finally {
      to2.off();
      ring.markDown(1, false);
      ring.markDown(2, false);
    }
    io.cassette.cluster.net.MessageFilters.Rule writes = ring.filters()
        .verbs(io.cassette.cluster.net.Verb.MUTATION_REQ).from(RingHarness.address(0)).drop();
    try {
      assertThat(error(() -> sessions.get(0).execute(quorum("INSERT INTO r3.kv (k, v) VALUES (1, 'y')"))))
          .isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException.class, e -> {
            assertThat(e.getConsistencyLevel().name()).isEqualTo("QUORUM");
            assertThat(e.getReceived()).isEqualTo(1);
            assertThat(e.getBlockFor()).isEqualTo(2);
            assertThat(e.getWriteType()).isEqualTo(com.datastax.oss.driver.api.core.servererrors.WriteType.SIMPLE);
          });
    } finally {
      writes.off();
    }
    io.cassette.cluster.net.MessageFilters.Rule reads = ring.filters()
        .verbs(io.cassette.cluster.net.Verb.READ_REQ).from(RingHarness.address(0)).drop();
    try {
      assertThat(error(() -> sessions.get(0).execute(quorum("SELECT v FROM r3.kv WHERE k = 1"))))
          .isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException.class, e -> {
            assertThat(e.getConsistencyLevel().name()).isEqualTo("QUORUM");
            assertThat(e.getReceived()).isEqualTo(1);
            assertThat(e.getBlockFor()).isEqualTo(2);
            assertThat(e.wasDataPresent()).isTrue();
          });
    } finally {
      reads.off();
    }
    // A table only node 0 knows: both peers answer FAILURE_RSP; the driver gets the reason map.
    sessions.get(0).execute("CREATE TABLE IF NOT EXISTS r3.only0 (k int PRIMARY KEY, v int)");
    assertThat(error(() -> sessions.get(0).execute(quorum("INSERT INTO r3.only0 (k, v) VALUES (1, 1)"))))
        .isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.WriteFailureException.class, e -> {
          assertThat(e.getReceived()).isEqualTo(1);
          assertThat(e.getBlockFor()).isEqualTo(2);
          assertThat(e.getReasonMap()).containsEntry(RingHarness.address(1), 3).containsEntry(RingHarness.address(2), 3);
        });
  }

  @Test
  void preparedWritesAnswerFromTheAcknowledgementsWithoutHoldingARequestThread() throws Exception {
    // One request thread, and every replica write node 0 sends waits 250 ms: if the thread
    // waited for the acknowledgements, 24 writes would take 24 x 250 ms = 6 s at least.
    CqlLanguage language = new CqlLanguage(ring.node(0).coordinator(), NodeInfo.singleNode("Test Cluster",
        RingHarness.address(0), 9042, UUID.randomUUID(), ring.ring(0).member(ring.node(0).endpoint()).tokens()));
    CqlServerOptions d = CqlServerOptions.defaults(RingHarness.address(0).getHostAddress(), 0);
    CqlServer server = new CqlServer(new CqlServerOptions(d.host(), 0, d.maxFrameBytes(),
        d.maxConcurrentRequestsPerConnection(), 1, 1, d.authenticator(), d.idleTimeoutSeconds(), d.limits()), language);
    io.cassette.cluster.net.MessageFilters.Rule slow = ring.filters()
        .verbs(io.cassette.cluster.net.Verb.MUTATION_REQ).from(RingHarness.address(0)).delay(Duration.ofMillis(250));
    try (CqlSession session = CqlSession.builder().addContactPoint(server.start()).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
            .build()).build()) {
      PreparedStatement insert = session.prepare("INSERT INTO r3.kv (k, v) VALUES (?, ?)");
      long start = System.nanoTime();
      List<java.util.concurrent.CompletableFuture<?>> writes = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        writes.add(session.executeAsync(insert.bind(1000 + i, "async" + i)
            .setConsistencyLevel(com.datastax.oss.driver.api.core.DefaultConsistencyLevel.QUORUM)).toCompletableFuture());
      }
      for (java.util.concurrent.CompletableFuture<?> w : writes) {
        w.get(20, java.util.concurrent.TimeUnit.SECONDS);
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(slow.matched()).isGreaterThanOrEqualTo(24);
      assertThat(millis).as("24 writes with one request thread").isLessThan(4_000);
      // The replicas' answers, not the request thread, decide the outcome: a lost one is a timeout.
      slow.off();
      io.cassette.cluster.net.MessageFilters.Rule lost = ring.filters()
          .verbs(io.cassette.cluster.net.Verb.MUTATION_REQ).from(RingHarness.address(0)).drop();
      try {
        assertThat(error(() -> session.execute(insert.bind(2000, "lost")
            .setConsistencyLevel(com.datastax.oss.driver.api.core.DefaultConsistencyLevel.QUORUM))))
            .isInstanceOfSatisfying(com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException.class, e -> {
              assertThat(e.getReceived()).isEqualTo(1);
              assertThat(e.getBlockFor()).isEqualTo(2);
              assertThat(e.getWriteType()).isEqualTo(com.datastax.oss.driver.api.core.servererrors.WriteType.SIMPLE);
            });
      } finally {
        lost.off();
      }
      for (int i = 0; i < 24; i++) {
        assertThat(sessions.get(1 + i % 2).execute(quorum("SELECT v FROM r3.kv WHERE k = " + (1000 + i))).one()
            .getString("v")).isEqualTo("async" + i);
      }
    } finally {
      slow.off();
      server.close();
    }
  }

  @Test
  void preparedReadsAnswerFromTheRepliesWithoutHoldingARequestThread() throws Exception {
    // One request thread, and every read request node 0 sends waits 250 ms: if the thread
    // waited for the replicas, 24 QUORUM reads would take 24 x 250 ms = 6 s at least.
    for (int i = 0; i < 24; i++) {
      sessions.get(1).execute(quorum("INSERT INTO r3.kv (k, v) VALUES (" + (3000 + i) + ", 'read" + i + "')"));
    }
    CqlLanguage language = new CqlLanguage(ring.node(0).coordinator(), NodeInfo.singleNode("Test Cluster",
        RingHarness.address(0), 9042, UUID.randomUUID(), ring.ring(0).member(ring.node(0).endpoint()).tokens()));
    CqlServerOptions d = CqlServerOptions.defaults(RingHarness.address(0).getHostAddress(), 0);
    CqlServer server = new CqlServer(new CqlServerOptions(d.host(), 0, d.maxFrameBytes(),
        d.maxConcurrentRequestsPerConnection(), 1, 1, d.authenticator(), d.idleTimeoutSeconds(), d.limits()), language);
    io.cassette.cluster.net.MessageFilters.Rule slow = ring.filters()
        .verbs(io.cassette.cluster.net.Verb.READ_REQ).from(RingHarness.address(0)).delay(Duration.ofMillis(250));
    try (CqlSession session = CqlSession.builder().addContactPoint(server.start()).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
            .build()).build()) {
      PreparedStatement select = session.prepare("SELECT v FROM r3.kv WHERE k = ?");
      long start = System.nanoTime();
      List<java.util.concurrent.CompletableFuture<com.datastax.oss.driver.api.core.cql.AsyncResultSet>> reads =
          new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        reads.add(session.executeAsync(select.bind(3000 + i)
            .setConsistencyLevel(com.datastax.oss.driver.api.core.DefaultConsistencyLevel.QUORUM)).toCompletableFuture());
      }
      for (int i = 0; i < 24; i++) {
        assertThat(reads.get(i).get(20, java.util.concurrent.TimeUnit.SECONDS).one().getString("v")).isEqualTo("read" + i);
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(slow.matched()).isGreaterThanOrEqualTo(24);
      assertThat(millis).as("24 reads with one request thread").isLessThan(4_000);
    } finally {
      slow.off();
      server.close();
    }
  }

  @Test
  void withANodeDownTruncateFailsAndCreateIndexWorksAsCassandras() {
    everywhere("CREATE TABLE IF NOT EXISTS r3.down (k int PRIMARY KEY, v int)");
    for (int i = 0; i < 20; i++) {
      sessions.get(0).execute(quorum("INSERT INTO r3.down (k, v) VALUES (" + i + ", " + (i % 4) + ")"));
    }
    ring.markDown(2, true);
    io.cassette.cluster.net.MessageFilters.Rule to2 = ring.filters().allVerbs().to(RingHarness.address(2)).drop();
    try {
      // Cassandra 5.0.4, 3-node ring, one node stopped: TRUNCATE_ERROR, not UNAVAILABLE.
      assertThat(error(() -> sessions.get(0).execute("TRUNCATE r3.down")))
          .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.TruncateException.class)
          .hasMessage("Error during truncate: Cannot achieve consistency level ALL");
      // ... and CREATE INDEX succeeds; the index answers at QUORUM from the nodes that are up.
      sessions.get(0).execute("CREATE INDEX IF NOT EXISTS down_v ON r3.down (v)");
      sessions.get(1).execute("CREATE INDEX IF NOT EXISTS down_v ON r3.down (v)");
      assertThat(sessions.get(1).execute(quorum("SELECT k FROM r3.down WHERE v = 1")).all()).hasSize(5);
    } finally {
      to2.off();
      ring.markDown(2, false);
    }
    sessions.get(2).execute("CREATE INDEX IF NOT EXISTS down_v ON r3.down (v)");
    assertThat(sessions.get(0).execute(quorum("SELECT k FROM r3.down WHERE k = 3")).all()).hasSize(1);
  }

  /** An int partition key owned by node {@code index}. */
  static int keyOwnedBy(int index) {
    for (int k = 0; ; k++) {
      byte[] key = java.nio.ByteBuffer.allocate(4).putInt(k).array();
      if (ring.ownerIndex(io.cassette.storage.Murmur3Token.of(key)) == index) {
        return k;
      }
    }
  }

  /** The server's error, unwrapped from the driver's "all nodes failed" when it tried the next node. */
  static Throwable error(Runnable r) {
    try {
      r.run();
    } catch (com.datastax.oss.driver.api.core.AllNodesFailedException e) {
      return e.getAllErrors().values().iterator().next().get(0);
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("no error");
  }
}
