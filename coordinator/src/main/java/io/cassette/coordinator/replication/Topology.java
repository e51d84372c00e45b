package io.cassette.coordinator.replication;

import java.util.Map;

/**
 * The nodes the coordinator can count on, per data centre: how many there are and how many
 * are alive (the failure detector's view on the ring). Immutable.
 *
 * @param localDatacenter the coordinator's own data centre ({@code datacenter1} by default, as
 *                        Cassandra's SimpleSnitch names it)
 * @param nodes           nodes per data centre
 * @param live            nodes per data centre currently alive
 */
public record Topology(String localDatacenter, Map<String, Integer> nodes, Map<String, Integer> live) {
  /** Cassandra's SimpleSnitch data centre name. */
  public static final String DEFAULT_DATACENTER = "datacenter1";

  public Topology {
    nodes = Map.copyOf(nodes);
    live = Map.copyOf(live);
  }

  /** This node alone, alive, in {@code datacenter}. */
  public static Topology singleNode(String datacenter) {
    String dc = datacenter == null || datacenter.isBlank() ? DEFAULT_DATACENTER : datacenter;
    return new Topology(dc, Map.of(dc, 1), Map.of(dc, 1));
  }

  public int nodes(String datacenter) {
    return nodes.getOrDefault(datacenter, 0);
  }

  public int live(String datacenter) {
    return live.getOrDefault(datacenter, 0);
  }

  public int totalNodes() {
    return sum(nodes);
  }

  /** Asked on every read and write at QUORUM (the Redis door's level): a loop, not a stream. */
  public int totalLive() {
    return sum(live);
  }

  private static int sum(Map<String, Integer> perDatacenter) {
    int n = 0;
    for (Integer v : perDatacenter.values()) {
      n += v;
    }
    return n;
  }
}
