package io.cassette.tools.stress;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a stress command as cassandra-stress's StressAction does: schema, a 2 s pause, warmup
 * (a quarter of n, at most 50,000 operations, output discarded), truncation, then either one
 * run at the given thread count or the thread ramp, each run printing interval lines and a
 * Results block; "END" on success, "FAILURE" otherwise.
 *
 * <p>Each run gets a fresh seed sequence, so {@code read n=N -pop seq=1..N} after
 * {@code write n=N} visits exactly the keys written.
 */
public final class StressRunner {
  /** Pause before the first run, as cassandra-stress ("Sleeping 2s..."). */
  static final int SETTLE_SECONDS = 2;
  /** Pause between ramp steps of a write command, to let the commit log flush. */
  static final int RAMP_WRITE_PAUSE_SECONDS = 15;
  /** Warmup operations: a quarter of n, at most this many (per node). */
  static final int MAX_WARMUP_OPERATIONS = 50_000;
  /** Warmup threads, at most. */
  static final int MAX_WARMUP_THREADS = 100;
  /** Failed-operation messages printed per run; more are only counted. */
  static final int MAX_ERRORS_SHOWN = 10;

  private final StressSettings settings;
  private final Workload workload;
  private final ResultLogger output;
  private final PrintStream errors;
  /** The servers' GC figures, or null when they have no JMX. */
  private java.util.function.Supplier<GcStats> gc;

  public StressRunner(StressSettings settings, Workload workload, ResultLogger output, PrintStream errors) {
    this.settings = settings;
    this.workload = workload;
    this.output = output;
    this.errors = errors;
  }

  /** Runs everything; true when every run succeeded ("END"). */
  public boolean run() throws InterruptedException {
    StressSettings.CommandSettings command = settings.command();
    try (CqlSession schemaSession = CqlConnection.open(settings, null)) {
      workload.createSchema(schemaSession, output);
    }
    if (command.count() == 0) {
      output.println("N=0: SCHEMA CREATED, NOTHING ELSE DONE.");
      return true;
    }
    JmxGcCollector jmx = JmxGcCollector.connect(settings.nodes(), settings.jmxPort(), errors);
    gc = jmx;
    try (CqlSession session = CqlConnection.open(settings, workload.keyspace())) {
      List<StressOperation> operations = workload.operations(session);
      output.println("Sleeping " + SETTLE_SECONDS + "s...");
      sleepSeconds(SETTLE_SECONDS);
      if (!command.noWarmup()) {
        warmup(operations);
      }
      StressSettings.RateSettings rate = settings.rate();
      if (command.truncate() == StressSettings.Truncate.ONCE
          || (!rate.isRamp() && command.truncate() == StressSettings.Truncate.ALWAYS)) {
        truncate(session);
      }
      if (rate.isRamp()) {
        output.println("Thread count was not specified");
      }
      boolean success = rate.isRamp() ? runRamp(session, operations)
          : runOnce(operations, workload.weights(), rate.threads(), command.count(), false, output) != null;
      output.println(success ? "END" : "FAILURE");
      return success;
    } finally {
      if (jmx != null) {
        jmx.close();
      }
    }
  }

  private void warmup(List<StressOperation> operations) throws InterruptedException {
    long count = settings.command().count();
    long iterations = (count >= 0 ? Math.min(MAX_WARMUP_OPERATIONS, (long) (count * 0.25)) : MAX_WARMUP_OPERATIONS)
        * settings.nodes().size();
    if (iterations <= 0) {
      return;
    }
    int threads = MAX_WARMUP_THREADS;
    if (settings.rate().maxThreads() > 0) {
      threads = Math.min(threads, settings.rate().maxThreads());
    }
    if (settings.rate().threads() > 0) {
      threads = Math.min(threads, settings.rate().threads());
    }
    for (StressOperation op : operations) {
      output.println(String.format("Warming up %s with %d iterations...", op.name(), iterations));
      runOnce(List.of(op), List.of(1.0), threads, iterations, true, ResultLogger.NOOP);
    }
  }

  private boolean runRamp(CqlSession session, List<StressOperation> operations) throws InterruptedException {
    StressSettings.RateSettings rate = settings.rate();
    StressSettings.CommandSettings command = settings.command();
    int previous = -1;
    int threads = rate.minThreads();
    List<String> ids = new ArrayList<>();
    List<Double> opRates = new ArrayList<>();
    List<Map<String, TimingInterval>> byOp = new ArrayList<>();
    List<TimingInterval> totals = new ArrayList<>();
    List<Double> uncertainties = new ArrayList<>();
    List<GcStats> gcStats = new ArrayList<>();
    do {
      output.println("");
      output.println(String.format("Running with %d threadCount", threads));
      if (command.truncate() == StressSettings.Truncate.ALWAYS) {
        truncate(session);
      }
      StressMetrics result = runOnce(operations, workload.weights(), threads, command.count(), false, output);
      if (result == null) {
        return false;
      }
      opRates.add(result.opRate());
      byOp.add(result.summaryByOp());
      totals.add(result.summary());
      uncertainties.add(result.uncertainty().get());
      gcStats.add(result.totalGc());
      if (previous > 0) {
        output.println(String.format("Improvement over %d threadCount: %.0f%%", previous,
            100 * ThreadRamp.averageImprovement(opRates, 1)));
      }
      ids.add(threads + " threadCount");
      previous = threads;
      threads = ThreadRamp.next(threads);
      if (threads > rate.maxThreads()) {
        break;
      }
      if (command.type().updates) {
        output.println("Sleeping for " + RAMP_WRITE_PAUSE_SECONDS + "s");
        sleepSeconds(RAMP_WRITE_PAUSE_SECONDS);
      }
    } while (!rate.auto() || ThreadRamp.keepGoing(opRates, command.targetUncertainty()));
    for (String line : StressReport.rampSummary(ids, byOp, totals, uncertainties, gcStats)) {
      output.println(line);
    }
    return true;
  }

  /**
   * One run at a fixed thread count.
   *
   * @param opCount operations to perform; negative when bounded by duration or uncertainty
   * @return the run's measurements, or null when an operation failed (without -errors ignore)
   */
  StressMetrics runOnce(List<StressOperation> operations, List<Double> weights, int threadCount,
      long opCount, boolean warmup, ResultLogger out) throws InterruptedException {
    StressSettings.CommandSettings command = settings.command();
    String bound = command.durationSeconds() > 0 ? durationText(command.durationText())
        : opCount > 0 ? "for " + opCount + " iteration"
        : "until stderr of mean < " + command.targetUncertainty();
    String description = operations.size() == 1 ? operations.get(0).name() : workload.description();
    out.println(String.format("Running %s with %d threads %s", description, threadCount, bound));

    WorkLimit work = new WorkLimit(warmup || command.durationSeconds() == 0 ? opCount : -1);
    SeedSource seeds = new SeedSource(settings.population());
    StressSettings.RateSettings rate = settings.rate();
    UniformRateLimiter limiter = !warmup && rate.opsPerSecond() > 0 ? new UniformRateLimiter(rate.opsPerSecond()) : null;
    StressMetrics metrics = new StressMetrics(out, settings.log().intervalMillis(), rate.fixedRate() && !warmup,
        warmup ? null : settings.log().hdrFile(), warmup ? null : gc);
    int tries = warmup ? 1 : settings.errors().tries();
    boolean ignoreErrors = warmup || settings.errors().ignore();
    CountDownLatch ready = new CountDownLatch(threadCount);
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(threadCount);
    AtomicInteger failedThreads = new AtomicInteger();
    AtomicInteger errorsShown = new AtomicInteger();
    SplittableRandom root = new SplittableRandom(System.nanoTime());
    List<Thread> threads = new ArrayList<>(threadCount);
    for (int i = 0; i < threadCount; i++) {
      OperationMix mix = new OperationMix(operations, weights, command.clustering(), root.split());
      Thread t = new Thread(() -> {
        ready.countDown();
        try {
          go.await();
          if (!consume(mix, work, seeds, limiter, metrics, tries, ignoreErrors, errorsShown)) {
            failedThreads.incrementAndGet();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          done.countDown();
        }
      }, "stress-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    ready.await();
    if (limiter != null) {
      limiter.start();
    }
    go.countDown();
    metrics.start();
    if (!warmup && command.durationSeconds() > 0) {
      done.await(command.durationSeconds(), TimeUnit.SECONDS);
      work.stop();
    } else if (!warmup && opCount < 0) {
      metrics.uncertainty().await(command.targetUncertainty(), command.minMeasurements(),
          command.maxMeasurements(), () -> done.getCount() == 0);
      work.stop();
    }
    done.await();
    metrics.stop();
    if (!settings.log().noSummary()) {
      metrics.summarise();
    }
    return failedThreads.get() == 0 ? metrics : null;
  }

  /** One thread's loop; false when it stopped on a failed operation. */
  private boolean consume(OperationMix mix, WorkLimit work, SeedSource seeds, UniformRateLimiter limiter,
      StressMetrics metrics, int tries, boolean ignoreErrors, AtomicInteger errorsShown) {
    while (work.take()) {
      long intended = limiter == null ? 0 : limiter.acquire();
      long seed = seeds.next();
      if (seed == SeedSource.EXHAUSTED) {
        work.stop();
        break;
      }
      StressOperation op = mix.next();
      long start = System.nanoTime();
      long rows = 0;
      RuntimeException failure = null;
      for (int attempt = 0; attempt < tries; attempt++) {
        try {
          rows = op.execute(seed);
          failure = null;
          break;
        } catch (RuntimeException e) {
          failure = e;
        }
      }
      long end = System.nanoTime();
      metrics.record(op.name(), intended, start, end, rows, 1, failure != null);
      if (failure != null && !ignoreErrors) {
        report(op, tries, failure, errorsShown);
        return false;
      }
    }
    return true;
  }

  private void report(StressOperation op, int tries, RuntimeException failure, AtomicInteger errorsShown) {
    int shown = errorsShown.incrementAndGet();
    if (shown <= MAX_ERRORS_SHOWN) {
      String what = failure instanceof StressOperation.ValidationFailure ? failure.getMessage()
          : "Operation " + op.name() + " x" + tries + ": Error executing: (" + failure.getClass().getSimpleName()
              + "): " + failure.getMessage();
      errors.println("java.io.IOException: " + what);
    } else if (shown == MAX_ERRORS_SHOWN + 1) {
      errors.println("(further failed operations are counted, not shown)");
    }
  }

  private void truncate(CqlSession session) {
    for (String table : workload.tables()) {
      session.execute(String.format("TRUNCATE %s.%s", workload.keyspace(), table));
    }
    output.println(String.format("Truncated %s.%s. Sleeping %ss for propagation.", workload.keyspace(),
        workload.tables(), settings.nodes().size()));
    sleepSeconds(settings.nodes().size());
  }

  /** "30 seconds", "5 minutes" from "30s", "5m", as cassandra-stress prints the duration. */
  static String durationText(String text) {
    long amount = Long.parseLong(text.substring(0, text.length() - 1));
    char unit = Character.toLowerCase(text.charAt(text.length() - 1));
    return amount + (unit == 'h' ? " hours" : unit == 'm' ? " minutes" : " seconds");
  }

  static void sleepSeconds(long seconds) {
    try {
      Thread.sleep(seconds * 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
