package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cluster.net.VerbTimeouts;
import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.PartitionOperation;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes that are not plain mutations reach the pending replica of a ring change too (issue 17),
 * as in Cassandra, where pending endpoints take part in a CAS's prepare, accept and commit and
 * raise each quorum (blockFor + pending): 4 nodes, RF 3, node 4 joining (its join STARTED).
 * Without it a node finishing its join would miss the LWTs and counter updates decided while it
 * streamed, and a quorum of the new replicas would not be guaranteed to hold them.
 */
class PendingReplicasRingTest {
  static final Map<String, String> RF3 = Map.of("class", "SimpleStrategy", "replication_factor", "3");
  static final Request LWT = new Request(ConsistencyLevel.QUORUM, ConsistencyLevel.SERIAL, Duration.ofSeconds(5), null);
  static final int JOINING = 3;

  @TempDir
  Path dir;
  RingHarness ring;

  @BeforeEach
  void start() {
    ring = new RingHarness(dir.resolve("ring"), 4, 16, b -> b.timeouts(VerbTimeouts.defaults()
        .with("write_request_timeout", Duration.ofMillis(5000))
        .with("read_request_timeout", Duration.ofMillis(5000))));
    ring.schema(new KeyspaceDefinition("ks", RF3,
        List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
    ring.joining(JOINING);
  }

  @AfterEach
  void stop() {
    ring.close();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Keys whose replicas now exclude the joining node and whose pending replica it is; none coordinated by it. */
  List<String> pendingKeys(int count) {
    List<String> out = new ArrayList<>();
    Endpoint joining = ring.node(JOINING).endpoint();
    for (int i = 0; out.size() < count && i < 100_000; i++) {
      String key = "key" + i;
      long token = Murmur3Token.of(b(key));
      if (ring.ring(0).pending(token, ring.node(0).local().strategy("ks")).contains(joining)
          && ring.ring(0).replicas(token, ring.node(0).local().strategy("ks")).contains(ring.node(0).endpoint())) {
        out.add(key);
      }
    }
    assertThat(out).hasSize(count);
    return out;
  }

  /** v := v + 1 (a counter update or a compare-and-set) coordinated by node 1. */
  void increment(String key, boolean cas) {
    PartitionOperation<Boolean> op = (current, writes) -> {
      long now = PaxosRingTest.value(current.read(ReadQuery.all(0)));
      writes.add(PartitionUpdate.builder("ks", "t", b(key)).row(Row.of(new byte[0],
          List.of(Cell.live("v", ByteBuffer.allocate(8).putLong(0, now + 1).array(), System.currentTimeMillis() * 1000))))
          .build());
      return true;
    };
    if (cas) {
      ring.node(0).coordinator().compareAndSet("ks", "t", b(key), op, LWT);
    } else {
      ring.node(0).coordinator().readModifyWrite("ks", "t", b(key), true, op, LWT);
    }
  }

  /** The value node {@code index} holds itself (its own engine, no coordination). */
  long localValue(int index, String key) {
    return PaxosRingTest.value(ring.node(index).local().read("ks", "t", b(key), ReadQuery.all(0),
        Request.of(ConsistencyLevel.ONE)));
  }

  /** Waits (bounded) for node {@code index} to hold {@code expected}: a commit beyond blockFor may still be on its way. */
  void awaitLocal(int index, String key, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (localValue(index, key) != expected && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(localValue(index, key)).as("%s on node %d", key, index + 1).isEqualTo(expected);
  }

  @Test
  void compareAndSetCounterAndBatchWritesReachTheJoiningNode() throws Exception {
    List<String> keys = pendingKeys(4);
    for (int i = 0; i < 3; i++) {
      increment(keys.get(0), true);
      increment(keys.get(1), false);
    }
    awaitLocal(JOINING, keys.get(0), 3);
    awaitLocal(JOINING, keys.get(1), 3);
    // A LOGGED batch of several partitions (WriteFanOut, as its batch-log replay).
    List<PartitionUpdate> updates = new ArrayList<>();
    for (String key : keys.subList(2, 4)) {
      updates.add(PartitionUpdate.builder("ks", "t", b(key)).row(Row.of(new byte[0],
          List.of(Cell.live("v", ByteBuffer.allocate(8).putLong(0, 7).array(), System.currentTimeMillis() * 1000)))).build());
    }
    // Idempotent: a timeout of a loaded machine is tried again.
    for (int attempt = 1; ; attempt++) {
      try {
        ring.node(0).coordinator().batch(updates, BatchType.LOGGED, Request.of(ConsistencyLevel.QUORUM));
        break;
      } catch (CoordinatorException.Timeout e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
    for (String key : keys.subList(2, 4)) {
      awaitLocal(JOINING, key, 7);
    }
  }

  @Test
  void theJoiningNodeRaisesThePaxosQuorum() {
    String key = pendingKeys(1).get(0);
    // Of the 3 natural replicas one (not the coordinator) is down, and the pending one too: 2 are
    // alive where SERIAL now needs quorum(3) + 1 pending = 3, so the round cannot start.
    Endpoint other = null;
    for (Endpoint e : ring.ring(0).replicas(Murmur3Token.of(b(key)), ring.node(0).local().strategy("ks"))) {
      if (!e.equals(ring.node(0).endpoint())) {
        other = e;
      }
    }
    ring.markDown(ring.indexOf(other), true);
    ring.markDown(JOINING, true);
    assertThatThrownBy(() -> increment(key, true)).isInstanceOf(CoordinatorException.Unavailable.class);
    ring.markDown(JOINING, false);
    increment(key, true); // 3 of 4 alive: the quorum is met again
  }
}
