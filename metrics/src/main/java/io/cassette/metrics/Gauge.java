package io.cassette.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

/**
 * A value that goes up and down. Either set by its owner ({@link #set}, {@link #add}) or read
 * from a supplier at scrape time (for values something else already keeps, like heap use).
 * Thread-safe; updates allocate nothing.
 */
public final class Gauge {
  /** The double's raw bits, so that set and add are lock-free. */
  private final AtomicLong bits = new AtomicLong(Double.doubleToRawLongBits(0));
  private final DoubleSupplier supplier;

  Gauge() {
    this.supplier = null;
  }

  Gauge(DoubleSupplier supplier) {
    this.supplier = supplier;
  }

  /** @throws IllegalStateException on a gauge read from a supplier */
  public void set(double value) {
    requireSettable();
    bits.set(Double.doubleToRawLongBits(value));
  }

  /** Adds {@code delta} (negative to subtract). */
  public void add(double delta) {
    requireSettable();
    long prev;
    long next;
    do {
      prev = bits.get();
      next = Double.doubleToRawLongBits(Double.longBitsToDouble(prev) + delta);
    } while (!bits.compareAndSet(prev, next));
  }

  public double value() {
    return supplier != null ? supplier.getAsDouble() : Double.longBitsToDouble(bits.get());
  }

  private void requireSettable() {
    if (supplier != null) {
      throw new IllegalStateException("this gauge is read from a supplier and cannot be set");
    }
  }
}
