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
  void aPeriodicLogHasEveryAnsweredStateInTheFileBeforeItsSync() throws Exception {
    Ballot b = new Ballot(3000, 3);
    // A sync period far beyond the test: what the reopened store sees was written, not fsynced
    // (kill -9 keeps the page cache; a power loss may lose a period, as in Cassandra's periodic mode).
    PaxosStore running = PaxosStore.open(dir, 60_000_000L, () -> 0, 3_600_000);
    try {
      running.update("ks", "t", k("a"), st -> new PaxosState(b, new Proposal(b, List.of()), null));
      try (PaxosStore afterKill = PaxosStore.open(dir, 60_000_000L, () -> 0)) {
        assertThat(afterKill.get("ks", "t", k("a")).accepted().ballot()).isEqualTo(b);
      }
    } finally {
      running.close();
    }
  }

  @Test
  void concurrentAnswersShareFsyncsAndAllSurviveARestart() throws Exception {
    int threads = 8;
    int each = 20;
    try (PaxosStore s = PaxosStore.open(dir, 60_000_000L, () -> 0)) {
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
      try {
        List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          done.add(pool.submit(() -> {
            for (int i = 0; i < each; i++) {
              Ballot b = new Ballot(1000 + i, thread);
              s.update("ks", "t", k(thread + "-" + i), st -> new PaxosState(b, null, null));
            }
          }));
        }
        for (java.util.concurrent.Future<?> f : done) {
          f.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }
    try (PaxosStore s = PaxosStore.open(dir, 60_000_000L, () -> 0)) {
      assertThat(s.size()).isEqualTo(threads * each);
      assertThat(s.get("ks", "t", k("7-19")).promised()).isEqualTo(new Ballot(1019, 7));
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
