package io.cassette.cql.transport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 *       such a connection closes it instead of being queued;</li>
 *   <li>and when an answer queued for a connection that had nothing unsent (a reader, as far
 *       as the node can tell, or a new slow reader's first answer) takes all connections over
 *       twice the budget, the connections holding the most unsent bytes are closed at once
 *       until the total is back under it ({@link #evictOverHardLimit()}), as Redis 7's
 *       maxmemory-clients evicts the biggest clients first. So the count never passes twice
 *       the budget by more than the answer that crossed it: before, each of 100 new slow
 *       readers' first answers went through and a 16 MiB bound saw 30 MB.</li>
 * </ul>
 * Answers being encoded on the workers are not counted: at most one per worker thread.
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
  /** Connections with answers queued and not yet taken by their sockets. */
  private final Set<Holder> holders = ConcurrentHashMap.newKeySet();
  private final AtomicLong evictions = new AtomicLong();

  /** A connection holding unsent answers. */
  interface Holder {
    /** Bytes of its answers queued and not yet taken by its socket. */
    long unsentBytes();

    /** Closes the connection (any thread): its queued answers are dropped, then counted as taken. */
    void evict(long nodeBytes, long nodeLimit);
  }

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

  /** {@code holder} has answers unsent now (it had none). */
  void holding(Holder holder) {
    holders.add(holder);
  }

  /** {@code holder} has no answer unsent any more, or is gone. */
  void notHolding(Holder holder) {
    holders.remove(holder);
  }

  /**
   * While all connections together hold more than twice the budget, closes the one holding the
   * most unsent bytes (a client that does not read; one that reads holds at most an answer
   * being written). Returns how many were closed. Any thread.
   */
  int evictOverHardLimit() {
    int closed = 0;
    long over = queued.get() - 2 * budget;
    while (over > 0) {
      Holder largest = null;
      long most = 0;
      for (Holder h : holders) {
        long b = h.unsentBytes();
        if (b > most) {
          most = b;
          largest = h;
        }
      }
      if (largest == null) {
        break;
      }
      if (holders.remove(largest)) { // another thread may have chosen it too
        largest.evict(queued.get(), 2 * budget);
        closed++;
        over -= most;
      }
    }
    evictions.addAndGet(closed);
    return closed;
  }

  /** Connections closed by {@link #evictOverHardLimit()} so far (tests, metrics). */
  long evictions() {
    return evictions.get();
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
