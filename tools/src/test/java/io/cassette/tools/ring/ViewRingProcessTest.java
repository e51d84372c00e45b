package io.cassette.tools.ring;

import static io.cassette.tools.ring.RingProcesses.DOWN_BOUND;
import static io.cassette.tools.ring.RingProcesses.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Materialized views on a ring of real node processes (issue 22): three nodes, RF=3, a view
 * built over existing rows. Node 3 (a view replica of every view partition) is killed with
 * SIGKILL; inserts, updates that move rows to another view key and deletes go through node 2 at
 * QUORUM (node 2 keeps the base table's hints for node 3); then node 1 (a base replica whose
 * view updates for node 3 were only hinted, hints buffered in memory for up to
 * hints_flush_period) is killed too, before those hints reach its disk. Both restart. Node 3
 * must get every view row anyway: node 1 replays the view updates it kept in its local batch
 * log (Cassandra's mutateMV); node 2's hints give node 3 the base rows, from which it computes
 * the view rows it is paired with itself. Checked
 * through each node at ONE (each reads its own copy first: every node is a replica), then at
 * ALL through each node, and the view equals the base table.
 */
@Tag("slow") // real processes and restarts (~1-3 min); ViewBatchlogRingTest covers the replay in the default suite
class ViewRingProcessTest {
  private static final int BEFORE_VIEW = 20;
  private static final int ROWS = 120;
  /** Delivery after the restarts: hints on UP, the batch log's first replay round 10 s after start. */
  private static final Duration DELIVERY_BOUND = Duration.ofSeconds(120);

  @RegisterExtension
  final RingProcesses ring = new RingProcesses(3);

  @Test
  void aKilledViewReplicaGetsEveryViewRowAfterItAndABaseReplicaRestart() throws Exception {
    ring.pickPorts(false);
    ring.startAll(3, "--set", "materialized_views_enabled=true");
    ring.awaitUp(1, 3);
    Map<Integer, Integer> status = new TreeMap<>(); // user -> status, what the base table holds
    try (CqlSession session = ring.session(2, "QUORUM")) {
      ring.ddl(session, "CREATE KEYSPACE mv WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
      ring.ddl(session, "CREATE TABLE mv.users (user int PRIMARY KEY, status int, email text)");
      for (int u = 0; u < BEFORE_VIEW; u++) {
        insert(session, null, u, status);
      }
      ring.ddl(session, "CREATE MATERIALIZED VIEW mv.by_status AS SELECT * FROM mv.users"
          + " WHERE status IS NOT NULL AND user IS NOT NULL PRIMARY KEY (status, user)");

      ring.kill(3);
      ring.await("node 3 is DN on node 1", DOWN_BOUND, () -> ring.status(1).contains("DN  127.0.0.3"));
      Node node2 = node(session, "127.0.0.2");
      for (int u = BEFORE_VIEW; u < ROWS; u++) {
        insert(session, node2, u, status);
      }
      for (int u = 0; u < ROWS; u += 7) { // moves to another view key
        status.put(u, 10 + u % 3);
        session.execute(SimpleStatement.newInstance("UPDATE mv.users SET status = ? WHERE user = ?", 10 + u % 3, u)
            .setNode(node2));
      }
      for (int u = 1; u < ROWS; u += 11) {
        status.remove(u);
        session.execute(SimpleStatement.newInstance("DELETE FROM mv.users WHERE user = ?", u).setNode(node2));
      }
    }
    Thread.sleep(200); // the commit log hands acknowledged writes to the OS within 10 ms
    ring.kill(1); // within hints_flush_period: its hints for node 3 were still in memory

    ring.start(3);
    ring.awaitReady(3, 2);
    ring.start(1);
    ring.awaitReady(1, 2);
    ring.awaitUp(2, 3);
    long restarted = System.nanoTime();

    Map<Integer, List<Integer>> expected = new TreeMap<>(); // status -> users, what the view must hold
    status.forEach((u, st) -> expected.computeIfAbsent(st, x -> new ArrayList<>()).add(u));
    try (CqlSession s3 = ring.session(3, "ONE")) {
      Node node3 = node(s3, "127.0.0.3");
      java.util.concurrent.atomic.AtomicReference<Object> seen = new java.util.concurrent.atomic.AtomicReference<>();
      try {
        ring.await("node 3 holds every view row", DELIVERY_BOUND, () -> {
          try {
            Map<Integer, List<Integer>> v = view(s3, node3, ConsistencyLevel.ONE);
            seen.set(v);
            return v.equals(expected);
          } catch (RuntimeException e) { // a read that timed out while the ring settles
            seen.set(e);
            return false;
          }
        });
      } catch (AssertionError e) {
        throw new AssertionError("node 3's view " + seen.get() + "\nexpected " + expected, e);
      }
      System.out.printf("every view row on node 3 %d ms after the restarts%n", (System.nanoTime() - restarted) / 1_000_000);
    }
    for (int n = 1; n <= 3; n++) {
      try (CqlSession s = ring.session(n, "ONE")) {
        Node self = node(s, "127.0.0." + n);
        assertThat(view(s, self, ConsistencyLevel.ONE)).as("view through node %d at ONE", n).isEqualTo(expected);
        assertThat(view(s, self, ConsistencyLevel.ALL)).as("view through node %d at ALL", n).isEqualTo(expected);
        // the view equals the base table, row for row
        TreeSet<String> base = new TreeSet<>();
        for (Row r : s.execute(SimpleStatement.newInstance("SELECT user, status, email FROM mv.users")
            .setNode(self).setConsistencyLevel(ConsistencyLevel.ALL))) {
          base.add(r.getInt("user") + "/" + r.getInt("status") + "/" + r.getString("email"));
        }
        TreeSet<String> view = new TreeSet<>();
        for (Row r : s.execute(SimpleStatement.newInstance("SELECT user, status, email FROM mv.by_status")
            .setNode(self).setConsistencyLevel(ConsistencyLevel.ALL))) {
          view.add(r.getInt("user") + "/" + r.getInt("status") + "/" + r.getString("email"));
        }
        assertThat(base).hasSize(status.size());
        assertThat(view).as("view = base through node %d", n).isEqualTo(base);
      }
    }
  }

  private static void insert(CqlSession session, Node node, int u, Map<Integer, Integer> status) {
    status.put(u, u % 10);
    session.execute(SimpleStatement.newInstance("INSERT INTO mv.users (user, status, email) VALUES (?, ?, ?)",
        u, u % 10, "e" + u).setNode(node));
  }

  /** The view, status by status (partition reads through {@code node}), as status -> users. */
  private static Map<Integer, List<Integer>> view(CqlSession s, Node node, ConsistencyLevel cl) {
    Map<Integer, List<Integer>> out = new TreeMap<>();
    for (int st = 0; st < 13; st++) {
      for (Row r : s.execute(SimpleStatement.newInstance("SELECT user, email FROM mv.by_status WHERE status = ?", st)
          .setNode(node).setConsistencyLevel(cl))) {
        out.computeIfAbsent(st, x -> new ArrayList<>()).add(r.getInt("user"));
      }
    }
    return out;
  }
}
