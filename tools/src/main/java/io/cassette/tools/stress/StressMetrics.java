package io.cassette.tools.stress;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The measurements of one run: the threads {@link #record} each operation; a reporting thread
 * takes an interval's histograms every -log interval=, prints the interval line(s), adds them
 * to the run's totals and, with -log hdrfile=, appends them to the HdrHistogram log. At the end
 * {@link #summarise} prints the Results block.
 *
 * <p>Memory is bounded whatever the run length: per operation type, two intervals being
 * swapped and one running total, each three HdrHistograms of 3 significant digits.
 *
 * <p>Thread-safe: {@link #record} from any thread; the rest from the run's own thread.
 */
public final class StressMetrics {
  private final ResultLogger output;
  private final long intervalNs;
  private final boolean fixedRate;
  private final HistogramLogWriter hdrLog;
  private final long epochNs = System.nanoTime();
  private final long epochMs = System.currentTimeMillis();
  private final Map<String, OpRecorder> recorders = new ConcurrentHashMap<>();
  /** Per operation type, the whole run; sorted by name as cassandra-stress prints them. */
  private final Map<String, TimingInterval> summaryByOp = new TreeMap<>();
  private final TimingInterval summary;
  private final java.util.function.Supplier<GcStats> gc;
  private GcStats totalGc = GcStats.NONE;
  private final Uncertainty uncertainty = new Uncertainty();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Thread reporter;
  private volatile boolean stop;
  private volatile boolean started;

  /**
   * The measurements of one operation type: the interval being recorded and a spare, swapped
   * under the lock so that an operation's latency and its row, partition and error counts
   * always land in the same interval.
   */
  private static final class OpRecorder {
    TimingInterval active;
    TimingInterval spare;

    OpRecorder(boolean fixedRate) {
      active = new TimingInterval(fixedRate);
      spare = new TimingInterval(fixedRate);
    }

    synchronized void record(long intendedNs, long startNs, long endNs, long rows, long partitions,
        boolean error) {
      TimingInterval t = active;
      t.rowCount += rows;
      t.partitionCount += partitions;
      if (error) {
        t.errorCount++;
      }
      if (intendedNs != 0) {
        t.responseTime().recordValue(Math.max(0, endNs - intendedNs));
        t.waitTime().recordValue(Math.max(0, startNs - intendedNs));
      }
      t.serviceTime().recordValue(Math.max(0, endNs - startNs));
    }

    /** Hands over the interval recorded so far; valid until the next call. */
    synchronized TimingInterval take() {
      TimingInterval taken = active;
      spare.reset();
      active = spare;
      spare = taken;
      return taken;
    }
  }

  /**
   * Prints the header and prepares the run's measurements (the reporting thread starts with
   * {@link #start}).
   *
   * @param hdrFile the HdrHistogram log to write, or null; the file is created or replaced
   * @param gc the servers' GC figures since the previous call, or null for none
   */
  public StressMetrics(ResultLogger output, int intervalMillis, boolean fixedRate, String hdrFile,
      java.util.function.Supplier<GcStats> gc) {
    this.output = output;
    this.gc = gc != null ? gc : () -> GcStats.NONE;
    this.intervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
    this.fixedRate = fixedRate;
    this.summary = new TimingInterval(fixedRate);
    if (hdrFile != null) {
      try {
        hdrLog = new HistogramLogWriter(new PrintStream(hdrFile));
      } catch (FileNotFoundException e) {
        throw new ArgumentException("Cannot write -log hdrfile=" + hdrFile + ": " + e.getMessage());
      }
      hdrLog.outputComment("Logging op latencies for Cassandra Stress");
      hdrLog.outputLogFormatVersion();
      long roundedEpoch = epochMs - (epochMs % 1000);
      hdrLog.outputBaseTime(roundedEpoch);
      hdrLog.setBaseTime(roundedEpoch);
      hdrLog.outputStartTime(roundedEpoch);
      hdrLog.outputLegend();
    } else {
      hdrLog = null;
    }
    output.println(StressReport.HEAD);
    reporter = new Thread(this::reportingLoop, "StressMetrics");
    reporter.setDaemon(true);
  }

  public void start() {
    started = true;
    reporter.start();
  }

  /**
   * Records one operation.
   *
   * @param intendedNs its scheduled start (0 without a rate schedule)
   */
  public void record(String opType, long intendedNs, long startNs, long endNs, long rows,
      long partitions, boolean error) {
    OpRecorder r = recorders.get(opType);
    if (r == null) {
      r = recorders.computeIfAbsent(opType, k -> new OpRecorder(fixedRate));
    }
    r.record(intendedNs, startNs, endNs, rows, partitions, error);
  }

  /** Stops reporting after one last (partial) interval; returns once it is printed. */
  public void stop() throws InterruptedException {
    stop = true;
    if (started) {
      LockSupport.unpark(reporter);
      stopped.await();
    }
    if (hdrLog != null) {
      hdrLog.close();
    }
  }

  public Uncertainty uncertainty() {
    return uncertainty;
  }

  /** The whole run, all operation types together. */
  public TimingInterval summary() {
    return summary;
  }

  /** The whole run per operation type. */
  public Map<String, TimingInterval> summaryByOp() {
    return summaryByOp;
  }

  /** The servers' GC figures over the whole run. */
  public synchronized GcStats totalGc() {
    return totalGc;
  }

  public double opRate() {
    return summary.opRate();
  }

  private void reportingLoop() {
    long intervalStart = System.nanoTime();
    try {
      while (!stop) {
        long wakeup = intervalStart + intervalNs;
        long park;
        while (!stop && (park = wakeup - System.nanoTime()) > 0) {
          LockSupport.parkNanos(park);
        }
        if (stop) {
          break;
        }
        recordInterval(intervalStart, wakeup);
        intervalStart = wakeup;
      }
      recordInterval(intervalStart, System.nanoTime());
    } catch (RuntimeException e) {
      e.printStackTrace();
    } finally {
      stopped.countDown();
    }
  }

  /** Takes the interval [start, end) from the recorders, prints it and adds it to the totals. */
  synchronized void recordInterval(long startNs, long endNs) {
    TimingInterval total = new TimingInterval(fixedRate);
    total.bounds(startNs, endNs);
    Map<String, TimingInterval> current = new TreeMap<>();
    for (Map.Entry<String, OpRecorder> e : recorders.entrySet()) {
      TimingInterval t = e.getValue().take();
      t.bounds(startNs, endNs);
      current.put(e.getKey(), t);
      summaryByOp.computeIfAbsent(e.getKey(), k -> new TimingInterval(fixedRate)).add(t);
      total.add(t);
    }
    summary.add(total);
    GcStats intervalGc = gc.get();
    totalGc = totalGc.plus(intervalGc);
    uncertainty.update(total.adjustedRowRate());
    if (total.operationCount() == 0) {
      return;
    }
    boolean perOpLines = current.size() > 1;
    for (Map.Entry<String, TimingInterval> e : current.entrySet()) {
      if (perOpLines) {
        output.println(StressReport.row("", e.getKey(), e.getValue(), summaryByOp.get(e.getKey()),
            uncertainty.get(), intervalGc));
      }
      logHistograms(e.getKey(), e.getValue());
    }
    output.println(StressReport.row("", "total", total, summary, uncertainty.get(), intervalGc));
  }

  /** Prints the Results block for the whole run. */
  public void summarise() {
    output.println("\n");
    for (String line : StressReport.results(summary, summaryByOp, totalGc())) {
      output.println(line);
    }
  }

  private void logHistograms(String op, TimingInterval t) {
    if (hdrLog == null) {
      return;
    }
    logHistogram(op + "-st", t, t.serviceTime());
    logHistogram(op + "-rt", t, t.responseTime());
    logHistogram(op + "-wt", t, t.waitTime());
  }

  private void logHistogram(String tag, TimingInterval t, Histogram h) {
    if (h.getTotalCount() == 0) {
      return;
    }
    h.setTag(tag);
    h.setStartTimeStamp(epochMs + TimeUnit.NANOSECONDS.toMillis(t.startNanos() - epochNs));
    h.setEndTimeStamp(epochMs + TimeUnit.NANOSECONDS.toMillis(t.endNanos() - epochNs));
    hdrLog.outputIntervalHistogram(h);
  }
}
