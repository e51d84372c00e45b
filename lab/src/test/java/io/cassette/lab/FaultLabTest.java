package io.cassette.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.CheckResult;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.workload.Workload;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fault lab's short form, in the default test run: three real nodes (network namespaces
 * when run as root, else 127.0.0.1-3), every workload for 30 s while a node is killed and
 * restarted, paused, and cut off; then the report and the checkers' verdicts.
 */
class FaultLabTest {
  @Test
  void shortRunWithEveryFaultKindReportsVerdictsForEveryWorkload() throws Exception {
    LabResult r = FaultLab.run(LabRuns.options("short", 3, 30,
        List.of(FaultKind.KILL, FaultKind.PARTITION, FaultKind.PAUSE), 3, 6, LabOptions.ALL_WORKLOADS, 2, List.of()),
        System.out);
    System.out.println(Files.readString(r.report()));
    assertThat(r.faults()).as("faults injected").isNotEmpty();
    // A node that does not come back from a fault is reported (r.errors()) and the run goes on;
    // seen once so far: a restarted node exiting because its RESP door found no QUORUM at start.
    System.out.println("faults not recovered / lab errors: " + r.errors());
    assertThat(Files.exists(r.report().resolveSibling("latency.svg"))).isTrue();
    for (Workload.Verdict v : r.verdicts()) {
      assertThat(r.counts().get(v.workload())[0]).as("acknowledged operations of " + v.workload()).isPositive();
    }
    // Acknowledged QUORUM inserts are never lost in today's ring. CAS and counters are not
    // asserted here yet: they run on a per-partition leader until Paxos (issue 18), and the lab
    // has caught both going wrong when the leader changes (bench/results/2026-12-01-fault-lab.md).
    // FaultLabLongTest (-Pslow) asserts every verdict. Tighten this once Paxos is in.
    assertThat(r.verdict("set")).as(String.join("\n", r.verdicts().get(1).details())).isEqualTo(CheckResult.Verdict.OK);
  }
}
