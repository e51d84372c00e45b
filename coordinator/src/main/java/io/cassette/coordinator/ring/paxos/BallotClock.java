package io.cassette.coordinator.ring.paxos;

import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Makes ballots unique and increasing across the ring with a hybrid logical clock: a new
 * ballot's time is the wall clock (µs) or one past the newest ballot this node has made or
 * seen, whichever is later. A node whose clock lags (clock skew) therefore still makes a ballot
 * above any it was refused with, instead of losing every round until its clock catches up.
 * The node part is the host id's low bits, so equal times never tie.
 */
public final class BallotClock {
  private final long node;
  private final LongSupplier wallMicros;
  private long last = Long.MIN_VALUE;

  /** @param wallMicros this node's clock in µs (the server's, with any configured offset) */
  public BallotClock(UUID hostId, LongSupplier wallMicros) {
    this.node = hostId.getLeastSignificantBits() ^ hostId.getMostSignificantBits();
    this.wallMicros = wallMicros;
  }

  public BallotClock(UUID hostId) {
    this(hostId, () -> System.currentTimeMillis() * 1000);
  }

  /** A ballot newer than every ballot made or seen here. */
  public synchronized Ballot next() {
    last = Math.max(wallMicros.getAsLong(), last + 1);
    return new Ballot(last, node);
  }

  /** Another node's ballot was seen (a refusal, a promise): the next ballot will be newer. */
  public synchronized void observe(Ballot seen) {
    if (seen != null && seen.micros() != Long.MIN_VALUE) {
      last = Math.max(last, seen.micros());
    }
  }
}
