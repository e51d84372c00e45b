package io.cassette.coordinator;

import java.util.Objects;

/**
 * A fencing token a write carries: the lease it was made under and that lease's epoch. A
 * replica that has promised a higher epoch for the lease refuses the write
 * ({@link FenceGuard}), so a writer that lost its lease (paused, cut off) cannot get a
 * majority of acknowledgements after its successor got its promises. Used by the Redis door
 * with more than one replica (an executor's lease on a range of keys); other writes carry none.
 *
 * @param lease what the epoch counts for (the Redis door: the replica list of a range)
 * @param epoch the lease's epoch, like a Paxos ballot: greater is newer
 */
public record Fence(String lease, long epoch) {
  public Fence {
    Objects.requireNonNull(lease, "lease");
  }
}
