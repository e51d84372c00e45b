package io.cassette.coordinator.replication;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import java.util.Map;

/**
 * How many replicas a consistency level needs (Cassandra's {@code blockFor}) and whether that
 * many are alive. The needed count comes from the replication factor, not from the nodes that
 * exist: a keyspace with factor 3 on a one-node ring needs 2 for QUORUM and has 1 alive, so
 * Cassandra answers {@code Unavailable (QUORUM, required 2, alive 1)}, and so do we.
 *
 * <p>Replicas of a token: the factor, capped by the nodes there are (one copy per node).
 * Alive replicas: capped by the live nodes. Exact on one node; the ring (issue 16) counts the
 * actual replica set of the token instead.
 */
public final class ReplicaCount {
  private ReplicaCount() {}

  public static int quorum(int replicationFactor) {
    return replicationFactor / 2 + 1;
  }

  /** Replicas that must answer {@code level} (ANY: 1, satisfied by a hint on the ring). */
  public static int blockFor(ConsistencyLevel level, ReplicationStrategy strategy, String localDatacenter) {
    switch (level) {
      case ANY:
      case ONE:
      case LOCAL_ONE:
        return 1;
      case TWO:
        return 2;
      case THREE:
        return 3;
      case QUORUM:
      case SERIAL:
        return quorum(strategy.replicationFactor());
      case ALL:
        return strategy.replicationFactor();
      case LOCAL_QUORUM:
      case LOCAL_SERIAL:
        return quorum(strategy.replicationFactor(localDatacenter));
      case EACH_QUORUM:
        if (!strategy.isDatacenterAware()) {
          return quorum(strategy.replicationFactor());
        }
        int n = 0;
        for (int rf : strategy.datacenters().values()) {
          n += quorum(rf);
        }
        return n;
      default:
        throw new IllegalArgumentException(level.toString());
    }
  }

  /** Live replicas {@code level} may count: the local data centre's for LOCAL_*, else all. */
  public static int alive(ConsistencyLevel level, ReplicationStrategy strategy, Topology topology) {
    String local = topology.localDatacenter();
    if (level.isDatacenterLocal()) {
      return liveIn(strategy, topology, local);
    }
    if (!strategy.isDatacenterAware()) {
      return Math.min(strategy.replicationFactor(), topology.totalLive());
    }
    int n = 0;
    for (String dc : strategy.datacenters().keySet()) {
      n += liveIn(strategy, topology, dc);
    }
    return n;
  }

  private static int liveIn(ReplicationStrategy strategy, Topology topology, String dc) {
    if (!strategy.isDatacenterAware()) {
      // SimpleStrategy ignores data centres: every live node may hold a copy.
      return Math.min(strategy.replicationFactor(), topology.live(dc));
    }
    return Math.min(strategy.replicationFactor(dc), topology.live(dc));
  }

  /**
   * Throws {@link CoordinatorException.Unavailable} when fewer replicas are alive than
   * {@code level} needs. ANY never fails here (a hint will do). Node-local keyspaces
   * have one copy, so TWO and THREE fail there too, as in Cassandra. EACH_QUORUM on a data-centre
   * aware strategy needs a quorum in every data centre and reports the first one short.
   */
  public static void check(ConsistencyLevel level, ReplicationStrategy strategy, Topology topology) {
    if (level == ConsistencyLevel.ANY) {
      return;
    }
    if (level == ConsistencyLevel.EACH_QUORUM && strategy.isDatacenterAware()) {
      for (Map.Entry<String, Integer> dc : strategy.datacenters().entrySet()) {
        int required = quorum(dc.getValue());
        int alive = liveIn(strategy, topology, dc.getKey());
        if (alive < required) {
          // Cassandra 5.0 names the data centre and reports alive = 0 here (it passes 0 in
          // the alive position: ReplicaPlans.assureSufficientLiveReplicas); drivers see that.
          throw new CoordinatorException.Unavailable(level, required, 0,
              "Cannot achieve consistency level " + level + " in DC " + dc.getKey());
        }
      }
      return;
    }
    int required = blockFor(level, strategy, topology.localDatacenter());
    int alive = alive(level, strategy, topology);
    if (alive < required) {
      throw new CoordinatorException.Unavailable(level, required, alive);
    }
  }
}
