package io.cassette.lab.report;

import io.cassette.lab.LabOptions;
import io.cassette.lab.check.Status;
import io.cassette.lab.fault.FaultWindow;
import io.cassette.lab.workload.OpRecord;
import io.cassette.lab.workload.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code report.md} and {@code latency.svg} of one run. */
public final class LabReport {
  /** Lines of a workload's details printed in the report (a violation's excerpt comes first). */
  private static final int MAX_DETAIL_LINES = 60;

  private LabReport() {}

  public static Path write(LabOptions o, String network, List<FaultWindow> faults, List<Workload> workloads,
                           List<Workload.Verdict> verdicts, List<String> errors, long runMillis, Instant runBegan)
      throws IOException {
    Map<String, List<OpRecord>> byWorkload = new LinkedHashMap<>();
    for (Workload w : workloads) {
      byWorkload.put(w.name(), w.records());
    }
    Files.writeString(o.out().resolve("latency.svg"), LatencyChart.svg(o.title(), byWorkload, faults, runMillis),
        StandardCharsets.UTF_8);
    StringBuilder b = new StringBuilder();
    b.append("# ").append(o.title()).append("\n\n");
    b.append("- when: run began ").append(runBegan).append(" (time 0 of the histories; the nodes' logs use this clock), "
        + "seed ").append(o.seed()).append('\n');
    b.append("- network: ").append(network).append('\n');
    b.append("- nodes: ").append(o.nodes()).append(" started as ").append(o.launcher().describe()).append('\n');
    b.append("- workloads: ").append(o.clients()).append(" clients each, think time ").append(o.thinkMillis())
        .append(" ms, at most ").append(o.maxOperations()).append(" operations each, ").append(runMillis)
        .append(" ms run");
    // Setup (the workloads' tables, a loaded machine) runs on the same clock before the first
    // operation: a run whose operations all began after its first fault must not read as one
    // that failed from time 0 (bench/results/2026-12-02-faultlabtest-redis-incr.md did).
    long first = byWorkload.values().stream().flatMap(List::stream).mapToLong(OpRecord::call).min().orElse(-1);
    if (first >= 0) {
      b.append(", first operation called at ").append(first / 1_000_000).append(" ms");
    }
    b.append("\n\n");
    b.append("## Faults\n\n| # | fault | node | from ms | to ms | note |\n|---|---|---|---|---|---|\n");
    int i = 1;
    for (FaultWindow f : faults) {
      b.append("| ").append(i++).append(" | ").append(f.kind().label()).append(" | ")
          .append(f.node() > 0 ? "n" + f.node() : "-").append(" | ")
          .append(f.start()).append(" | ").append(f.end()).append(" | ").append(f.note()).append(" |\n");
    }
    if (faults.isEmpty()) {
      b.append("| - | none | | | | |\n");
    }
    b.append("\n## Operations\n\n| workload | ok | failed | indeterminate | p50 ms | p99 ms | max ms |\n"
        + "|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, List<OpRecord>> e : byWorkload.entrySet()) {
      long[] c = new long[3];
      List<Long> lat = new ArrayList<>();
      for (OpRecord r : e.getValue()) {
        c[r.status().ordinal()]++;
        if (r.status() == Status.OK) {
          lat.add(r.latencyNanos());
        }
      }
      lat.sort(null);
      b.append("| ").append(e.getKey()).append(" | ").append(c[0]).append(" | ").append(c[1]).append(" | ")
          .append(c[2]).append(" | ").append(ms(lat, 0.50)).append(" | ").append(ms(lat, 0.99)).append(" | ")
          .append(ms(lat, 1.0)).append(" |\n");
    }
    b.append("\n## Verdicts\n\n| workload | checker | verdict |\n|---|---|---|\n");
    for (Workload.Verdict v : verdicts) {
      b.append("| ").append(v.workload()).append(" | ").append(v.checker()).append(" | **").append(v.verdict())
          .append("** |\n");
    }
    for (Workload.Verdict v : verdicts) {
      b.append("\n### ").append(v.workload()).append("\n\n```\n");
      List<String> d = v.details();
      for (int k = 0; k < Math.min(d.size(), MAX_DETAIL_LINES); k++) {
        b.append(d.get(k)).append('\n');
      }
      if (d.size() > MAX_DETAIL_LINES) {
        b.append("... ").append(d.size() - MAX_DETAIL_LINES).append(" more lines\n");
      }
      b.append("```\n");
    }
    if (!errors.isEmpty()) {
      b.append("\n## Nodes that exited during start (started again), faults not recovered, errors of the lab\n\n");
      for (String e : errors) {
        b.append("- ").append(e).append('\n');
      }
    }
    b.append("\n![latency over time](latency.svg)\n\nTimes in histories are nanoseconds since the run began; "
        + "fault windows above in milliseconds on the same clock. Whole histories: history-*.txt beside this file.\n");
    Path report = o.out().resolve("report.md");
    Files.writeString(report, b.toString(), StandardCharsets.UTF_8);
    return report;
  }

  private static String ms(List<Long> sorted, double q) {
    if (sorted.isEmpty()) {
      return "-";
    }
    long v = sorted.get(Math.min(sorted.size() - 1, Math.max(0, (int) Math.ceil(sorted.size() * q) - 1)));
    return String.format(Locale.ROOT, "%.1f", v / 1e6);
  }
}
