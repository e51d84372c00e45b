package io.cassette.coordinator.ring.paxos;

/**
 * A replica's Paxos registers for one partition, as Cassandra's {@code system.paxos} row keeps
 * them: the ballot it promised, the proposal it accepted (null when none newer than its
 * commit), the proposal it last committed (null when none).
 */
public record PaxosState(Ballot promised, Proposal accepted, Proposal committed) {
  public static final PaxosState EMPTY = new PaxosState(Ballot.NONE, null, null);

  /** The newest ballot this replica has promised, accepted or committed. */
  public Ballot latest() {
    Ballot b = promised;
    if (accepted != null) b = Ballot.max(b, accepted.ballot());
    if (committed != null) b = Ballot.max(b, committed.ballot());
    return b;
  }
}
