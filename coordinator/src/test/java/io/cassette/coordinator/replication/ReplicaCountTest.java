package io.cassette.coordinator.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.ConsistencyLevel;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplicaCountTest {
  @Test
  void blockForFollowsTheReplicationFactor() {
    ReplicationStrategy simple = ReplicationStrategy.of(Map.of("class", "SimpleStrategy", "replication_factor", "3"));
    ReplicationStrategy nts = ReplicationStrategy.of(Map.of("class", "org.apache.cassandra.locator.NetworkTopologyStrategy",
        "datacenter1", "3", "dc2", "2"));
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.QUORUM, simple, "datacenter1")).isEqualTo(2);
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.ALL, simple, "datacenter1")).isEqualTo(3);
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.QUORUM, nts, "datacenter1")).isEqualTo(3);
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.LOCAL_QUORUM, nts, "datacenter1")).isEqualTo(2);
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.LOCAL_QUORUM, nts, "dc2")).isEqualTo(2);
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.EACH_QUORUM, nts, "datacenter1")).isEqualTo(4);
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.ALL, nts, "datacenter1")).isEqualTo(5);
    assertThat(ReplicaCount.blockFor(ConsistencyLevel.LOCAL_SERIAL, nts, "dc2")).isEqualTo(2);
    assertThat(ReplicationStrategy.of(Map.of("class", "SimpleStrategy", "replication_factor", "3/1"))
        .replicationFactor()).isEqualTo(3);
    assertThat(ReplicationStrategy.of(Map.of("class", "LocalStrategy"))).isSameAs(LocalStrategy.INSTANCE);
    assertThatThrownBy(() -> ReplicationStrategy.of(Map.of("class", "Nope"))).hasMessageContaining("Nope");
  }

  @Test
  void aliveCountsTheNodesThereAre() {
    Topology three = new Topology("datacenter1", Map.of("datacenter1", 3), Map.of("datacenter1", 2));
    ReplicationStrategy simple = new SimpleStrategy(3);
    ReplicaCount.check(ConsistencyLevel.QUORUM, simple, three); // 2 of 3 alive: enough
    assertThatThrownBy(() -> ReplicaCount.check(ConsistencyLevel.ALL, simple, three))
        .hasMessage("Cannot achieve consistency level ALL");
    ReplicaCount.check(ConsistencyLevel.TWO, new SimpleStrategy(2), three);
    assertThatThrownBy(() -> ReplicaCount.check(ConsistencyLevel.LOCAL_ONE,
        new NetworkTopologyStrategy(Map.of("dc2", 1)), Topology.singleNode("datacenter1")))
        .hasMessage("Cannot achieve consistency level LOCAL_ONE");
    ReplicaCount.check(ConsistencyLevel.ANY, new NetworkTopologyStrategy(Map.of("dc2", 1)), Topology.singleNode(null));
  }
}
