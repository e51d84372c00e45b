package io.cassette.lab.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplicaCheckerTest {
  private static final ReplicaChecker.Grouping TWO_GROUPS = e -> e % 2;
  private static final ReplicaChecker.Excuse NONE = (w, replica) -> null;

  private static ReplicaChecker.Write ok(int e, int coordinator) {
    return new ReplicaChecker.Write(e, 1_000, 2_000, Status.OK, coordinator);
  }

  @Test
  void everyAcknowledgedWriteOnEveryReplicaIsOk() {
    ReplicaChecker.Result r = ReplicaChecker.check(List.of(ok(1, 1), ok(2, 2),
            new ReplicaChecker.Write(3, 0, 10, Status.INDETERMINATE, 0),
            new ReplicaChecker.Write(5, 0, 10, Status.INDETERMINATE, 0),
            new ReplicaChecker.Write(7, 0, 10, Status.FAIL, 0)),
        List.of(new ReplicaChecker.ReplicaRead(1, 1, Set.of(1, 3, 5)), new ReplicaChecker.ReplicaRead(2, 1, Set.of(1, 3)),
            new ReplicaChecker.ReplicaRead(1, 0, Set.of(2)), new ReplicaChecker.ReplicaRead(2, 0, Set.of(2))),
        TWO_GROUPS, NONE);
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.OK);
    assertThat(r.checked()).isEqualTo(4);
    assertThat(r.recovered()).as("3 is on both replicas, 5 on one: indeterminate, either is fine").isEqualTo(1);
  }

  @Test
  void anAcknowledgedWriteMissingFromOneReplicaIsAViolationNamingTheReplica() {
    ReplicaChecker.Result r = ReplicaChecker.check(List.of(ok(1, 1), ok(3, 1)),
        List.of(new ReplicaChecker.ReplicaRead(1, 1, Set.of(1, 3)), new ReplicaChecker.ReplicaRead(2, 1, Set.of(1)),
            new ReplicaChecker.ReplicaRead(3, 1, Set.of(1, 3))), TWO_GROUPS, NONE);
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(r.missing()).containsOnlyKeys(2);
    assertThat(r.missing().get(2)).containsExactly(3);
  }

  @Test
  void anExcusedMissingWriteIsCountedApartAndAPhantomIsAViolation() {
    ReplicaChecker.Excuse coordinatorTwo = (w, replica) -> w.coordinator() == 2 ? "coordinator killed" : null;
    ReplicaChecker.Result r = ReplicaChecker.check(List.of(ok(1, 2), new ReplicaChecker.Write(3, 0, 1, Status.FAIL, 0)),
        List.of(new ReplicaChecker.ReplicaRead(1, 1, Set.of()), new ReplicaChecker.ReplicaRead(2, 1, Set.of(1))),
        TWO_GROUPS, coordinatorTwo);
    assertThat(r.missing()).isEmpty();
    assertThat(r.excused()).containsExactly("element 1 on n1: coordinator killed");
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.OK);

    ReplicaChecker.Result phantom = ReplicaChecker.check(List.of(new ReplicaChecker.Write(3, 0, 1, Status.FAIL, 0)),
        List.of(new ReplicaChecker.ReplicaRead(1, 1, Set.of(3, 9))), TWO_GROUPS, NONE);
    assertThat(phantom.unexpected()).as("a failed write is never applied; 9 was never written").containsExactly(3, 9);
    assertThat(phantom.verdict()).isEqualTo(CheckResult.Verdict.VIOLATION);
  }
}
