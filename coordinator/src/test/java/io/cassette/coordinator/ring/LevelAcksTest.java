package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.replication.NetworkTopologyStrategy;
import io.cassette.coordinator.replication.SimpleStrategy;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which answers count for a level, and Unavailable from the live replicas of a token. */
class LevelAcksTest {
  static Endpoint node(int i) {
    return new Endpoint(new UUID(0, 200 + i), RingHarness.address(i));
  }

  // dc1: N0 N1 N2, dc2: N3 N4 N5; this node is N0 (dc1).
  static TokenRing ring(int... down) {
    TokenRing.Builder b = TokenRing.builder(1, node(0));
    for (int i = 0; i < 6; i++) {
      b.add(node(i), i < 3 ? "dc1" : "dc2", "r1", List.of(i * 10L));
    }
    for (int d : down) {
      b.alive(node(d), false);
    }
    return b.build();
  }

  static final NetworkTopologyStrategy NTS = new NetworkTopologyStrategy(Map.of("dc1", 3, "dc2", 3));

  static List<Endpoint> all() {
    return List.of(node(0), node(1), node(2), node(3), node(4), node(5));
  }

  @Test
  void localQuorumCountsOnlyThisDataCentre() {
    LevelAcks a = new LevelAcks(ConsistencyLevel.LOCAL_QUORUM, NTS, ring());
    assertThat(a.blockFor()).isEqualTo(2);
    assertThat(a.ack(node(3))).isFalse();
    assertThat(a.ack(node(4))).isFalse();
    assertThat(a.ack(node(1))).isFalse();
    assertThat(a.ack(node(2))).isTrue();
    // Two of dc1 down: LOCAL_QUORUM unavailable (alive 1), QUORUM (4 of 6) still fine.
    assertThatThrownBy(() -> LevelAcks.requireAlive(ConsistencyLevel.LOCAL_QUORUM, NTS, ring(1, 2), all()))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.required).isEqualTo(2);
          assertThat(e.alive).isEqualTo(1);
        });
    LevelAcks.requireAlive(ConsistencyLevel.QUORUM, NTS, ring(1, 2), all());
    LevelAcks.requireAlive(ConsistencyLevel.LOCAL_ONE, NTS, ring(1, 2), all());
  }

  @Test
  void eachQuorumNeedsAQuorumInEveryDataCentre() {
    LevelAcks a = new LevelAcks(ConsistencyLevel.EACH_QUORUM, NTS, ring());
    assertThat(a.blockFor()).isEqualTo(4);
    a.ack(node(0));
    a.ack(node(1));
    a.ack(node(2));
    assertThat(a.satisfied()).isFalse(); // three in dc1 are not two in each
    assertThat(a.useful(node(1))).isFalse();
    assertThat(a.useful(node(3))).isTrue();
    a.ack(node(3));
    assertThat(a.ack(node(4))).isTrue();
    assertThatThrownBy(() -> LevelAcks.requireAlive(ConsistencyLevel.EACH_QUORUM, NTS, ring(3, 4), all()))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.getMessage()).isEqualTo("Cannot achieve consistency level EACH_QUORUM in DC dc2");
          assertThat(e.required).isEqualTo(2);
          assertThat(e.alive).isZero();
        });
  }

  @Test
  void simpleStrategyCountsEveryReplica() {
    SimpleStrategy rf3 = new SimpleStrategy(3);
    List<Endpoint> replicas = List.of(node(0), node(1), node(3));
    LevelAcks.requireAlive(ConsistencyLevel.QUORUM, rf3, ring(1), replicas);
    assertThatThrownBy(() -> LevelAcks.requireAlive(ConsistencyLevel.ALL, rf3, ring(1), replicas))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.required).isEqualTo(3);
          assertThat(e.alive).isEqualTo(2);
        });
    assertThatThrownBy(() -> LevelAcks.requireAlive(ConsistencyLevel.THREE, rf3, ring(1, 3), replicas))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> assertThat(e.alive).isEqualTo(1));
    LevelAcks.requireAlive(ConsistencyLevel.ONE, rf3, ring(1, 3), replicas);
  }
}
