package io.cassette.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A count that only goes up. Thread-safe; {@link #add} allocates nothing once warm (LongAdder
 * may allocate its striped cells the first time threads contend).
 */
public final class Counter {
  private final LongAdder value = new LongAdder();

  public void inc() {
    value.increment();
  }

  /** @param amount must not be negative: a counter never goes down */
  public void add(long amount) {
    if (amount < 0) {
      throw new IllegalArgumentException("counter increment: " + amount + " (expected: >= 0)");
    }
    value.add(amount);
  }

  public long value() {
    return value.sum();
  }
}
