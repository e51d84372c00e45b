package io.cassette.cql.transport;

import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of requests executing on the whole node, against one limit (Cassandra's
 * {@code native_transport_max_request_data_in_flight}, heap/10 by default): with many clients
 * each sending large requests, the per-connection count limit alone would not bound memory.
 * A connection that cannot acquire parks its request, stops reading, and is woken when bytes
 * are released. A request is always admitted when nothing else is in flight, so one request
 * larger than the limit still runs.
 *
 * <p>Thread-safety: thread-safe; wake-ups run on the releasing thread and must only hand off
 * (e.g. schedule work on an event loop).
 */
final class RequestBytesBudget {
  private final long limitBytes;
  private long usedBytes;
  private final List<Runnable> waiters = new ArrayList<>();

  RequestBytesBudget(long limitBytes) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("request bytes budget: " + limitBytes + " (expected: > 0)");
    }
    this.limitBytes = limitBytes;
  }

  /** Heap/10, as Cassandra; never below one largest frame. */
  static long defaultLimit(int maxFrameBytes) {
    return Math.max(maxFrameBytes, Runtime.getRuntime().maxMemory() / 10);
  }

  /**
   * Takes {@code bytes} if they fit (or nothing is in flight); otherwise registers
   * {@code wakeUp} to run once at the next release and returns false. Atomic, so no release
   * can slip between the failed attempt and the registration.
   */
  synchronized boolean tryAcquireOrWait(long bytes, Runnable wakeUp) {
    if (usedBytes == 0 || usedBytes + bytes <= limitBytes) {
      usedBytes += bytes;
      return true;
    }
    waiters.add(wakeUp);
    return false;
  }

  void release(long bytes) {
    Runnable[] wakeUps;
    synchronized (this) {
      usedBytes -= bytes;
      if (waiters.isEmpty()) {
        return;
      }
      wakeUps = waiters.toArray(new Runnable[0]);
      waiters.clear();
    }
    for (Runnable r : wakeUps) {
      try {
        r.run();
      } catch (RuntimeException e) {
        // A connection whose event loop is shutting down: nothing to wake, the others still are.
      }
    }
  }

  synchronized long usedBytes() {
    return usedBytes;
  }

  long limitBytes() {
    return limitBytes;
  }
}
