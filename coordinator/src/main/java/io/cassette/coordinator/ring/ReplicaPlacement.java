package io.cassette.coordinator.ring;

import io.cassette.coordinator.replication.ReplicationStrategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which nodes hold a token, with Cassandra's placement rules, walking the ring clockwise from
 * the token's primary owner (the first ring token {@code >=} it). Pure functions over the
 * ring's sorted tokens; replicas are returned in the order the walk meets them (primary first).
 *
 * <ul>
 *   <li>SimpleStrategy: the next {@code replication_factor} distinct nodes, whatever their data
 *       centre or rack ({@code o.a.c.locator.SimpleStrategy}).
 *   <li>NetworkTopologyStrategy: per data centre, {@code min(factor, nodes in the DC)} nodes,
 *       rack-aware as {@code o.a.c.locator.NetworkTopologyStrategy.DatacenterEndpoints}: a node
 *       on a rack not met yet is taken; a node on a rack already met is taken only while
 *       "rack repeats" are left ({@code min(factor, nodes) - racks in the DC}), otherwise it is
 *       passed over, so copies spread over as many racks as there are before a rack holds two.
 * </ul>
 * Pending (joining/leaving) ranges are not considered here (issue 17).
 */
final class ReplicaPlacement {
  private ReplicaPlacement() {}

  /**
   * @param tokens  the ring's tokens, sorted
   * @param owners  {@code owners[i]} holds {@code tokens[i]}
   * @param start   the index of the token's primary owner in {@code tokens}
   */
  static List<Endpoint> replicas(long[] tokens, Endpoint[] owners, int start, ReplicationStrategy strategy,
                                 Map<Endpoint, TokenRing.Member> members) {
    return strategy.isDatacenterAware()
        ? networkTopology(tokens, owners, start, strategy.datacenters(), members)
        : simple(owners, start, strategy.replicationFactor(), members.size());
  }

  static List<Endpoint> simple(Endpoint[] owners, int start, int rf, int nodes) {
    int wanted = Math.min(rf, nodes);
    LinkedHashSet<Endpoint> out = new LinkedHashSet<>();
    for (int n = 0; n < owners.length && out.size() < wanted; n++) {
      out.add(owners[(start + n) % owners.length]);
    }
    return new ArrayList<>(out);
  }

  static List<Endpoint> networkTopology(long[] tokens, Endpoint[] owners, int start, Map<String, Integer> factors,
                                        Map<Endpoint, TokenRing.Member> members) {
    Map<String, Integer> nodesPerDc = new HashMap<>();
    Map<String, Set<String>> racksPerDc = new HashMap<>();
    for (TokenRing.Member m : members.values()) {
      nodesPerDc.merge(m.datacenter(), 1, Integer::sum);
      racksPerDc.computeIfAbsent(m.datacenter(), d -> new HashSet<>()).add(m.rack());
    }
    Map<String, DatacenterReplicas> dcs = new HashMap<>();
    for (Map.Entry<String, Integer> f : factors.entrySet()) {
      int nodes = nodesPerDc.getOrDefault(f.getKey(), 0);
      int racks = racksPerDc.getOrDefault(f.getKey(), Set.of()).size();
      if (f.getValue() > 0 && nodes > 0) {
        dcs.put(f.getKey(), new DatacenterReplicas(Math.min(f.getValue(), nodes), racks));
      }
    }
    List<Endpoint> out = new ArrayList<>();
    int unfinished = dcs.size();
    for (int n = 0; n < tokens.length && unfinished > 0; n++) {
      Endpoint e = owners[(start + n) % owners.length];
      TokenRing.Member m = members.get(e);
      DatacenterReplicas dc = dcs.get(m.datacenter());
      if (dc == null || dc.done() || out.contains(e)) {
        continue;
      }
      if (dc.offer(m.rack())) {
        out.add(e);
        if (dc.done()) {
          unfinished--;
        }
      }
    }
    return out;
  }

  /** One data centre's progress: copies still wanted, racks met, rack repeats still allowed. */
  private static final class DatacenterReplicas {
    private int left;
    private int rackRepeats;
    private final Set<String> racks = new HashSet<>();

    DatacenterReplicas(int wanted, int rackCount) {
      this.left = wanted;
      this.rackRepeats = wanted - rackCount;
    }

    boolean done() {
      return left <= 0;
    }

    /** Whether a node on {@code rack} is taken. */
    boolean offer(String rack) {
      if (racks.add(rack)) {
        left--;
        return true;
      }
      if (rackRepeats <= 0) {
        return false; // enough racks are left to give each remaining copy a rack of its own
      }
      rackRepeats--;
      left--;
      return true;
    }
  }
}
