package io.cassette.coordinator.ring.membership;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Cassandra 5.0's hasQuorumOrSingleDead (paxos_topology_repair_strict_each_quorum false). */
class PaxosTopologyRepairTest {
  @Test
  void aMajorityOrAllButOneOfTheOldReplicasMustAnswer() {
    // RF=3, one being replaced: the two others suffice; one alone does not.
    assertThat(PaxosTopologyRepair.enoughAnswered(3, 2)).isTrue();
    assertThat(PaxosTopologyRepair.enoughAnswered(3, 1)).isFalse();
    // RF=2 and RF=1 with the dead node being replaced: a quorum there is every replica, so
    // whatever was accepted by one is on the survivor (or nowhere).
    assertThat(PaxosTopologyRepair.enoughAnswered(2, 1)).isTrue();
    assertThat(PaxosTopologyRepair.enoughAnswered(1, 0)).isTrue();
    assertThat(PaxosTopologyRepair.enoughAnswered(2, 0)).isFalse();
    assertThat(PaxosTopologyRepair.enoughAnswered(5, 3)).isTrue();
    assertThat(PaxosTopologyRepair.enoughAnswered(5, 2)).isFalse();
  }
}
