package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The run loop with operations that need no server: counts, seeds, failures, schedules. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StressRunnerTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ResultLogger logger = new ResultLogger(List.of(new PrintStream(out, true, StandardCharsets.UTF_8)));

  /** An operation that records the seeds it saw and does whatever {@code body} does. */
  private static final class FakeOp implements StressOperation {
    final Set<Long> seeds = ConcurrentHashMap.newKeySet();
    final AtomicLong calls = new AtomicLong();
    final LongConsumer body;

    FakeOp(LongConsumer body) {
      this.body = body;
    }

    @Override
    public String name() {
      return "WRITE";
    }

    @Override
    public long execute(long seed) {
      calls.incrementAndGet();
      seeds.add(seed);
      body.accept(seed);
      return 1;
    }
  }

  private StressRunner runner(String commandLine) {
    StressSettings settings = StressSettingsParser.parse(commandLine.split(" "));
    Workload workload = new Workload() {
      @Override public String description() {
        return "WRITE";
      }

      @Override public String keyspace() {
        return "keyspace1";
      }

      @Override public void createSchema(CqlSession session, ResultLogger output) { }

      @Override public List<String> tables() {
        return List.of();
      }

      @Override public List<StressOperation> operations(CqlSession session) {
        return List.of();
      }

      @Override public List<Double> weights() {
        return List.of(1.0);
      }
    };
    return new StressRunner(settings, workload, logger, new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void countedRunVisitsEverySeedOnce() throws Exception {
    FakeOp op = new FakeOp(seed -> { });
    StressMetrics m = runner("write n=1000 -rate threads=4 -log interval=100ms")
        .runOnce(List.of(op), List.of(1.0), 4, 1000, false, logger);
    assertThat(m).isNotNull();
    assertThat(op.calls).hasValue(1000);
    assertThat(op.seeds).hasSize(1000).allMatch(s -> s >= 1 && s <= 1000);
    assertThat(m.summary().operationCount()).isEqualTo(1000);
    assertThat(m.summary().partitionCount()).isEqualTo(1000);
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("Running WRITE with 4 threads for 1000 iteration")
        .contains("Total partitions          :      1,000 [WRITE: 1,000]");
  }

  @Test
  void noSummaryLeavesOutTheResultsBlock() throws Exception {
    FakeOp op = new FakeOp(seed -> { });
    runner("write n=10 -rate threads=1 -log no-summary").runOnce(List.of(op), List.of(1.0), 1, 10, false, logger);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains(StressReport.HEAD).doesNotContain("Results:");
  }

  @Test
  void durationRunStopsOnTime() throws Exception {
    FakeOp op = new FakeOp(seed -> sleepMillis(1));
    long start = System.nanoTime();
    StressMetrics m = runner("write duration=1s -rate threads=2").runOnce(List.of(op), List.of(1.0), 2, -1, false, logger);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(millis).isBetween(900L, 5000L);
    assertThat(m.summary().operationCount()).isGreaterThan(50);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("Running WRITE with 2 threads 1 seconds");
  }

  @Test
  void failedOperationFailsTheRunUnlessIgnored() throws Exception {
    FakeOp failing = new FakeOp(seed -> {
      throw new IllegalStateException("server said no");
    });
    assertThat(runner("write n=20 -rate threads=2 -errors retries=2")
        .runOnce(List.of(failing), List.of(1.0), 2, 20, false, logger)).isNull();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Operation WRITE x3: Error executing: (IllegalStateException): server said no");
    assertThat(failing.calls.get()).isEqualTo(6); // each of the 2 threads: one op, 3 tries, then stops

    FakeOp alsoFailing = new FakeOp(seed -> {
      throw new IllegalStateException("no");
    });
    StressMetrics m = runner("write n=20 -rate threads=2 -errors ignore retries=0")
        .runOnce(List.of(alsoFailing), List.of(1.0), 2, 20, false, logger);
    assertThat(m).isNotNull();
    assertThat(m.summary().errorCount()).isEqualTo(20);
  }

  @Test
  void fixedRateChargesStallsToTheOperationsBehindThem() throws Exception {
    AtomicLong first = new AtomicLong();
    FakeOp op = new FakeOp(seed -> {
      if (first.getAndIncrement() == 0) {
        sleepMillis(200); // one stall; at 200/s the next ~40 operations are scheduled behind it
      }
    });
    StressMetrics m = runner("write n=200 -rate threads=1 fixed=200/s")
        .runOnce(List.of(op), List.of(1.0), 1, 200, false, logger);
    assertThat(m.summary().maxLatencyMs()).isGreaterThanOrEqualTo(199);
    assertThat(m.summary().latencyAtPercentileMs(90)).isGreaterThan(20);
    assertThat(m.summary().serviceTime().getValueAtPercentile(90) / 1e6).isLessThan(20);
  }

  @Test
  void uncertaintyRunStopsOnceTheRateSettles() throws Exception {
    FakeOp op = new FakeOp(seed -> sleepMillis(1));
    StressMetrics m = runner("read err<0.9 n>3 n<6 -rate threads=2 -log interval=100ms")
        .runOnce(List.of(op), List.of(1.0), 2, -1, false, logger);
    assertThat(m.uncertainty().measurements()).isBetween(3, 8);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("until stderr of mean < 0.9");
  }

  @Test
  void mixedRunReportsEachOperation() throws Exception {
    FakeOp write = new FakeOp(seed -> { });
    StressOperation read = new StressOperation() {
      @Override public String name() {
        return "READ";
      }

      @Override public long execute(long seed) {
        return 1;
      }
    };
    StressMetrics m = runner("mixed ratio(write=1,read=3) n=4000 -rate threads=2")
        .runOnce(List.of(write, read), List.of(1.0, 3.0), 2, 4000, false, logger);
    long writes = m.summaryByOp().get("WRITE").operationCount();
    long reads = m.summaryByOp().get("READ").operationCount();
    assertThat(writes + reads).isEqualTo(4000);
    assertThat((double) reads / writes).isBetween(2.0, 4.5);
  }
}
