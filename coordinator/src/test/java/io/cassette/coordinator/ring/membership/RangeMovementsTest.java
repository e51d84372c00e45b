package io.cassette.coordinator.ring.membership;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.replication.SimpleStrategy;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.Range;
import io.cassette.coordinator.ring.TokenRing;
import java.net.InetAddress;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a join, leave or replace moves, and which writes go to pending replicas meanwhile. */
class RangeMovementsTest {
  static final Endpoint A = endpoint(1);
  static final Endpoint B = endpoint(2);
  static final Endpoint C = endpoint(3);
  static final Endpoint D = endpoint(4);
  static final SimpleStrategy RF2 = new SimpleStrategy(2);

  static Endpoint endpoint(int i) {
    try {
      return new Endpoint(new UUID(0, i), InetAddress.getByName("127.0.0." + i));
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  /** A at 100, B at 200, C at 300 (and D's tokens in the future ring). */
  static TokenRing.Builder abc() {
    return TokenRing.builder(1, A).add(A, "dc1", "r1", List.of(100L)).add(B, "dc1", "r1", List.of(200L))
        .add(C, "dc1", "r1", List.of(300L));
  }

  @Test
  void aJoiningNodeTakesTheRangesItWillReplicateFromTheNodesThatHandThemOver() {
    TokenRing future = abc().add(D, "dc1", "r1", List.of(150L)).build();
    TokenRing now = abc().future(future).build();
    List<RangeMovements.Movement> moves = RangeMovements.between(now, future, RF2);
    assertThat(moves).allMatch(m -> m.target().equals(D));
    // D replicates (100,150] (primary) and (300,MAX]+(MIN,100] (as A's successor under RF 2).
    assertThat(moves).extracting(RangeMovements.Movement::range)
        .containsExactly(new Range(Long.MIN_VALUE, 100), new Range(100, 150), new Range(300, Long.MAX_VALUE));
    // (100,150] was on B and C; C stops replicating it, so C is the first source.
    RangeMovements.Movement m = moves.get(1);
    assertThat(m.sources()).containsExactly(C, B);
    // Writes meanwhile: D is pending for its new ranges only.
    assertThat(now.pending(120, RF2)).containsExactly(D);
    assertThat(now.pending(250, RF2)).isEmpty();
    assertThat(abc().build().pending(120, RF2)).isEmpty(); // no change in progress
  }

  @Test
  void aLeavingNodesRangesGoToItsSuccessorsWithTheLeaverAsSource() {
    TokenRing future = TokenRing.builder(1, A).add(A, "dc1", "r1", List.of(100L)).add(C, "dc1", "r1", List.of(300L))
        .build();
    TokenRing now = abc().future(future).build();
    List<RangeMovements.Movement> moves = RangeMovements.between(now, future, RF2);
    assertThat(moves).isNotEmpty();
    for (RangeMovements.Movement m : moves) {
      assertThat(m.sources().get(0)).isEqualTo(B);
      assertThat(m.target()).isIn(A, C);
    }
    assertThat(now.pending(150, RF2)).containsExactly(A); // (100,200] on B, C; afterwards on C, A
  }

  @Test
  void aReplacementTakesEveryRangeOfTheDeadNode() {
    TokenRing future = TokenRing.builder(1, A).add(A, "dc1", "r1", List.of(100L)).add(D, "dc1", "r1", List.of(200L))
        .add(C, "dc1", "r1", List.of(300L)).build();
    TokenRing now = abc().future(future).build();
    List<RangeMovements.Movement> moves = RangeMovements.between(now, future, RF2);
    assertThat(moves).extracting(RangeMovements.Movement::target).containsOnly(D);
    assertThat(moves).extracting(RangeMovements.Movement::range)
        .containsExactly(new Range(Long.MIN_VALUE, 100), new Range(100, 200), new Range(300, Long.MAX_VALUE));
    assertThat(moves).allMatch(m -> m.sources().get(0).equals(B)); // the dead node first: callers skip it
    assertThat(now.pending(150, RF2)).containsExactly(D);
  }
}
