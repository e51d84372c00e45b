package io.cassette.coordinator.ring.paxos;

import io.cassette.storage.PartitionUpdate;
import java.util.List;

/**
 * A value proposed (and maybe accepted, committed) at a ballot: the updates of one partition,
 * possibly of several tables of the keyspace (a conditional batch). Empty for a read or a
 * condition that did not hold: such a proposal only orders the round and is never committed.
 */
public record Proposal(Ballot ballot, List<PartitionUpdate> updates) {
  public Proposal {
    updates = List.copyOf(updates);
  }

  public boolean isEmpty() {
    return updates.isEmpty();
  }
}
