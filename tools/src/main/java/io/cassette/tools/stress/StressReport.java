package io.cassette.tools.stress;

import java.util.List;
import java.util.Map;

/**
 * The text cassandra-stress prints, character for character: the interval header and rows,
 * the "Results:" block, and the thread-ramp summary table. Pure formatting.
 */
public final class StressReport {
  /** Column headings of the interval lines. */
  public static final String[] HEAD_METRICS = {"type", "total ops", "op/s", "pk/s", "row/s", "mean",
      "med", ".95", ".99", ".999", "max", "time", "stderr", "errors", "gc: #", "max ms", "sum ms",
      "sdv ms", "mb"};
  static final String HEAD_FORMAT =
      "%-50s%10s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%7s,%9s,%7s,%7s,%8s,%8s,%8s,%8s";
  static final String ROW_FORMAT =
      "%-50s%10d,%8.0f,%8.0f,%8.0f,%8.1f,%8.1f,%8.1f,%8.1f,%8.1f,%8.1f,%7.1f,%9.5f,%7d,%7.0f,%8.0f,%8.0f,%8.0f,%8.0f";
  /** The header line before the interval rows. */
  public static final String HEAD = String.format(HEAD_FORMAT, (Object[]) HEAD_METRICS);

  private StressReport() {}

  /**
   * One interval line.
   *
   * @param interval the interval's measurements (rates and latencies)
   * @param total the run so far (total ops and elapsed time)
   */
  public static String row(String prefix, String type, TimingInterval interval, TimingInterval total,
      double uncertainty, GcStats gc) {
    return prefix + String.format(ROW_FORMAT,
        type + ",",
        total.operationCount(),
        interval.opRate(),
        interval.partitionRate(),
        interval.rowRate(),
        interval.meanLatencyMs(),
        interval.medianLatencyMs(),
        interval.latencyAtPercentileMs(95.0),
        interval.latencyAtPercentileMs(99.0),
        interval.latencyAtPercentileMs(99.9),
        interval.maxLatencyMs(),
        total.runTimeMs() / 1000f,
        uncertainty,
        interval.errorCount(),
        gc.count(),
        gc.maxMs(),
        gc.sumMs(),
        gc.sdvMs(),
        gc.bytes() / (1 << 20));
  }

  /** The lines of the "Results:" block (after its two blank lines), ending with a blank line. */
  public static List<String> results(TimingInterval total, Map<String, TimingInterval> byOp, GcStats gc) {
    return List.of(
        "Results:",
        String.format("Op rate                   : %,8.0f op/s  %s", total.opRate(), perOp(byOp, "op/s", i -> String.format("%,.0f", i.opRate()))),
        String.format("Partition rate            : %,8.0f pk/s  %s", total.partitionRate(), perOp(byOp, "pk/s", i -> String.format("%,.0f", i.partitionRate()))),
        String.format("Row rate                  : %,8.0f row/s %s", total.rowRate(), perOp(byOp, "row/s", i -> String.format("%,.0f", i.rowRate()))),
        String.format("Latency mean              : %6.1f ms %s", total.meanLatencyMs(), perOp(byOp, "ms", i -> String.format("%,.1f", i.meanLatencyMs()))),
        String.format("Latency median            : %6.1f ms %s", total.medianLatencyMs(), perOp(byOp, "ms", i -> String.format("%,.1f", i.medianLatencyMs()))),
        String.format("Latency 95th percentile   : %6.1f ms %s", total.latencyAtPercentileMs(95.0), perOp(byOp, "ms", i -> String.format("%,.1f", i.latencyAtPercentileMs(95.0)))),
        String.format("Latency 99th percentile   : %6.1f ms %s", total.latencyAtPercentileMs(99.0), perOp(byOp, "ms", i -> String.format("%,.1f", i.latencyAtPercentileMs(99.0)))),
        String.format("Latency 99.9th percentile : %6.1f ms %s", total.latencyAtPercentileMs(99.9), perOp(byOp, "ms", i -> String.format("%,.1f", i.latencyAtPercentileMs(99.9)))),
        String.format("Latency max               : %6.1f ms %s", total.maxLatencyMs(), perOp(byOp, "ms", i -> String.format("%,.1f", i.maxLatencyMs()))),
        String.format("Total partitions          : %,10d %s", total.partitionCount(), perOp(byOp, "", i -> String.format("%,d", i.partitionCount()))),
        String.format("Total errors              : %,10d %s", total.errorCount(), perOp(byOp, "", i -> String.format("%,d", i.errorCount()))),
        String.format("Total GC count            : %,1.0f", gc.count()),
        String.format("Total GC memory           : %s", prettyPrintMemory((long) gc.bytes())),
        String.format("Total GC time             : %,6.1f seconds", gc.sumMs() / 1000),
        String.format("Avg GC time               : %,6.1f ms", gc.sumMs() / gc.count()),
        String.format("StdDev GC time            : %,6.1f ms", gc.sdvMs()),
        "Total operation time      : " + hhmmss(total.runTimeMs()),
        "");
  }

  /** The thread-ramp summary: one header, then per step its per-op rows and its total row. */
  public static List<String> rampSummary(List<String> ids, List<Map<String, TimingInterval>> byOp,
      List<TimingInterval> totals, List<Double> uncertainties, List<GcStats> gc) {
    int idLen = 0;
    for (String id : ids) {
      idLen = Math.max(idLen, id.length());
    }
    String idFormat = "%" + idLen + "s, ";
    List<String> lines = new java.util.ArrayList<>();
    lines.add(String.format(idFormat, "id") + HEAD);
    for (int i = 0; i < ids.size(); i++) {
      String prefix = String.format(idFormat, ids.get(i));
      for (Map.Entry<String, TimingInterval> op : byOp.get(i).entrySet()) {
        lines.add(row(prefix, op.getKey(), op.getValue(), op.getValue(), uncertainties.get(i), gc.get(i)));
      }
      lines.add(row(prefix, "total", totals.get(i), totals.get(i), uncertainties.get(i), gc.get(i)));
    }
    return lines;
  }

  /** "[WRITE: 1,234 op/s, READ: 2,345 op/s]" in op-name order; "[]" when there are none. */
  static String perOp(Map<String, TimingInterval> byOp, String unit,
      java.util.function.Function<TimingInterval, String> value) {
    StringBuilder b = new StringBuilder("[");
    for (Map.Entry<String, TimingInterval> e : byOp.entrySet()) {
      if (b.length() > 1) {
        b.append(", ");
      }
      b.append(e.getKey()).append(": ").append(value.apply(e.getValue()));
      if (!unit.isEmpty()) {
        b.append(' ').append(unit);
      }
    }
    return b.append(']').toString();
  }

  /** Elapsed time as HH:mm:ss, hours not wrapped at 24 (commons-lang's formatDuration). */
  static String hhmmss(long millis) {
    long seconds = millis / 1000;
    return String.format("%02d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60);
  }

  /** Memory as Cassandra's FBUtilities.prettyPrintMemory(bytes, includeSpace=true) shows it. */
  static String prettyPrintMemory(long size) {
    if (size >= 1L << 30) {
      return String.format("%.3f GiB", size / (double) (1L << 30));
    }
    if (size >= 1L << 20) {
      return String.format("%.3f MiB", size / (double) (1L << 20));
    }
    return String.format("%.3f KiB", size / (double) (1L << 10));
  }
}
