package io.cassette.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.CheckResult;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.workload.Workload;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The faults that found the two ring defects of issue 18 ({@code -Pslow}): a bridge partition
 * (one node sees both halves, so the nodes disagree on who is up) and halves, while counters,
 * CAS registers and bank transfers run. The leader-based serialisation lost counter increments
 * here (bench/fault-lab on the old build: 4 of 120 and 4 of 148); with Paxos every verdict must be OK.
 */
@Tag("slow")
class SplitLivenessLabTest {
  @Test
  void countersCasAndTransfersSurviveSplitLivenessViews() throws Exception {
    LabResult r = FaultLab.run(LabRuns.options("split-liveness", 3, 90,
        List.of(FaultKind.PARTITION_BRIDGE, FaultKind.PARTITION_HALVES), 5, 10,
        List.of("counter", "cas-register", "bank"), 3, List.of()), System.out);
    System.out.println(Files.readString(r.report()));
    for (Workload.Verdict v : r.verdicts()) {
      assertThat(v.verdict()).as(v.workload() + "\n" + String.join("\n", v.details()))
          .isEqualTo(CheckResult.Verdict.OK);
    }
  }
}
