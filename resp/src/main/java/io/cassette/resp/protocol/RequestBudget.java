package io.cassette.resp.protocol;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The node-wide budget for request bytes in flight on the Redis door: arguments of requests
 * being received (partial) and of requests decoded but not yet executed. Every
 * {@link RespDecoder} reserves from it as argument bytes arrive and the dispatcher gives the
 * bytes back once the command has run, so what clients can make the node hold is bounded
 * whatever they send (header-only requests, half-sent values, deep pipelines).
 *
 * <p>At the limit the reserving connection gets a protocol error and is closed. So that a few
 * connections holding large half-sent values cannot lock everyone else out, a connection that
 * holds less than {@link #fairShare()} may still reserve up to twice the limit: small requests
 * keep being served while the budget is full, and the total stays below {@code 2 * limit}.
 *
 * <p>Thread-safe (one atomic counter shared by every event loop).
 */
public final class RequestBudget {
  /** Share of the limit a connection may hold and still reserve when the budget is full. */
  private static final int FAIR_SHARE_DIVISOR = 64;

  private final long limit;
  private final AtomicLong used = new AtomicLong();

  /** @param limit bytes all connections together may hold before reservations fail */
  public RequestBudget(long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("request budget must be positive: " + limit);
    }
    this.limit = limit;
  }

  /**
   * Reserves {@code bytes} for a connection already holding {@code held}; false (nothing
   * reserved) when the budget cannot give them.
   */
  public boolean tryReserve(long held, long bytes) {
    long after = used.addAndGet(bytes);
    if (after <= limit || (held + bytes <= fairShare() && after <= 2 * limit)) {
      return true;
    }
    used.addAndGet(-bytes);
    return false;
  }

  /** Gives back bytes reserved earlier. */
  public void release(long bytes) {
    if (bytes != 0) {
      used.addAndGet(-bytes);
    }
  }

  public long used() {
    return used.get();
  }

  public long limit() {
    return limit;
  }

  /** What one connection may hold and still be served when the budget is exhausted. */
  public long fairShare() {
    return Math.max(64 << 10, limit / FAIR_SHARE_DIVISOR);
  }
}
