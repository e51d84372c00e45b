package io.cassette.tools.ring;

import static io.cassette.tools.ring.RingProcesses.DOWN_BOUND;
import static io.cassette.tools.ring.RingProcesses.START_TIMEOUT;
import static io.cassette.tools.ring.RingProcesses.countState;
import static io.cassette.tools.ring.RingProcesses.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code nodetool repair} with real node processes (issue 17): three nodes, RF=3, hints off;
 * node 3 is killed, rows are written and some deleted at QUORUM through node 1, and repair
 * fails with "Endpoint not alive" while node 3 is down. Node 3 restarts (still missing those
 * writes: no hints), {@code nodetool repair} runs to "Repair completed successfully", and with
 * nodes 1 and 2 killed node 3 alone serves every row, and none of the deleted ones, at ONE.
 */
@Tag("slow") // real processes; the in-JVM ring tests cover this path in the default suite
class RepairProcessTest {
  private static final int ROWS = 200;
  private static final int DELETED = 20;

  @RegisterExtension
  final RingProcesses ring = new RingProcesses(3);

  @Test
  void repairBringsARestartedNodeTheRowsAndTombstonesItMissed() throws Exception {
    ring.pickPorts(false);
    ring.startAll(3, "--set", "hinted_handoff_enabled=false");
    ring.awaitUp(1, 3);
    try (CqlSession session = ring.session(1)) {
      ring.ddl(session, "CREATE KEYSPACE r WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
      ring.ddl(session, "CREATE TABLE r.t (k int PRIMARY KEY, v text)");
      Node node1 = node(session, "127.0.0.1");
      for (int i = 0; i < DELETED; i++) { // written everywhere, deleted while node 3 is away
        session.execute(SimpleStatement.newInstance("INSERT INTO r.t (k, v) VALUES (?, ?)", i, "old" + i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.ALL));
      }
      String equal = ring.nodetool(1, "repair", "r");
      System.out.print(equal);
      assertThat(equal).contains(" 0 partitions (0 rows, 0 bytes").contains("Repair completed successfully");

      ring.kill(3);
      ring.await("node 3 is DN on node 1", DOWN_BOUND, () -> ring.status(1).contains("DN  127.0.0.3"));
      for (int i = DELETED; i < ROWS; i++) {
        session.execute(SimpleStatement.newInstance("INSERT INTO r.t (k, v) VALUES (?, ?)", i, "v" + i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.QUORUM));
      }
      for (int i = 0; i < DELETED; i++) {
        session.execute(SimpleStatement.newInstance("DELETE FROM r.t WHERE k = ?", i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.QUORUM));
      }
      String refused = ring.nodetool(1, "repair", "r");
      System.out.print(refused);
      assertThat(refused).startsWith("failed: ")
          .contains("Repair job has failed with the error message: Endpoint not alive: /127.0.0.3:" + ring.storagePort);

      ring.start(3, "--set", "hinted_handoff_enabled=false");
      ring.awaitReady(3, 2);
      ring.await("node 3 UN on node 1", START_TIMEOUT, () -> countState(ring.status(1), "UN") == 3);
      long started = System.nanoTime();
      String repaired = ring.nodetool(1, "repair", "-full", "r");
      System.out.print(repaired);
      System.out.printf("nodetool repair took %d ms%n", (System.nanoTime() - started) / 1_000_000);
      assertThat(repaired).contains("Starting repair command #").contains("repairing keyspace r with repair options")
          .contains("(progress: 100%)").contains("Repair completed successfully")
          .containsPattern("\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}\\] Repair command #\\d+ finished in \\d+ seconds?");
    }
    ring.kill(1);
    ring.kill(2);
    ring.await("nodes 1 and 2 are DN on node 3", DOWN_BOUND,
        () -> ring.status(3).contains("DN  127.0.0.1") && ring.status(3).contains("DN  127.0.0.2"));
    try (CqlSession session = ring.session(3)) {
      Node node3 = node(session, "127.0.0.3");
      List<Integer> keys = new ArrayList<>();
      session.execute(SimpleStatement.newInstance("SELECT k FROM r.t").setNode(node3)
          .setConsistencyLevel(ConsistencyLevel.ONE)).forEach(r -> keys.add(r.getInt("k")));
      assertThat(keys).as("rows node 3 holds itself").hasSize(ROWS - DELETED).allMatch(k -> k >= DELETED);
    }
  }
}
