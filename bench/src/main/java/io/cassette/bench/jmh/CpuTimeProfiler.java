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
 * to compare across runs here.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  private long startNanos;

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
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                     IterationResult result) {
    long cpu = processCpuNanos() - startNanos;
    long ops = result.getMetadata().getMeasuredOps();
    double perOp = ops == 0 ? Double.NaN : (double) cpu / ops;
    double scale = benchmarkParams.getTimeUnit().toNanos(1);
    return List.of(new ScalarResult("cpu.time", perOp / scale,
        benchmarkParams.getTimeUnit() == java.util.concurrent.TimeUnit.NANOSECONDS ? "ns/op"
            : benchmarkParams.getTimeUnit() == java.util.concurrent.TimeUnit.MICROSECONDS ? "us/op" : "?/op",
        AggregationPolicy.AVG));
  }
}
