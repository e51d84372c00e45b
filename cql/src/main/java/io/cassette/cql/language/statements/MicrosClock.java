package io.cassette.cql.language.statements;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Server-side write timestamps in microseconds, strictly increasing on this node (as
 * Cassandra's ClientState.getTimestamp), so two writes of one client never tie.
 */
public final class MicrosClock {
  /** The fault lab's clock skew for this node ({@code -Dcassette.test_fault.clock_offset_ms}; never set in production). */
  private static final long OFFSET_MICROS = Long.getLong("cassette.test_fault.clock_offset_ms", 0) * 1000;
  private final AtomicLong last = new AtomicLong();

  public long nextMicros() {
    long now = System.currentTimeMillis() * 1000 + OFFSET_MICROS;
    return last.updateAndGet(l -> Math.max(l + 1, now));
  }
}
