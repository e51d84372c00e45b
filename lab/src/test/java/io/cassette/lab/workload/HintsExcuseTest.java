package io.cassette.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.ReplicaChecker;
import io.cassette.lab.check.Status;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.fault.FaultWindow;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which faults excuse an acknowledged write missing from a replica (HintsWorkload.excuse). */
class HintsExcuseTest {
  private static ReplicaChecker.Write write(long callMs, long retMs, int coordinator) {
    return new ReplicaChecker.Write(1, callMs * 1_000_000, retMs * 1_000_000, Status.OK, coordinator);
  }

  @Test
  void aCoordinatorKilledSoonAfterTheWriteExcusesItAndNothingElseDoes() {
    ReplicaChecker.Excuse e = HintsWorkload.excuse(List.of(new FaultWindow(FaultKind.KILL, 2, 10_000, 30_000, "")));
    assertThat(e.why(write(9_000, 9_010, 2), 3)).contains("n2 was killed");
    assertThat(e.why(write(9_000, 9_010, 1), 3)).as("another coordinator kept its hints").isNull();
    assertThat(e.why(write(9_000, 9_010, 1), 2)).as("the killed node as a replica is owed hints").isNull();
    assertThat(e.why(write(10_000 - HintsWorkload.HINT_EXPOSURE_MILLIS - 100, 10_000 - HintsWorkload.HINT_EXPOSURE_MILLIS - 50, 2), 3))
        .as("its hints were on disk by then").isNull();
    assertThat(e.why(write(31_000, 31_010, 2), 3)).as("after the restart").isNull();
  }

  @Test
  void partitionsAndPausesExcuseNothing() {
    ReplicaChecker.Excuse e = HintsWorkload.excuse(List.of(new FaultWindow(FaultKind.PARTITION, 2, 10_000, 22_000, ""),
        new FaultWindow(FaultKind.PAUSE, 3, 30_000, 42_000, "")));
    assertThat(e.why(write(11_000, 11_010, 1), 2)).isNull();
    assertThat(e.why(write(11_000, 11_010, 2), 1)).isNull();
    assertThat(e.why(write(29_000, 29_010, 3), 1)).isNull();
  }

  @Test
  void aFullDiskExcusesWritesItsNodeRefusedOrCouldNotHint() {
    ReplicaChecker.Excuse e = HintsWorkload.excuse(List.of(new FaultWindow(FaultKind.DISK_FULL, 2, 10_000, 22_000, "")));
    assertThat(e.why(write(15_000, 15_010, 1), 2)).contains("disk was full");
    assertThat(e.why(write(15_000, 15_010, 2), 3)).contains("disk was full");
    assertThat(e.why(write(15_000, 15_010, 1), 3)).isNull();
    assertThat(e.why(write(30_000, 30_010, 1), 2)).isNull();
  }
}
