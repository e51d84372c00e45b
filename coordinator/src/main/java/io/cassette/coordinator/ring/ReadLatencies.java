package io.cassette.coordinator.ring;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Recent read latencies, per table (for {@code speculative_retry = 'NNp'}) and per replica (to
 * send the data request to the fastest). An approximation kept deliberately small for boards:
 * per table, the last {@link #WINDOW} latencies in a ring buffer, sorted for a percentile at most
 * every {@link #RECOMPUTE_EVERY} samples; per replica, an exponentially weighted mean.
 * Thread-safe.
 */
public final class ReadLatencies {
  /** Samples a table keeps. */
  static final int WINDOW = 512;
  /** A percentile is recomputed after this many new samples (sorting 512 longs costs ~10 µs). */
  static final int RECOMPUTE_EVERY = 64;
  /** Fewer samples than this: no percentile yet (no speculation). */
  static final int MIN_SAMPLES = 32;

  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final Map<Endpoint, double[]> replicas = new ConcurrentHashMap<>();

  Table table(String keyspace, String table) {
    return tables.computeIfAbsent(keyspace + '.' + table, k -> new Table());
  }

  /**
   * A replica's mean is forgotten after this long without a sample, as Cassandra's dynamic snitch
   * resets its scores: a replica that timed out once is tried again first later.
   */
  static final long FORGET_AFTER_NANOS = 10_000_000_000L;

  /** Records a replica's answer time (a timeout counts as the whole timeout). */
  void replica(Endpoint e, long micros) {
    double[] mean = replicas.computeIfAbsent(e, k -> new double[] {micros, System.nanoTime()});
    synchronized (mean) {
      boolean stale = System.nanoTime() - (long) mean[1] > FORGET_AFTER_NANOS;
      mean[0] = stale ? micros : mean[0] * 0.9 + micros * 0.1;
      mean[1] = System.nanoTime();
    }
  }

  /** The replica's mean answer time in µs, or 0 when unknown or forgotten (tried first). */
  double replicaMicros(Endpoint e) {
    double[] mean = replicas.get(e);
    if (mean == null) {
      return 0;
    }
    synchronized (mean) {
      return System.nanoTime() - (long) mean[1] > FORGET_AFTER_NANOS ? 0 : mean[0];
    }
  }

  /** One table's recent latencies. */
  public static final class Table {
    private final long[] samples = new long[WINDOW];
    private int count;
    private int next;
    private int sinceSorted = Integer.MAX_VALUE;
    private long[] sorted = new long[0];

    public synchronized void add(long micros) {
      samples[next] = micros;
      next = (next + 1) % WINDOW;
      count = Math.min(WINDOW, count + 1);
      if (sinceSorted != Integer.MAX_VALUE) {
        sinceSorted++;
      }
    }

    /** The latency at percentile {@code p} (0-100) in µs, or -1 with too few samples. */
    public synchronized long percentileMicros(double p) {
      if (count < MIN_SAMPLES) {
        return -1;
      }
      if (sinceSorted >= RECOMPUTE_EVERY) {
        sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        sinceSorted = 0;
      }
      int i = (int) Math.ceil(Math.max(0, Math.min(100, p)) / 100.0 * sorted.length) - 1;
      return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
  }
}
