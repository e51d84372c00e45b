package io.cassette.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;
import org.HdrHistogram.Recorder;

/**
 * Durations in microseconds: an exact count and sum, percentiles since start, and percentiles of
 * a recent window (what a dashboard or a Prometheus summary shows as "now").
 *
 * <p>Writers call {@link #record} from any thread: wait-free, no allocation (an HdrHistogram
 * {@link Recorder}). Readers call {@link #snapshot}, which folds what was recorded since the last
 * read into the totals; reads are serialized on this object. The window rolls on reads: the
 * recent percentiles are those of the last completed window of at least
 * {@link #RECENT_WINDOW_MILLIS}, so they are empty when nothing happened in it.
 *
 * <p>Memory matters: front doors keep one per request type on boards with a 64 MB heap. Two
 * significant digits and a one-minute ceiling keep the recorder's two flat histograms at about
 * 21 KB each; the three reader-side ones are packed (sized by the buckets in use, a few KB for a
 * typical latency spread). {@link #footprintBytes()} tells.
 *
 * <p>A histogram can also show the sum of others ({@link #addPart}): a front door's latency of all
 * request types is its per-type histograms together, so a request is recorded once, in its type,
 * and the door's figures are folded in when either is read.
 */
public final class LatencyHistogram {
  /** Longer durations are recorded as this: a request that takes a minute is already lost. */
  public static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);
  /** Two digits: percentiles within 1%, at a tenth of the memory of three digits. */
  static final int SIGNIFICANT_DIGITS = 2;
  /** Length of the window behind {@link LatencySnapshot#recent()}. */
  public static final long RECENT_WINDOW_MILLIS = 10_000;

  private final Recorder recorder = new Recorder(1, HIGHEST_MICROS, SIGNIFICANT_DIGITS);
  private final LongAdder sumMicros = new LongAdder();
  /** Exact worst value: the histogram's own max is only within 1%, and a worst stall is quoted. */
  private final LongAccumulator maxMicros = new LongAccumulator(Math::max, 0);

  // Reader side, guarded by this.
  private Histogram interval;
  private final Histogram total = newPacked();
  private Histogram current = newPacked();
  private Histogram recent = newPacked();
  private long windowStartMillis = Long.MIN_VALUE;

  /** The histogram this one's values also count in (see {@link #addPart}); set once. */
  private volatile LatencyHistogram sum;
  /** Histograms whose values this one shows besides its own records. */
  private final List<LatencyHistogram> parts = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * Makes this histogram show {@code part}'s values too, folded in whenever either is read:
   * recording in {@code part} is enough. A part belongs to one sum.
   */
  public void addPart(LatencyHistogram part) {
    if (part == this || part.sum != null && part.sum != this) {
      throw new IllegalArgumentException("a latency histogram is a part of one other at most");
    }
    if (part.sum == null) {
      part.sum = this;
      parts.add(part);
    }
  }

  /** Records one duration; negative values count as 0, values past the ceiling as the ceiling. */
  public void record(long micros) {
    long v = micros < 0 ? 0 : Math.min(micros, HIGHEST_MICROS);
    recorder.recordValue(v);
    sumMicros.add(v);
    maxMicros.accumulate(v);
  }

  /** Values recorded since start (exact: histogram counts are exact, only values are bucketed). */
  public long count() {
    foldParts();
    synchronized (this) {
      fold();
      return total.getTotalCount();
    }
  }

  /** Guarded by this: what was recorded since the last read goes into the totals, here and in the sum. */
  private void fold() {
    interval = recorder.getIntervalHistogram(interval);
    total.add(interval);
    current.add(interval);
    LatencyHistogram s = sum;
    if (s != null && interval.getTotalCount() > 0) {
      s.take(interval); // lock order: a part, then its sum
    }
  }

  private synchronized void take(Histogram partInterval) {
    total.add(partInterval);
    current.add(partInterval);
  }

  /** Before reading a sum, holding no lock: its parts' latest values are folded into it. */
  private void foldParts() {
    for (LatencyHistogram p : parts) {
      synchronized (p) {
        p.fold();
      }
    }
  }

  public LatencySnapshot snapshot() {
    return snapshot(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
  }

  /** @param nowMillis a monotonic clock reading, for tests of the window */
  LatencySnapshot snapshot(long nowMillis) {
    foldParts();
    synchronized (this) {
      return snapshotFolded(nowMillis);
    }
  }

  private LatencySnapshot snapshotFolded(long nowMillis) {
    fold();
    // The sum is read after the fold: it may include a value or two the count does not yet.
    long sum = sumMicros.sum();
    long max = maxMicros.get();
    for (LatencyHistogram p : parts) {
      sum += p.sumMicros.sum();
      max = Math.max(max, p.maxMicros.get());
    }
    long n = total.getTotalCount();
    if (windowStartMillis == Long.MIN_VALUE) {
      windowStartMillis = nowMillis;
    }
    if (nowMillis - windowStartMillis >= RECENT_WINDOW_MILLIS) {
      Histogram done = current;
      current = recent;
      current.reset();
      recent = done;
      windowStartMillis = nowMillis;
    }
    Percentiles all = percentiles(total);
    if (all.count() > 0) {
      // Bucket bounds may round a percentile just past the exact max: never show p99 > max.
      all = new Percentiles(all.count(), Math.min(all.p50(), max), Math.min(all.p95(), max),
          Math.min(all.p99(), max), Math.min(all.p999(), max), max, all.mean());
    }
    return new LatencySnapshot(n, sum, percentiles(recent), all);
  }

  /**
   * Redis 7's {@code LATENCY HISTOGRAM} view of everything recorded since start: pairs of
   * (bound in microseconds, how many took at most that long), on power-of-two bounds from 1 us,
   * listing only the bounds where the count grows, as Redis does.
   */
  public List<long[]> cumulativePowerOfTwoBuckets() {
    foldParts();
    synchronized (this) {
      fold();
      return cumulativeBuckets();
    }
  }

  private List<long[]> cumulativeBuckets() {
    List<long[]> out = new ArrayList<>();
    long n = total.getTotalCount();
    long previous = 0;
    for (long bound = 1; previous < n && bound <= 2 * HIGHEST_MICROS; bound <<= 1) {
      long cumulative = total.getCountBetweenValues(0, bound);
      if (cumulative > previous) {
        out.add(new long[] {bound, cumulative});
      }
      previous = cumulative;
    }
    return out;
  }

  /** Estimated bytes held by the histograms behind this one (the recorder counted as two flat ones). */
  public synchronized int footprintBytes() {
    int flat = new Histogram(1, HIGHEST_MICROS, SIGNIFICANT_DIGITS).getEstimatedFootprintInBytes();
    return 2 * flat + total.getEstimatedFootprintInBytes() + current.getEstimatedFootprintInBytes()
        + recent.getEstimatedFootprintInBytes();
  }

  private static Histogram newPacked() {
    return new PackedHistogram(1, HIGHEST_MICROS, SIGNIFICANT_DIGITS);
  }

  private static Percentiles percentiles(Histogram h) {
    long n = h.getTotalCount();
    if (n == 0) {
      return Percentiles.EMPTY;
    }
    return new Percentiles(n, h.getValueAtPercentile(50), h.getValueAtPercentile(95),
        h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue(), h.getMean());
  }
}
