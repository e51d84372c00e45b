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
}
