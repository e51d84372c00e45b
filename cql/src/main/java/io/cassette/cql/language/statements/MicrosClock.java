package io.cassette.cql.language.statements;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Server-side write timestamps in microseconds, strictly increasing on this node (as
 * Cassandra's ClientState.getTimestamp), so two writes of one client never tie.
 */
public final class MicrosClock {
  private final AtomicLong last = new AtomicLong();

  public long nextMicros() {
    long now = System.currentTimeMillis() * 1000;
    return last.updateAndGet(l -> Math.max(l + 1, now));
  }
}
