package io.cassette.resp.keyspace;

import io.cassette.coordinator.Fence;
import io.cassette.coordinator.Request;

/**
 * What this node's writes of the {@code redis} keyspace carry while it executes a key on a ring
 * with more than one replica: the fencing token of its lease on the key's replicas
 * ({@code ring.ExecutorLeases}). The ring sets it on the command thread before each command it
 * executes ({@link Slot#set}); every write of that command asks it first ({@link #check}).
 */
public interface WriteFence {
  /**
   * The fence of a write whose timestamps are at most {@code maxMicros}; throws a
   * {@code TRYAGAIN} {@link io.cassette.resp.command.RedisException} when this node may no longer
   * write under its lease (it ran out, for instance after a pause), so nothing is sent.
   */
  Fence check(long maxMicros);

  /** The fence of the command running now (command thread only). */
  final class Slot {
    private final RedisClock clock;
    private WriteFence current;

    Slot(RedisClock clock) {
      this.clock = clock;
    }

    /** The fence of the commands that follow (null: none, as with one replica). */
    public void set(WriteFence fence) {
      current = fence;
    }

    /** {@code request} with the current command's fence, checked against the clock's last timestamp. */
    Request apply(Request request) {
      WriteFence f = current;
      return f == null ? request : request.withFence(f.check(clock.lastMicros()));
    }
  }
}
