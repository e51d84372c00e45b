package io.cassette.tools.ring;

import static io.cassette.tools.ring.RingProcesses.DOWN_BOUND;
import static io.cassette.tools.ring.RingProcesses.START_TIMEOUT;
import static io.cassette.tools.ring.RingProcesses.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hinted handoff with real node processes (issue 16): three nodes, RF=3; node 3 is killed with
 * SIGKILL, writes at ONE through node 1 leave hints there ({@code nodetool listpendinghints}
 * shows node 3 DOWN), node 3 restarts and gets them ("no pending hints" on node 1), and with
 * nodes 1 and 2 killed node 3 alone serves every row at ONE from its own storage.
 */
@Tag("slow") // real processes; the in-JVM ring tests cover this path in the default suite
class HintedHandoffProcessTest {
  private static final int ROWS = 50;

  @RegisterExtension
  final RingProcesses ring = new RingProcesses(3);

  @Test
  void hintsLeftForAKilledNodeReachItWhenItRestarts() throws Exception {
    ring.pickPorts(false);
    ring.startAll(3);
    ring.awaitUp(1, 3);
    try (CqlSession session = ring.session(1)) {
      ring.ddl(session, "CREATE KEYSPACE h WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
      ring.ddl(session, "CREATE TABLE h.t (k int PRIMARY KEY, v text)");
      assertThat(ring.nodetool(1, "listpendinghints")).isEqualTo("This node does not have any pending hints\n");

      ring.kill(3);
      ring.await("node 3 is DN on node 1", DOWN_BOUND, () -> ring.status(1).contains("DN  127.0.0.3"));
      Node node1 = node(session, "127.0.0.1");
      for (int i = 0; i < ROWS; i++) {
        session.execute(SimpleStatement.newInstance("INSERT INTO h.t (k, v) VALUES (?, ?)", i, "v" + i)
            .setNode(node1).setConsistencyLevel(ConsistencyLevel.ONE));
      }
      String pending = ring.nodetool(1, "listpendinghints");
      System.out.print(pending);
      assertThat(pending).startsWith("Host ID").contains("127.0.0.3:" + ring.storagePort).contains("DOWN")
          .contains("datacenter1").contains("rack1");
      assertThat(ring.nodetool(1, "truncatehints", "127.0.0.9")).contains("Unknown endpoint: 127.0.0.9");

      long restarted = System.nanoTime();
      ring.start(3);
      ring.awaitReady(3, 2);
      ring.await("node 1 delivered its hints", START_TIMEOUT,
          () -> ring.nodetool(1, "listpendinghints").startsWith("This node does not have any pending hints"));
      System.out.printf("hints delivered %d ms after the restart%n", (System.nanoTime() - restarted) / 1_000_000);
    }
    ring.kill(1);
    ring.kill(2);
    ring.await("nodes 1 and 2 are DN on node 3", DOWN_BOUND,
        () -> ring.status(3).contains("DN  127.0.0.1") && ring.status(3).contains("DN  127.0.0.2"));
    try (CqlSession session = ring.session(3)) {
      Node node3 = node(session, "127.0.0.3");
      assertThat(session.execute(SimpleStatement.newInstance("SELECT k FROM h.t").setNode(node3)
          .setConsistencyLevel(ConsistencyLevel.ONE)).all()).as("rows node 3 holds itself").hasSize(ROWS);
    }
  }
}
