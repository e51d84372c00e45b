package io.cassette.tools.migrate;

import java.util.concurrent.locks.LockSupport;

/**
 * A cap on rows and bytes per second shared by every copying thread: each caller reserves its
 * rows and bytes, and sleeps until the reservation falls due. A cap of 0 means none.
 * Thread-safe.
 */
final class Throttle {
  private final double nanosPerRow;
  private final double nanosPerByte;
  /** When the next reservation may start (System.nanoTime scale). */
  private long next = System.nanoTime();

  Throttle(long rowsPerSecond, double megabytesPerSecond) {
    this.nanosPerRow = rowsPerSecond > 0 ? 1e9 / rowsPerSecond : 0;
    this.nanosPerByte = megabytesPerSecond > 0 ? 1e9 / (megabytesPerSecond * 1024 * 1024) : 0;
  }

  boolean unlimited() {
    return nanosPerRow == 0 && nanosPerByte == 0;
  }

  /** Waits until {@code rows} rows of {@code bytes} bytes may be written. */
  void acquire(int rows, long bytes) {
    if (unlimited()) {
      return;
    }
    long cost = (long) Math.max(rows * nanosPerRow, bytes * nanosPerByte);
    long due;
    synchronized (this) {
      long now = System.nanoTime();
      // an idle spell earns at most 100 ms of credit, so a burst stays small
      next = Math.max(next, now - 100_000_000L);
      due = next;
      next += cost;
    }
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
  }
}
