package io.cassette.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.CheckResult;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.workload.Workload;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The long form ({@code -Pslow}): each fault kind in turn for five minutes, every workload. */
@Tag("slow")
class FaultLabLongTest {
  @Test
  void fiveMinutesOfEveryFaultKind() throws Exception {
    LabResult r = FaultLab.run(LabRuns.options("long", 3, 300,
        List.of(FaultKind.KILL, FaultKind.PARTITION, FaultKind.PAUSE, FaultKind.PARTITION_ONE_WAY), 5, 10,
        LabOptions.ALL_WORKLOADS, 3, List.of()), System.out);
    System.out.println(Files.readString(r.report()));
    assertThat(r.errors()).isEmpty();
    assertThat(r.faults().size()).isGreaterThanOrEqualTo(8);
    for (Workload.Verdict v : r.verdicts()) {
      assertThat(v.verdict()).as(v.workload() + "\n" + String.join("\n", v.details()))
          .isEqualTo(CheckResult.Verdict.OK);
    }
  }
}
