package io.cassette.cluster.liveness;

/**
 * The last {@code capacity} intervals between heartbeats from one peer and their mean, as in
 * Cassandra's failure detector: the first heartbeat seeds the window with a deliberately large
 * initial interval (better to suspect late than early while little is known), and intervals
 * longer than {@code maxIntervalNanos} (a pause, a partition that healed) are not recorded, so
 * one long gap does not make the detector slow for the next 1,000 heartbeats. Not thread-safe.
 */
final class ArrivalWindow {
  private final long[] intervals;
  private final long initialIntervalNanos;
  private final long maxIntervalNanos;
  private int size;
  private int next;
  private long sum;
  private long lastNanos;
  private boolean seen;

  ArrivalWindow(int capacity, long initialIntervalNanos, long maxIntervalNanos) {
    this.intervals = new long[capacity];
    this.initialIntervalNanos = initialIntervalNanos;
    this.maxIntervalNanos = maxIntervalNanos;
  }

  void add(long nowNanos) {
    if (!seen) {
      seen = true;
      record(initialIntervalNanos);
    } else {
      long interval = nowNanos - lastNanos;
      if (interval > 0 && interval <= maxIntervalNanos) record(interval);
    }
    lastNanos = nowNanos;
  }

  private void record(long interval) {
    if (size == intervals.length) {
      sum -= intervals[next];
    } else {
      size++;
    }
    intervals[next] = interval;
    sum += interval;
    next = (next + 1) % intervals.length;
  }

  double meanNanos() {
    return size == 0 ? initialIntervalNanos : (double) sum / size;
  }

  /**
   * Suspicion that the peer is gone: time since the last heartbeat in units of the mean
   * interval, scaled so that, for exponentially distributed arrivals, phi = -log10(P(a
   * heartbeat this late)). phi 8 means a one in 10^8 chance that the peer is merely slow.
   */
  double phi(long nowNanos) {
    if (!seen) return 0;
    return PhiAccrualFailureDetector.PHI_FACTOR * (nowNanos - lastNanos) / meanNanos();
  }

  boolean seen() {
    return seen;
  }
}
