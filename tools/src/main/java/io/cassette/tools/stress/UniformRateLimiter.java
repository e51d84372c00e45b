package io.cassette.tools.stress;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A schedule of operation start times at a uniform rate (-rate fixed=N/s or throttle=N/s):
 * the i-th operation is intended to start at start + i/rate. With fixed=, latency is measured
 * from that intended start, so a stalled server is charged for the operations it delayed
 * (coordinated omission corrected).
 *
 * <p>Thread-safe: shared by all the run's threads.
 */
public final class UniformRateLimiter {
  private final long intervalNs;
  private final AtomicLong index = new AtomicLong();
  private volatile long startNs;

  public UniformRateLimiter(int opsPerSecond) {
    this.intervalNs = 1_000_000_000L / opsPerSecond;
  }

  /** Starts the schedule now. */
  public void start() {
    startNs = System.nanoTime();
  }

  /** Claims the next slot, waits until it comes, and returns its intended start (nanoTime). */
  public long acquire() {
    long intended = startNs + index.getAndIncrement() * intervalNs;
    long now;
    while ((now = System.nanoTime()) < intended) {
      LockSupport.parkNanos(intended - now);
    }
    return intended;
  }
}
