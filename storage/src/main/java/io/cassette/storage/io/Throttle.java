package io.cassette.storage.io;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Caps a byte rate shared by all callers (compaction_throughput). Callers report bytes they
 * moved and are parked until the rate falls back under the cap. Thread-safe.
 */
public final class Throttle {
  private volatile long bytesPerSecond;
  private long nextFreeNanos = System.nanoTime();

  /** @param bytesPerSecond the cap; 0 means unthrottled */
  public Throttle(long bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
  }

  public void setRate(long bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Accounts {@code byteCount} bytes and sleeps as long as the cap requires. */
  public void acquire(long byteCount) {
    long rate = bytesPerSecond;
    if (rate <= 0 || byteCount <= 0) {
      return;
    }
    long waitUntil;
    synchronized (this) {
      long now = System.nanoTime();
      // Unused credit is not banked beyond one second, so a burst after idling stays bounded.
      if (nextFreeNanos < now - TimeUnit.SECONDS.toNanos(1)) {
        nextFreeNanos = now - TimeUnit.SECONDS.toNanos(1);
      }
      nextFreeNanos += byteCount * 1_000_000_000L / rate;
      waitUntil = nextFreeNanos;
    }
    long delay;
    while ((delay = waitUntil - System.nanoTime()) > 0) {
      LockSupport.parkNanos(delay);
    }
  }
}
