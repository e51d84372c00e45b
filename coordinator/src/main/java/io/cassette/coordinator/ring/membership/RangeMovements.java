package io.cassette.coordinator.ring.membership;

import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.Range;
import io.cassette.coordinator.ring.TokenRing;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What a ring change moves, for one keyspace: every range whose replicas after the change
 * ({@link TokenRing#future()}) include a node that does not hold it now, with the nodes that can
 * send it. Pure: a function of the two rings and the strategy (Cassandra's RangeStreamer /
 * MovementMap). The ranges are cut at the tokens of both rings, so each has one replica set
 * before and one after.
 */
public final class RangeMovements {
  private RangeMovements() {}

  /**
   * One range a node must receive.
   *
   * @param range   the tokens {@code (start, end]}
   * @param target  the node that replicates it after the change and does not now
   * @param sources the nodes that replicate it now, those that stop replicating it first (the
   *                node handing it over holds exactly what the target must take: Cassandra's
   *                "strict" source), then the others in placement order
   */
  public record Movement(Range range, Endpoint target, List<Endpoint> sources) {}

  /** The movements from {@code now} to {@code future} under {@code strategy}; empty for node-local keyspaces. */
  public static List<Movement> between(TokenRing now, TokenRing future, ReplicationStrategy strategy) {
    List<Movement> out = new ArrayList<>();
    if (strategy instanceof LocalStrategy) {
      return out;
    }
    TreeSet<Long> cuts = new TreeSet<>();
    for (TokenRing.Owned o : now.rangesInTokenOrder()) {
      cuts.add(o.range().end());
    }
    for (TokenRing.Owned o : future.rangesInTokenOrder()) {
      cuts.add(o.range().end());
    }
    long start = Long.MIN_VALUE;
    for (long end : cuts) {
      if (end <= start) {
        continue;
      }
      Range range = new Range(start, end);
      start = end;
      List<Endpoint> before = now.replicas(end, strategy);
      List<Endpoint> after = future.replicas(end, strategy);
      List<Endpoint> sources = new ArrayList<>();
      for (Endpoint e : before) {
        if (!after.contains(e)) {
          sources.add(e);
        }
      }
      for (Endpoint e : before) {
        if (after.contains(e)) {
          sources.add(e);
        }
      }
      for (Endpoint target : after) {
        if (!before.contains(target)) {
          out.add(new Movement(range, target, List.copyOf(sources)));
        }
      }
    }
    return out;
  }
}
