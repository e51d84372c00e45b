package io.cassette.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.CheckResult;
import io.cassette.lab.fault.FaultKind;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lab catches a deliberately broken build: nodes started with the coordinator's test fault
 * {@code cassette.test_fault.ack_write_before_replicas} acknowledge a QUORUM write as soon as it
 * is sent and store no hints; with one node cut off, the set checker must report acknowledged
 * inserts missing from later QUORUM reads.
 *
 * <p>In {@code -Pslow}: it proves the lab, which changes rarely, and costs a second ring start
 * (1.5-4 min here); the default run keeps {@link FaultLabTest}, which proves the ring.
 */
@Tag("slow")
class BrokenBuildTest {
  @Test
  void writesAcknowledgedBeforeTheReplicasAnswerAreCaughtAsLost() throws Exception {
    LabResult r = FaultLab.run(LabRuns.options("broken-ack", 3, 25, List.of(FaultKind.PARTITION), 3, 12,
        List.of("set"), 3, List.of("-Dcassette.test_fault.ack_write_before_replicas=true")), System.out);
    System.out.println(Files.readString(r.report()));
    assertThat(r.verdict("set")).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(String.join("\n", r.verdicts().get(0).details())).containsPattern("stale \\(acknowledged, missing from a later read\\): [1-9]");
  }
}
