package io.cassette.bench.jmh;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * {@code -prof io.cassette.bench.jmh.CpuTimeProfiler}: the forked JVM's CPU time (user +
 * system, every thread: GC and JIT included) per operation of each iteration, as
 * {@code ·cpu.time}. On a shared machine wall time per operation grows with every other
 * process on the cores; CPU time much less (caches are still shared), so it is the figure
 * to compare across runs here. {@code ·cpu.worker} counts the benchmark threads alone (JMH's
 * "jmh-worker" threads): the code under test without JIT compiler and GC threads, which on
 * a starved machine may still be compiling long after warm-up.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  private long startNanos;
  private long startWorkerNanos;

  /** CPU time of the live JMH worker threads (they live for the whole trial). */
  private static long workerCpuNanos() {
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t != null && t.getThreadName().contains("jmh-worker")) {
        long ns = threads.getThreadCpuTime(t.getThreadId());
        sum += Math.max(0, ns);
      }
    }
    return sum;
  }

  @Override
  public String getDescription() {
    return "process CPU time (user + system) per operation";
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    startNanos = processCpuNanos();
    startWorkerNanos = workerCpuNanos();
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                     IterationResult result) {
    long cpu = processCpuNanos() - startNanos;
    long worker = workerCpuNanos() - startWorkerNanos;
    long ops = result.getMetadata().getMeasuredOps();
    double scale = benchmarkParams.getTimeUnit().toNanos(1);
    String unit = benchmarkParams.getTimeUnit() == java.util.concurrent.TimeUnit.NANOSECONDS ? "ns/op"
        : benchmarkParams.getTimeUnit() == java.util.concurrent.TimeUnit.MICROSECONDS ? "us/op" : "?/op";
    return List.of(
        new ScalarResult("cpu.time", ops == 0 ? Double.NaN : cpu / scale / ops, unit, AggregationPolicy.AVG),
        new ScalarResult("cpu.worker", ops == 0 ? Double.NaN : worker / scale / ops, unit, AggregationPolicy.AVG));
  }
}
