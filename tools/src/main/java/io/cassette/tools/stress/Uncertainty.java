package io.cassette.tools.stress;

/**
 * The standard error of the mean of the per-interval row rates, relative to the mean: the
 * "stderr" column, and what an err< run waits to fall below. Assumes the rates are normally
 * distributed, as cassandra-stress does.
 *
 * <p>Thread-safe: updated by the reporting thread, read by the waiting run.
 */
public final class Uncertainty {
  private int measurements;
  private double sum;
  private double sumSquares;
  private double uncertainty;

  public synchronized void update(double value) {
    measurements++;
    sum += value;
    sumSquares += value * value;
    double mean = sum / measurements;
    double stdev = Math.sqrt(Math.max(0, sumSquares / measurements - mean * mean));
    uncertainty = (stdev / Math.sqrt(measurements)) / mean;
    notifyAll();
  }

  public synchronized double get() {
    return uncertainty;
  }

  public synchronized int measurements() {
    return measurements;
  }

  /**
   * Waits until the uncertainty is below {@code target} after at least {@code min}
   * measurements, or {@code max} measurements were taken, or {@code done} is set.
   */
  public synchronized void await(double target, int min, int max, java.util.function.BooleanSupplier done)
      throws InterruptedException {
    while (!done.getAsBoolean() && !((uncertainty < target && measurements >= min) || measurements >= max)) {
      wait(100);
    }
  }
}
