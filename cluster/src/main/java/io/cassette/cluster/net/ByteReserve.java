package io.cassette.cluster.net;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A byte budget that callers take permits from and give back, shared by every connection it is
 * handed to (one per peer, one for the node). {@link #tryReserve} never blocks and never goes
 * over the limit: back-pressure is the {@code false} it returns. Thread-safe.
 */
final class ByteReserve {
  private final long limit;
  private final AtomicLong used = new AtomicLong();

  ByteReserve(long limit) {
    this.limit = limit;
  }

  boolean tryReserve(long bytes) {
    while (true) {
      long u = used.get();
      if (u + bytes > limit) return false;
      if (used.compareAndSet(u, u + bytes)) return true;
    }
  }

  void release(long bytes) {
    long after = used.addAndGet(-bytes);
    assert after >= 0 : "released more than reserved: " + after;
  }

  long used() {
    return used.get();
  }

  long limit() {
    return limit;
  }
}
