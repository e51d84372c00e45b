package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.NetworkTopologyStrategy;
import io.cassette.coordinator.replication.SimpleStrategy;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Placement on the Murmur3 ring: owners, primary ranges, replicas, topology counts. */
class TokenRingTest {
  static final Endpoint A = new Endpoint(new UUID(0, 1), RingHarness.address(0));
  static final Endpoint B = new Endpoint(new UUID(0, 2), RingHarness.address(1));
  static final Endpoint C = new Endpoint(new UUID(0, 3), RingHarness.address(2));

  static TokenRing ring() {
    return TokenRing.builder(7, A)
        .add(A, "dc1", "r1", List.of(-100L, 200L))
        .add(B, "dc1", "r1", List.of(0L))
        .add(C, "dc2", "r1", List.of(100L))
        .alive(C, false)
        .build();
  }

  @Test
  void ownerIsTheFirstTokenAtOrAfterAndWraps() {
    TokenRing r = ring();
    assertThat(r.owner(-100)).isEqualTo(A);
    assertThat(r.owner(-99)).isEqualTo(B);
    assertThat(r.owner(0)).isEqualTo(B);
    assertThat(r.owner(1)).isEqualTo(C);
    assertThat(r.owner(150)).isEqualTo(A);
    assertThat(r.owner(201)).isEqualTo(A);            // wraps to the first token
    assertThat(r.owner(Long.MIN_VALUE + 1)).isEqualTo(A);
    assertThat(r.epoch()).isEqualTo(7);
    assertThat(r.self()).isEqualTo(A);
  }

  @Test
  void primaryRangesCoverTheRingOnce() {
    TokenRing r = ring();
    assertThat(r.ranges(A)).containsExactly(new Range(Long.MIN_VALUE, -100), new Range(100, 200),
        new Range(200, Long.MAX_VALUE));
    assertThat(r.ranges(B)).containsExactly(new Range(-100, 0));
    assertThat(r.ranges(C)).containsExactly(new Range(0, 100));
    long covered = 0;
    long prevEnd = Long.MIN_VALUE;
    for (TokenRing.Owned o : r.rangesInTokenOrder()) {
      assertThat(o.range().start()).isEqualTo(prevEnd);
      assertThat(r.owner(o.range().end())).isEqualTo(o.owner());
      prevEnd = o.range().end();
      covered++;
    }
    assertThat(prevEnd).isEqualTo(Long.MAX_VALUE);
    assertThat(covered).isEqualTo(5);
  }

  @Test
  void replicasWalkTheRing() {
    TokenRing r = ring();
    assertThat(r.replicas(1, new SimpleStrategy(1))).containsExactly(C);
    assertThat(r.replicas(1, new SimpleStrategy(2))).containsExactly(C, A);
    assertThat(r.replicas(1, new SimpleStrategy(5))).containsExactly(C, A, B);
    assertThat(r.replicas(1, new NetworkTopologyStrategy(Map.of("dc1", 2)))).containsExactly(A, B);
    assertThat(r.replicas(1, LocalStrategy.INSTANCE)).containsExactly(A);
  }

  @Test
  void livenessAndTopology() {
    TokenRing r = ring();
    assertThat(r.isAlive(A)).isTrue();
    assertThat(r.isAlive(C)).isFalse();
    assertThat(r.topology().localDatacenter()).isEqualTo("dc1");
    assertThat(r.topology().nodes()).isEqualTo(Map.of("dc1", 2, "dc2", 1));
    assertThat(r.topology().live()).isEqualTo(Map.of("dc1", 2));
    assertThat(r.datacenter(C)).isEqualTo("dc2");
  }

  @Test
  void aRingWithoutTokensIsThisNode() {
    TokenRing r = TokenRing.builder(0, A).build();
    assertThat(r.owner(42)).isEqualTo(A);
    assertThat(r.ranges(A)).containsExactly(new Range(Long.MIN_VALUE, Long.MAX_VALUE));
    assertThat(r.topology().totalLive()).isEqualTo(1);
  }

  @Test
  void aTokenHeldTwiceIsRefused() {
    assertThatThrownBy(() -> TokenRing.builder(1, A).add(A, null, null, List.of(5L)).add(B, null, null, List.of(5L))
        .build()).isInstanceOf(IllegalArgumentException.class);
  }

  static Endpoint node(int i) {
    return new Endpoint(new UUID(0, 100 + i), RingHarness.address(i));
  }

  @Test
  void simpleStrategyTakesTheNextDistinctNodesClockwise() {
    // Tokens 0..5 held by N0 N1 N0 N2 N3 N1: distinct nodes are met in the order N0 N1 N2 N3.
    Endpoint[] n = {node(0), node(1), node(2), node(3)};
    TokenRing r = TokenRing.builder(1, n[0])
        .add(n[0], "dc1", "r1", List.of(0L, 20L)).add(n[1], "dc1", "r1", List.of(10L, 50L))
        .add(n[2], "dc1", "r1", List.of(30L)).add(n[3], "dc1", "r1", List.of(40L)).build();
    assertThat(r.replicas(5, new SimpleStrategy(3))).containsExactly(n[1], n[0], n[2]);
    assertThat(r.replicas(41, new SimpleStrategy(3))).containsExactly(n[1], n[0], n[2]);
    assertThat(r.replicas(35, new SimpleStrategy(2))).containsExactly(n[3], n[1]);
    assertThat(r.replicas(51, new SimpleStrategy(3))).containsExactly(n[0], n[1], n[2]); // wraps
    assertThat(r.replicas(51, new SimpleStrategy(9))).hasSize(4);
    assertThat(r.replicas(new Range(20, 30), new SimpleStrategy(2))).containsExactly(n[2], n[3]);
  }

  @Test
  void networkTopologyStrategySpreadsCopiesOverRacksAsCassandra() {
    // dc1: N0 r1, N1 r1, N2 r2, N3 r3; dc2: N4 r1, N5 r1. Ring order N0 N1 N4 N2 N5 N3.
    Endpoint[] n = {node(0), node(1), node(2), node(3), node(4), node(5)};
    TokenRing r = TokenRing.builder(1, n[0])
        .add(n[0], "dc1", "r1", List.of(0L)).add(n[1], "dc1", "r1", List.of(10L))
        .add(n[4], "dc2", "r1", List.of(20L)).add(n[2], "dc1", "r2", List.of(30L))
        .add(n[5], "dc2", "r1", List.of(40L)).add(n[3], "dc1", "r3", List.of(50L)).build();
    // dc1 factor 3 with 3 racks: N1 shares N0's rack and is passed over, N2 and N3 are taken.
    assertThat(r.replicas(-5, new NetworkTopologyStrategy(Map.of("dc1", 3)))).containsExactly(n[0], n[2], n[3]);
    // dc1 factor 2, dc2 factor 2 (one rack there: repeats allowed), in ring-walk order.
    assertThat(r.replicas(-5, new NetworkTopologyStrategy(Map.of("dc1", 2, "dc2", 2))))
        .containsExactly(n[0], n[4], n[2], n[5]);
    // dc1 factor 4 on 3 racks: one repeat allowed, taken by the first same-rack node met (N1).
    assertThat(r.replicas(-5, new NetworkTopologyStrategy(Map.of("dc1", 4)))).containsExactly(n[0], n[1], n[2], n[3]);
    // A factor larger than the DC: every node there. An unknown DC: none.
    assertThat(r.replicas(-5, new NetworkTopologyStrategy(Map.of("dc2", 5)))).containsExactly(n[4], n[5]);
    assertThat(r.replicas(-5, new NetworkTopologyStrategy(Map.of("dc9", 3)))).isEmpty();
    // From another token: starts at N3 (r3), then wraps: N0 (r1), N1 passed over, N2 (r2).
    assertThat(r.replicas(45, new NetworkTopologyStrategy(Map.of("dc1", 3)))).containsExactly(n[3], n[0], n[2]);
  }
}
