package io.cassette.coordinator.replication;

import java.util.Map;

/**
 * How many copies of each partition a keyspace keeps, and where, from its CQL replication map
 * ({@code {'class': 'SimpleStrategy', 'replication_factor': 3}}). Issue 16 adds replica
 * placement on the ring (which nodes hold a token); the counts live here already because the
 * consistency levels are computed from them even on one node.
 */
public interface ReplicationStrategy {

  /** Copies in the whole cluster (QUORUM and ALL count these). */
  int replicationFactor();

  /** Copies in data centre {@code datacenter} (LOCAL_QUORUM counts these). */
  int replicationFactor(String datacenter);

  /** Whether copies are counted per data centre (EACH_QUORUM is then one quorum per DC). */
  default boolean isDatacenterAware() {
    return false;
  }

  /** The data centres with copies, with their factors (NetworkTopologyStrategy); else empty. */
  default Map<String, Integer> datacenters() {
    return Map.of();
  }

  /**
   * The strategy a replication map names. The class may be short or qualified
   * ({@code org.apache.cassandra.locator.SimpleStrategy}); an unknown class or a missing
   * factor is refused (CQL validates the map before it gets here).
   */
  static ReplicationStrategy of(Map<String, String> replication) {
    if (replication == null || replication.isEmpty()) {
      return LocalStrategy.INSTANCE;
    }
    String cls = replication.getOrDefault("class", "");
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    switch (simple) {
      case "SimpleStrategy":
        return new SimpleStrategy(factor(replication.get("replication_factor")));
      case "NetworkTopologyStrategy":
        return NetworkTopologyStrategy.of(replication);
      case "LocalStrategy":
      case "EverywhereStrategy":
        return LocalStrategy.INSTANCE;
      default:
        throw new IllegalArgumentException("Unable to find replication strategy class '" + cls + "'");
    }
  }

  /**
   * A factor as CQL writes it: {@code "3"}, or {@code "3/1"} (3 copies of which 1 transient;
   * transient replicas are not supported, so the full count is used).
   */
  static int factor(String value) {
    if (value == null) {
      throw new IllegalArgumentException("SimpleStrategy requires a replication_factor strategy option.");
    }
    String v = value.trim();
    int slash = v.indexOf('/');
    return Integer.parseInt(slash < 0 ? v : v.substring(0, slash).trim());
  }
}
