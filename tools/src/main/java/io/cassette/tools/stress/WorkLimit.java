package io.cassette.tools.stress;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How much work a run may still hand out: a fixed number of operations (n=), or unbounded
 * until {@link #stop()} (duration= and err< runs, and a failure).
 *
 * <p>Thread-safe.
 */
public final class WorkLimit {
  private final AtomicLong remaining;
  private volatile boolean stopped;

  /** @param count operations to hand out; negative for no bound */
  public WorkLimit(long count) {
    this.remaining = count < 0 ? null : new AtomicLong(count);
  }

  /** Claims one operation; false when the run is over. */
  public boolean take() {
    if (stopped) {
      return false;
    }
    return remaining == null || remaining.getAndDecrement() > 0;
  }

  public void stop() {
    stopped = true;
  }
}
