package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cluster.net.MessageFilters;
import io.cassette.cluster.net.Verb;
import io.cassette.cluster.net.VerbTimeouts;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.coordinator.ring.batchlog.Batchlog;
import io.cassette.coordinator.ring.batchlog.BatchlogStore;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A base replica's view updates wait in its local batch log (Cassandra's mutateMV) until their
 * paired view replica acknowledged them: with every MUTATION_REQ to node 2 dropped (a
 * partition), writes through node 0 leave batches on the base replicas; node 0's batch log is
 * closed and opened again from its files (a restart), the partition heals, and the batch logs'
 * replay gives node 2 every view row it should hold (the harness records hints but never
 * delivers them; the test delivers only the base table's, so only the batch logs carry the
 * view updates other base replicas meant for node 2). Every batch log is empty at the end.
 */
class ViewBatchlogRingTest {
  private static final Duration WRITE_TIMEOUT = Duration.ofMillis(500);
  private static final Duration REPLAY_INTERVAL = Duration.ofMillis(100);
  /**
   * The batch logs' own write timeout: they replay batches older than twice this (4 s), after
   * the partition healed. (A replay during it would write at ONE to the other view replica and
   * hint node 2, which the harness never delivers; the server's hinted handoff does.)
   */
  private static final Duration BATCHLOG_WRITE_TIMEOUT = Duration.ofSeconds(2);

  @TempDir
  Path dir;
  RingHarness ring;
  final Batchlog[] logs = new Batchlog[3];
  /** Each node's CQL language, called directly (no driver: this test is about the write path). */
  final List<CqlLanguage> languages = new ArrayList<>();

  @AfterEach
  void stop() {
    for (Batchlog log : logs) {
      if (log != null) {
        log.close();
      }
    }
    if (ring != null) {
      ring.close();
    }
  }

  private Batchlog openBatchlog(int n) {
    Batchlog log = new Batchlog(new BatchlogStore(dir.resolve("batchlog" + n), System::currentTimeMillis),
        ring.node(n).messaging(), () -> ring.ring(n), BATCHLOG_WRITE_TIMEOUT, 0,
        updates -> ring.node(n).coordinator().write(new Mutation(updates), Request.of(ConsistencyLevel.ONE)));
    ring.node(n).coordinator().batchlog(log);
    return log.start(REPLAY_INTERVAL);
  }

  @Test
  void viewUpdatesAViewReplicaMissedAreReplayedFromTheBaseReplicasBatchlog() throws Exception {
    ring = new RingHarness(dir.resolve("ring"), 3, 8,
        b -> b.timeouts(VerbTimeouts.defaults().with("write_request_timeout", WRITE_TIMEOUT)));
    for (int i = 0; i < 3; i++) {
      logs[i] = openBatchlog(i);
      CqlLanguage language = new CqlLanguage(ring.node(i).coordinator(), NodeInfo.singleNode("Test Cluster",
          RingHarness.address(i), 9042, UUID.randomUUID(), ring.ring(i).member(ring.node(i).endpoint()).tokens()));
      language.materializedViews(true);
      languages.add(language);
    }
    // The harness has no metadata service: every node applies each DDL itself (as ViewRingTest).
    for (int n = 0; n < 3; n++) {
      cql(n, "CREATE KEYSPACE IF NOT EXISTS app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}",
          Consistency.ONE);
      cql(n, "CREATE TABLE IF NOT EXISTS app.users (user int PRIMARY KEY, status int)", Consistency.ONE);
    }
    await(() -> ring.node(0).engine().table("app", "users").isPresent() && ring.node(1).engine().table("app", "users")
        .isPresent() && ring.node(2).engine().table("app", "users").isPresent(), 10_000);
    for (int n = 0; n < 3; n++) { // a view's build reads the base table on every node: each has it now
      cql(n, "CREATE MATERIALIZED VIEW IF NOT EXISTS app.by_status AS SELECT * FROM app.users"
          + " WHERE status IS NOT NULL AND user IS NOT NULL PRIMARY KEY (status, user)", Consistency.ONE);
    }
    MessageFilters.Rule partition = ring.filters().verbs(Verb.MUTATION_REQ).to(RingHarness.address(2)).drop();
    Map<Integer, Integer> rowsByStatus = new TreeMap<>();
    for (int u = 0; u < 40; u++) {
      rowsByStatus.merge(u % 10, 1, Integer::sum);
      cql(0, "INSERT INTO app.users (user, status) VALUES (" + u + ", " + (u % 10) + ")", Consistency.ONE);
    }
    Thread.sleep(3 * WRITE_TIMEOUT.toMillis()); // the sends to node 2 have timed out (and left their hints)
    assertThat(logs[0].store().size() + logs[1].store().size())
        .as("view updates for node 2 kept in the base replicas' batch logs").isPositive();

    logs[0].close(); // node 0 "restarts" its batch log: the batches are read back from its files
    logs[0] = openBatchlog(0);
    assertThat(logs[0].store().size() + logs[1].store().size()).isPositive();
    partition.off();
    // Hinted handoff of the base rows node 2 missed (the harness only records hints): node 2 then
    // computes its own share of view updates as a base replica. The view updates other base
    // replicas meant for node 2 are not delivered here: only their batch logs have them.
    for (RingHarness.Hint h : ring.hints()) {
      if (h.target().equals(ring.node(2).endpoint()) && h.mutation().updates().get(0).table().equals("users")) {
        ring.node(2).local().write(h.mutation(), Request.of(ConsistencyLevel.ONE));
      }
    }
    await(() -> logs[0].store().size() + logs[1].store().size() + logs[2].store().size() == 0, 20_000);

    // Node 2's own copy (its storage, no read repair): every view partition it is a replica of, whole.
    Map<Integer, Integer> onNode2 = new TreeMap<>();
    try (Table.CloseableIterator<PartitionView> it = ring.node(2).engine().table("app", "by_status").orElseThrow()
        .scan(KeyRange.ALL, ReadQuery.all(System.currentTimeMillis() / 1000))) {
      while (it.hasNext()) {
        PartitionView p = it.next();
        onNode2.put(java.nio.ByteBuffer.wrap(p.key().key()).getInt(), p.rows().size());
      }
    }
    Map<Integer, Integer> expected = new TreeMap<>();
    var strategy = ring.node(0).local().strategy("app");
    rowsByStatus.forEach((status, rows) -> {
      byte[] key = java.nio.ByteBuffer.allocate(4).putInt(status).array();
      if (ring.ring(0).replicas(io.cassette.storage.Murmur3Token.of(key), strategy).contains(ring.node(2).endpoint())) {
        expected.put(status, rows);
      }
    });
    assertThat(expected).as("node 2 is a view replica of some statuses").isNotEmpty();
    assertThat(onNode2).as("view rows stored on node 2 (status -> rows)").isEqualTo(expected);
    for (int n = 0; n < 3; n++) {
      for (int st = 0; st < 10; st++) {
        Result r = cql(n, "SELECT user FROM app.by_status WHERE status = " + st, Consistency.ALL);
        assertThat(((Result.Rows) r).rows()).as("status %d through node %d at ALL", st, n).hasSize(rowsByStatus.get(st));
      }
    }
  }

  private Result cql(int node, String statement, Consistency consistency) {
    QueryOptions options = new QueryOptions(consistency, List.of(), null, false, -1, null, Consistency.SERIAL,
        Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
    return languages.get(node).query(statement, options, new ClientState(new InetSocketAddress("127.0.0.1", 1)));
  }

  private static void await(BooleanSupplier condition, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met in " + millis + " ms");
      }
      Thread.sleep(20);
    }
  }
}
