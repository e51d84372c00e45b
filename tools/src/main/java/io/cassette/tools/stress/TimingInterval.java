package io.cassette.tools.stress;

import org.HdrHistogram.Histogram;

/**
 * The measurements of one span of time, for one operation type or all of them: latency
 * histograms in nanoseconds, counts of rows, partitions and errors, and the span's bounds.
 * Used both for one reporting interval and, by {@link #add}, for a whole run.
 *
 * <p>Three histograms as in cassandra-stress: service time (end - start), response time
 * (end - intended start) and wait time (start - intended start). The latter two exist only
 * with a rate schedule. The latency reported is the response time with fixed=N/s (corrected
 * for coordinated omission) and the service time otherwise.
 *
 * <p>Not thread-safe: owned by the reporting thread.
 */
public final class TimingInterval {
  /** Significant decimal digits of the latency histograms (HdrHistogram precision). */
  public static final int PRECISION_DIGITS = 3;

  private final Histogram serviceTime = new Histogram(PRECISION_DIGITS);
  private final Histogram responseTime = new Histogram(PRECISION_DIGITS);
  private final Histogram waitTime = new Histogram(PRECISION_DIGITS);
  private final boolean fixedRate;
  private long startNs = Long.MAX_VALUE;
  private long endNs = Long.MIN_VALUE;
  long partitionCount;
  long rowCount;
  long errorCount;

  public TimingInterval(boolean fixedRate) {
    this.fixedRate = fixedRate;
  }

  public Histogram serviceTime() {
    return serviceTime;
  }

  public Histogram responseTime() {
    return responseTime;
  }

  public Histogram waitTime() {
    return waitTime;
  }

  public long partitionCount() {
    return partitionCount;
  }

  public long rowCount() {
    return rowCount;
  }

  public long errorCount() {
    return errorCount;
  }

  public void bounds(long startNs, long endNs) {
    this.startNs = startNs;
    this.endNs = endNs;
  }

  public long startNanos() {
    return startNs;
  }

  public long endNanos() {
    return endNs;
  }

  /** Adds the counts (with the histograms) and widens the span to cover {@code other}'s. */
  public void add(TimingInterval other) {
    startNs = Math.min(startNs, other.startNs);
    endNs = Math.max(endNs, other.endNs);
    partitionCount += other.partitionCount;
    rowCount += other.rowCount;
    errorCount += other.errorCount;
    if (other.serviceTime.getTotalCount() != 0) {
      serviceTime.add(other.serviceTime);
    }
    if (other.responseTime.getTotalCount() != 0) {
      responseTime.add(other.responseTime);
    }
    if (other.waitTime.getTotalCount() != 0) {
      waitTime.add(other.waitTime);
    }
  }

  public void reset() {
    startNs = Long.MAX_VALUE;
    endNs = Long.MIN_VALUE;
    partitionCount = 0;
    rowCount = 0;
    errorCount = 0;
    serviceTime.reset();
    responseTime.reset();
    waitTime.reset();
  }

  private Histogram latency() {
    return !fixedRate || responseTime.getTotalCount() == 0 ? serviceTime : responseTime;
  }

  private double seconds() {
    return (endNs - startNs) * 1e-9;
  }

  public long operationCount() {
    return latency().getTotalCount();
  }

  public double opRate() {
    return operationCount() / seconds();
  }

  public double partitionRate() {
    return partitionCount / seconds();
  }

  public double rowRate() {
    return rowCount / seconds();
  }

  /** Row rate over the span minus the longest operation (cassandra-stress's "adj row/s"). */
  public double adjustedRowRate() {
    return rowCount / ((endNs - (startNs + latency().getMaxValue())) * 1e-9);
  }

  public double meanLatencyMs() {
    return latency().getMean() * 1e-6;
  }

  public double medianLatencyMs() {
    return latency().getValueAtPercentile(50.0) * 1e-6;
  }

  /** @param percentile between 0 and 100 */
  public double latencyAtPercentileMs(double percentile) {
    return latency().getValueAtPercentile(percentile) * 1e-6;
  }

  public double maxLatencyMs() {
    return latency().getMaxValue() * 1e-6;
  }

  public long runTimeMs() {
    return (endNs - startNs) / 1_000_000;
  }
}
