package io.cassette.coordinator.replication;

import java.util.LinkedHashMap;
import java.util.Map;

/** A factor per data centre: {@code {'class': 'NetworkTopologyStrategy', 'datacenter1': 3}}. */
public final class NetworkTopologyStrategy implements ReplicationStrategy {
  private final Map<String, Integer> factors;
  private final int total;

  public NetworkTopologyStrategy(Map<String, Integer> factors) {
    this.factors = Map.copyOf(factors);
    int sum = 0;
    for (int f : this.factors.values()) {
      sum += f;
    }
    this.total = sum;
  }

  /** Every option but {@code class} names a data centre (replication_factor is expanded by CQL). */
  static NetworkTopologyStrategy of(Map<String, String> replication) {
    Map<String, Integer> f = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : replication.entrySet()) {
      if (!e.getKey().equals("class") && !e.getKey().equals("replication_factor")) {
        f.put(e.getKey(), ReplicationStrategy.factor(e.getValue()));
      }
    }
    return new NetworkTopologyStrategy(f);
  }

  @Override
  public int replicationFactor() {
    return total;
  }

  @Override
  public int replicationFactor(String datacenter) {
    return factors.getOrDefault(datacenter, 0);
  }

  @Override
  public boolean isDatacenterAware() {
    return true;
  }

  @Override
  public Map<String, Integer> datacenters() {
    return factors;
  }

  @Override
  public String toString() {
    return "NetworkTopologyStrategy" + factors;
  }
}
