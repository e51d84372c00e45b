package io.cassette.cql.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of answers queued to clients and not yet taken by their sockets, all connections
 * together: the node-wide bound on what clients that do not read can make the CQL door hold
 * (each connection's own bound is {@link CqlLimits#maxPendingOutputBytes()}; Redis's door has
 * the same pair, client-output-buffer-limit and a node budget).
 *
 * <ul>
 *   <li>over the {@link #budget()}, a connection with answers of its own still unsent starts no
 *       new request and is not read (paused) until the socket took them: the slow readers wait,
 *       in their TCP windows; a client that reads has nothing unsent and goes on;</li>
 *   <li>over twice the budget (answers of requests that were already executing), an answer for
 *       such a connection closes it instead of being queued.</li>
 * </ul>
 * Answers live in direct memory (pooled buffers the size of the heap by default), beside the
 * Redis door's: the default budget is an eighth of it. Thread-safe.
 */
final class UnreadAnswers {
  /** Share of direct memory: the Redis door's node budget is a quarter, ours half of that. */
  static final int DIRECT_MEMORY_DIVISOR = 8;
  /** Never less, whatever the memory: two answers at the largest derived message size. */
  static final long MIN_BUDGET_BYTES = 4L << 20;

  private final long budget;
  private final AtomicLong queued = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  UnreadAnswers(long budget) {
    if (budget < 1) {
      throw new IllegalArgumentException("unread answers budget must be > 0: " + budget);
    }
    this.budget = budget;
  }

  /** The default for {@code directBytes} of direct memory (Netty's limit). */
  static UnreadAnswers forDirectMemory(long directBytes) {
    return new UnreadAnswers(Math.max(MIN_BUDGET_BYTES, directBytes / DIRECT_MEMORY_DIVISOR));
  }

  long budget() {
    return budget;
  }

  /** An answer of {@code bytes} was queued to a socket. */
  void queued(long bytes) {
    long now = queued.addAndGet(bytes);
    peak.accumulateAndGet(now, Math::max);
  }

  /** An answer of {@code bytes} was taken by its socket, or dropped with its connection. */
  void taken(long bytes) {
    queued.addAndGet(-bytes);
  }

  long bytes() {
    return queued.get();
  }

  /** The most ever queued at once (tests, metrics). */
  long peakBytes() {
    return peak.get();
  }

  /** Connections with unsent answers are paused. */
  boolean overBudget() {
    return queued.get() > budget;
  }

  /** Queuing {@code bytes} more for a connection with unsent answers closes it instead. */
  boolean overHardLimit(long bytes) {
    return queued.get() + bytes > 2 * budget;
  }
}
