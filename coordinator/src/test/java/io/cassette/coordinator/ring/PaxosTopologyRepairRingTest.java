package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.ring.membership.PaxosTopologyRepair;
import io.cassette.coordinator.ring.paxos.Ballot;
import io.cassette.coordinator.ring.paxos.PaxosState;
import io.cassette.coordinator.ring.paxos.Proposal;
import io.cassette.storage.Cell;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ring change completes the Paxos rounds in progress on the ranges that move (issue 17; as
 * Cassandra 5.0's topology-change paxos repair): 4 nodes, RF 3, node 4 joins. An LWT was
 * accepted by two of the three old replicas of a key (X, which hands the range to node 4, and
 * Y, which keeps it) and committed nowhere: its coordinator died between propose and commit.
 * After the join the replicas are Y, Z and node 4; with Y down, a serial read on Z and node 4
 * must still see the value, which a quorum of the old replicas had chosen. Without the repair
 * neither Z nor node 4 knows of it and the read answers nothing.
 */
class PaxosTopologyRepairRingTest {
  static final Map<String, String> RF3 = Map.of("class", "SimpleStrategy", "replication_factor", "3");
  static final int JOINING = 3;

  @TempDir
  Path dir;
  RingHarness ring;
  final List<PaxosTopologyRepair> repairs = new ArrayList<>();

  @BeforeEach
  void start() {
    ring = new RingHarness(dir.resolve("ring"), 4);
    ring.schema(new KeyspaceDefinition("ks", RF3,
        List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
    for (int i = 0; i < ring.size(); i++) {
      RingHarness.Node n = ring.node(i);
      repairs.add(new PaxosTopologyRepair(n.local(), n.messaging(), n.coordinator()).registerHandlers());
    }
  }

  /** Opens every connection before anything is timed (the shared machine is often loaded). */
  void connectAll() throws Exception {
    for (int i = 0; i < ring.size(); i++) {
      for (int j = 0; j < ring.size(); j++) {
        if (i != j) {
          MessagingService m = ring.node(i).messaging();
          m.sendWithCallback(m.peer(RingHarness.address(j)), Message.out(Verb.ECHO_REQ, new byte[0]))
              .get(60, TimeUnit.SECONDS);
        }
      }
    }
  }

  @AfterEach
  void stop() {
    ring.close();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aRoundAcceptedByTheOldReplicasIsSeenByTheNewOnesAfterAJoin() throws Exception {
    connectAll();
    ring.joining(JOINING); // only to learn the replicas before and after
    ReplicationStrategy strategy = ring.node(0).local().strategy("ks");
    String key = null;
    List<Endpoint> before = null;
    List<Endpoint> after = null;
    for (int i = 0; key == null && i < 100_000; i++) {
      long token = Murmur3Token.of(b("key" + i));
      if (ring.ring(0).pending(token, strategy).contains(ring.node(JOINING).endpoint())) {
        key = "key" + i;
        before = ring.ring(0).replicas(token, strategy);
        after = ring.ring(0).future().replicas(token, strategy);
      }
    }
    assertThat(key).isNotNull();
    List<Endpoint> next = after;
    Endpoint x = before.stream().filter(e -> !next.contains(e)).findFirst().orElseThrow();
    Endpoint y = before.stream().filter(next::contains).findFirst().orElseThrow();
    Endpoint z = next.stream().filter(e -> !e.equals(y) && !e.equals(ring.node(JOINING).endpoint()))
        .findFirst().orElseThrow();

    ring.absent(JOINING);
    // The round in progress: accepted by X and Y (a quorum of the old replicas), never committed.
    Ballot ballot = new Ballot(System.currentTimeMillis() * 1000, 0x77);
    PartitionUpdate update = PartitionUpdate.builder("ks", "t", b(key)).row(Row.of(new byte[0],
        List.of(Cell.live("v", ByteBuffer.allocate(8).putLong(0, 42).array(), ballot.micros())))).build();
    Proposal accepted = new Proposal(ballot, List.of(update));
    for (Endpoint e : List.of(x, y)) {
      ring.node(ring.indexOf(e)).coordinator().paxosStore().update("ks", "t", b(key),
          s -> new PaxosState(ballot, accepted, null));
    }

    // The join: STARTED (node 4 pending), its paxos repair, FINISHED.
    ring.joining(JOINING);
    List<String> log = new ArrayList<>();
    PaxosTopologyRepair.Summary s = repairs.get(JOINING).run(ring.ring(JOINING), "Bootstrap", log::add);
    assertThat(s.partitions()).as("rounds completed; log %s", log).isEqualTo(1);
    ring.joined();

    ring.markDown(ring.indexOf(y), true);
    Request serial = new Request(ConsistencyLevel.SERIAL, ConsistencyLevel.SERIAL, Duration.ofSeconds(5), null);
    long seen = -1;
    for (int attempt = 1; seen < 0; attempt++) { // a timeout of a loaded machine is tried again
      try {
        seen = PaxosRingTest.value(ring.node(ring.indexOf(z)).coordinator().read("ks", "t", b(key),
            ReadQuery.all(0), serial));
      } catch (io.cassette.coordinator.CoordinatorException.Timeout e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
    assertThat(seen).as("serial read on %s and node 4 after the join", z).isEqualTo(42);
    // Nothing is left in progress on the replicas that answered.
    assertThat(repairs.get(JOINING).repairLocalRanges(ring.ring(JOINING), log::add).partitions()).isZero();
  }
}
