package io.cassette.coordinator.ring;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.replication.ReplicaCount;
import io.cassette.coordinator.replication.ReplicationStrategy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the answers of one token's replicas against a consistency level, as Cassandra's
 * response handlers do: which replicas count (LOCAL_*: the coordinator's data centre only;
 * EACH_QUORUM on NetworkTopologyStrategy: a quorum in each data centre; otherwise any), how
 * many are needed ({@code blockFor}), and whether they have been met. Not thread-safe: callers
 * synchronise.
 */
final class LevelAcks {
  private final ConsistencyLevel cl;
  private final TokenRing ring;
  private final String localDc;
  private int blockFor;
  /** EACH_QUORUM on a DC-aware strategy: acknowledgements still needed per data centre; else null. */
  private final Map<String, Integer> perDc;
  private int received;

  LevelAcks(ConsistencyLevel cl, ReplicationStrategy strategy, TokenRing ring) {
    this.cl = cl;
    this.ring = ring;
    this.localDc = ring.topology().localDatacenter();
    this.blockFor = ReplicaCount.blockFor(cl, strategy, localDc);
    if (cl == ConsistencyLevel.EACH_QUORUM && strategy.isDatacenterAware()) {
      perDc = new HashMap<>();
      for (Map.Entry<String, Integer> e : strategy.datacenters().entrySet()) {
        if (e.getValue() > 0) {
          perDc.put(e.getKey(), ReplicaCount.quorum(e.getValue()));
        }
      }
    } else {
      perDc = null;
    }
  }

  /**
   * Pending replicas (a ring change in progress) each raise the acknowledgements needed, as in
   * Cassandra's blockFor + pending: those that count towards the level.
   */
  LevelAcks withPending(List<Endpoint> pending) {
    for (Endpoint e : pending) {
      if (counts(e)) {
        blockFor++;
        if (perDc != null) {
          perDc.merge(ring.datacenter(e), 1, Integer::sum);
        }
      }
    }
    return this;
  }

  int blockFor() {
    return blockFor;
  }

  int received() {
    return received;
  }

  /** Whether an answer from {@code e} counts towards the level. */
  boolean counts(Endpoint e) {
    if (cl.isDatacenterLocal()) {
      return ring.datacenter(e).equals(localDc);
    }
    return perDc == null || perDc.containsKey(ring.datacenter(e));
  }

  /** Whether {@code e}'s answer would bring the level closer (counts, and its DC still needs some). */
  boolean useful(Endpoint e) {
    if (!counts(e) || satisfied()) {
      return false;
    }
    return perDc == null || perDc.get(ring.datacenter(e)) > 0;
  }

  /** Records an answer from {@code e}; returns whether the level is met. */
  boolean ack(Endpoint e) {
    if (counts(e)) {
      received++;
      if (perDc != null) {
        perDc.merge(ring.datacenter(e), -1, Integer::sum);
      }
    }
    return satisfied();
  }

  boolean satisfied() {
    if (perDc != null) {
      for (int left : perDc.values()) {
        if (left > 0) {
          return false;
        }
      }
      return true;
    }
    return received >= blockFor;
  }

  /**
   * Throws {@link CoordinatorException.Unavailable} (consistency, required, alive) when the live
   * replicas among {@code replicas} cannot meet the level: known before anything is sent.
   */
  static void requireAlive(ConsistencyLevel cl, ReplicationStrategy strategy, TokenRing ring, List<Endpoint> replicas) {
    requireAlive(cl, strategy, ring, replicas, List.of());
  }

  /** As above, with the pending replicas of a ring change among {@code replicas} and counted in the level. */
  static void requireAlive(ConsistencyLevel cl, ReplicationStrategy strategy, TokenRing ring, List<Endpoint> replicas,
                           List<Endpoint> pending) {
    LevelAcks acks = new LevelAcks(cl, strategy, ring).withPending(pending);
    int alive = 0;
    for (Endpoint e : replicas) {
      if (ring.isAlive(e) && acks.counts(e)) {
        alive++;
        acks.ack(e);
      }
    }
    if (acks.satisfied()) {
      return;
    }
    if (acks.perDc != null) {
      for (Map.Entry<String, Integer> dc : acks.perDc.entrySet()) {
        if (dc.getValue() > 0) {
          // Cassandra names the data centre and passes 0 as alive here (as ReplicaCount does).
          throw new CoordinatorException.Unavailable(cl, ReplicaCount.quorum(strategy.replicationFactor(dc.getKey())),
              0, "Cannot achieve consistency level " + cl + " in DC " + dc.getKey());
        }
      }
    }
    throw new CoordinatorException.Unavailable(cl, acks.blockFor, alive);
  }
}
