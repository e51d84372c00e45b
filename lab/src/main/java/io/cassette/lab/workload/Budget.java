package io.cassette.lab.workload;

import java.util.concurrent.atomic.AtomicLong;

/** The operations a workload may still run, shared by its clients (every load loop is bounded). */
public final class Budget {
  private final AtomicLong left;

  public Budget(long operations) {
    this.left = new AtomicLong(operations);
  }

  public boolean take() {
    return left.getAndDecrement() > 0;
  }
}
