package io.cassette.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.CheckResult;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.workload.Workload;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lab catches deliberately broken builds, and passes the real one on the same run. Each
 * broken build is the real node started with one test fault (a JVM property named
 * {@code cassette.test_fault.*}, documented in the code beside the fault and in lab/README.md):
 *
 * <ul>
 *   <li>{@code ack_write_before_replicas} (coordinator {@code WriteFanOut}): a QUORUM write is
 *       acknowledged as soon as it is sent and no hint is stored; with one node cut off the set
 *       checker must report acknowledged inserts missing from later QUORUM reads;
 *   <li>{@code paxos_skip_prepare} (coordinator {@code PaxosCoordinator}): a lightweight
 *       transaction runs on the coordinator's own copy with no prepare round; concurrent CAS from
 *       several coordinators then both apply, and the CAS register's linearizability checker or
 *       the bank's conservation check must report it;
 *   <li>{@code drop_hints} (coordinator {@code HintedHandoff}): hints are silently dropped
 *       instead of stored; writes at ONE acknowledged while a node was cut off never reach it,
 *       and the hints workload's reads of each replica alone (after every node's pending hints
 *       are delivered) must find them missing. QUORUM reads cannot: a quorum always includes a
 *       replica that took the write, which is why the set checker passes this build.
 * </ul>
 *
 * <p>In {@code -Pslow}: three ring starts (1.5-4 min each here); the default run keeps
 * {@link FaultLabTest}, which proves the ring.
 */
@Tag("slow")
class BrokenBuildTest {
  private static final List<String> WORKLOADS = List.of("set", "cas-register", "bank", "hints");

  private static LabResult run(String name, List<String> jvmOptions) throws Exception {
    LabResult r = FaultLab.run(LabRuns.options(name, 3, 40, List.of(FaultKind.PARTITION), 3, 12, WORKLOADS, 3,
        jvmOptions), System.out);
    System.out.println(Files.readString(r.report()));
    return r;
  }

  private static String details(LabResult r, String workload) {
    return r.verdicts().stream().filter(v -> v.workload().equals(workload))
        .map(v -> String.join("\n", v.details())).findFirst().orElseThrow();
  }

  @Test
  void writesAcknowledgedBeforeTheReplicasAnswerAreCaughtAsLost() throws Exception {
    LabResult r = run("broken-ack", List.of("-Dcassette.test_fault.ack_write_before_replicas=true"));
    assertThat(r.verdict("set")).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(details(r, "set")).containsPattern("stale \\(acknowledged, missing from a later read\\): [1-9]");
  }

  @Test
  void paxosWithoutThePrepareRoundIsCaughtAsNotLinearizable() throws Exception {
    LabResult r = run("broken-paxos", List.of("-Dcassette.test_fault.paxos_skip_prepare=true"));
    List<String> caught = new ArrayList<>();
    for (String w : List.of("cas-register", "bank")) {
      if (r.verdict(w) == CheckResult.Verdict.VIOLATION) {
        caught.add(w);
      }
    }
    assertThat(caught).as(r.summary()).isNotEmpty();
  }

  @Test
  void droppedHintsAreCaughtAsWritesMissingFromAReplica() throws Exception {
    LabResult r = run("broken-hints", List.of("-Dcassette.test_fault.drop_hints=true"));
    assertThat(r.verdict("hints")).as(details(r, "hints")).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(details(r, "hints")).containsPattern("missing from a replica with no excuse: [1-9]");
  }

  @Test
  void theRealBuildPassesTheSameRun() throws Exception {
    LabResult r = run("real", List.of());
    assertThat(r.errors()).isEmpty();
    for (Workload.Verdict v : r.verdicts()) {
      assertThat(v.verdict()).as(v.workload() + "\n" + String.join("\n", v.details()))
          .isEqualTo(CheckResult.Verdict.OK);
    }
    // The hints check proves something only if hints were stored and replayed (the partitions did
    // cut replicas off from acknowledged writes) and all were delivered before the reads.
    assertThat(details(r, "hints")).contains("every node's hints delivered").containsPattern("replayed [1-9]");
  }
}
