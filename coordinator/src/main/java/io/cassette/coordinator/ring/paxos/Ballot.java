package io.cassette.coordinator.ring.paxos;

/**
 * A Paxos ballot: a timestamp in microseconds (from the coordinator's {@link BallotClock}) and
 * the coordinator's node id, so two coordinators never make equal ballots. Ordered by time,
 * then node. The timestamp is also the write timestamp of the proposal's cells, so ballot
 * order is last-write-wins order.
 */
public record Ballot(long micros, long node) implements Comparable<Ballot> {
  /** Smaller than every real ballot: nothing promised, accepted or committed. */
  public static final Ballot NONE = new Ballot(Long.MIN_VALUE, Long.MIN_VALUE);

  @Override
  public int compareTo(Ballot o) {
    int c = Long.compare(micros, o.micros);
    return c != 0 ? c : Long.compare(node, o.node);
  }

  public boolean isAfter(Ballot o) {
    return compareTo(o) > 0;
  }

  public static Ballot max(Ballot a, Ballot b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  @Override
  public String toString() {
    return this == NONE || micros == Long.MIN_VALUE ? "none" : micros + ":" + Long.toHexString(node);
  }
}
