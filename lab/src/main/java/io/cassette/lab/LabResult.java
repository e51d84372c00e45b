package io.cassette.lab;

import io.cassette.lab.check.CheckResult;
import io.cassette.lab.fault.FaultWindow;
import io.cassette.lab.workload.Workload;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a run found: its fault windows, per workload the operation counts (ok, failed,
 * indeterminate) and the checker's verdict, and where the report was written.
 */
public record LabResult(List<FaultWindow> faults, Map<String, long[]> counts, List<Workload.Verdict> verdicts,
                        List<String> errors, Path report) {
  public CheckResult.Verdict verdict(String workload) {
    return verdicts.stream().filter(v -> v.workload().equals(workload)).findFirst().orElseThrow().verdict();
  }

  /** One line: every workload's counts and verdict. */
  public String summary() {
    StringBuilder b = new StringBuilder();
    for (Workload.Verdict v : verdicts) {
      long[] c = counts.get(v.workload());
      b.append(b.length() > 0 ? "; " : "").append(v.workload()).append(' ').append(c[0]).append('/').append(c[1])
          .append('/').append(c[2]).append(" ok/fail/indet: ").append(v.verdict());
    }
    return b.append(" (").append(faults.size()).append(" faults").append(errors.isEmpty() ? "" : ", " + errors.size()
        + " errors: see the report").append(')').toString();
  }
}
