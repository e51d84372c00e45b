package io.cassette.coordinator.ring.paxos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replica's durable Paxos registers, the ballot clock and timestamp re-stamping. */
class PaxosStoreTest {
  @TempDir
  Path dir;

  static byte[] k(String s) {
    return s.getBytes();
  }

  @Test
  void promisesAndCommitsSurviveARestartAndATornTail() throws IOException {
    Ballot b1 = new Ballot(1000, 1);
    Ballot b2 = new Ballot(2000, 2);
    try (PaxosStore s = PaxosStore.open(dir, 60_000_000L, () -> 0)) {
      s.update("ks", "t", k("a"), st -> new PaxosState(b1, null, null));
      s.update("ks", "t", k("b"), st -> new PaxosState(b2, new Proposal(b2, List.of()), new Proposal(b1, List.of())));
    }
    Path log;
    try (var files = Files.list(dir)) {
      log = files.filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow();
    }
    Files.write(log, new byte[] {0, 0, 0, 40, 1, 2, 3}, StandardOpenOption.APPEND); // a torn record
    try (PaxosStore s = PaxosStore.open(dir, 60_000_000L, () -> 0)) {
      assertThat(s.get("ks", "t", k("a")).promised()).isEqualTo(b1);
      PaxosState b = s.get("ks", "t", k("b"));
      assertThat(b.promised()).isEqualTo(b2);
      assertThat(b.accepted().ballot()).isEqualTo(b2);
      assertThat(b.committed().ballot()).isEqualTo(b1);
      assertThat(s.get("ks", "t", k("c"))).isEqualTo(PaxosState.EMPTY);
    }
  }

  @Test
  void cleaningForgetsFinishedPartitionsAndRaisesTheLowBound() {
    AtomicLong now = new AtomicLong(10_000);
    try (PaxosStore s = PaxosStore.open(dir, 5_000, now::get)) {
      Ballot old = new Ballot(1000, 1);
      Ballot open = new Ballot(1500, 1);
      s.update("ks", "t", k("done"), st -> new PaxosState(old, null, new Proposal(old, List.of())));
      s.update("ks", "t", k("open"), st -> new PaxosState(open, new Proposal(open, List.of()), null));
      s.clean();
      assertThat(s.get("ks", "t", k("done"))).isEqualTo(PaxosState.EMPTY);
      assertThat(s.get("ks", "t", k("open")).accepted()).isNotNull(); // in progress: kept
      assertThat(s.lowBound()).isEqualTo(old);
    }
    try (PaxosStore s = PaxosStore.open(dir, 5_000, now::get)) {
      assertThat(s.lowBound()).isEqualTo(new Ballot(1000, 1));
    }
  }

  @Test
  void aLaggingClockMakesBallotsAboveEveryBallotSeen() {
    BallotClock clock = new BallotClock(new UUID(0, 7), () -> 5);
    Ballot first = clock.next();
    clock.observe(new Ballot(1_000_000, 3));
    Ballot next = clock.next();
    assertThat(next.isAfter(new Ballot(1_000_000, 3))).isTrue();
    assertThat(next.isAfter(first)).isTrue();
    assertThat(clock.next().isAfter(next)).isTrue();
  }
}
