package io.cassette.lab.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.CasRegister.Cas;
import io.cassette.lab.check.CasRegister.Op;
import io.cassette.lab.check.CasRegister.Read;
import io.cassette.lab.check.CasRegister.Write;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The checker on histories whose answer is known: Porcupine's and Knossos's register examples,
 * the classic anomalies (stale read, new-old inversion, a failed CAS whose write shows up), the
 * indeterminate cases; then random small histories against {@link BruteForce}, and a large
 * history from a simulated linearizable register to show it stays fast.
 */
class LinearizabilityCheckerTest {
  private static final CasRegister REGISTER = new CasRegister(0);
  private final LinearizabilityChecker<java.util.Optional<Integer>, Op, Object> checker =
      new LinearizabilityChecker<>(REGISTER);

  private static Operation<Op, Object> ok(int client, Op op, Object out, long call, long ret) {
    return Operation.ok(client, "x", op, out, call, ret);
  }

  private CheckResult.Verdict check(List<Operation<Op, Object>> h) {
    CheckResult r = checker.checkKey("x", h);
    assertThat(BruteForce.linearizable(REGISTER, h)).as("brute force agrees").isEqualTo(r.ok());
    return r.verdict();
  }

  @Test
  void porcupinesRegisterExamples() {
    // porcupine_test.go TestRegisterModel: put 100 || get 100 || get 0 -> linearizable.
    assertThat(check(List.of(
        ok(0, new Write(100), null, 0, 100),
        ok(1, new Read(), 100, 25, 75),
        ok(2, new Read(), 0, 30, 60)))).isEqualTo(CheckResult.Verdict.OK);
    // put 200 [0,100], get 200 [10,30], get 0 [40,90]: once 200 was read, 0 cannot come back.
    assertThat(check(List.of(
        ok(0, new Write(200), null, 0, 100),
        ok(1, new Read(), 200, 10, 30),
        ok(2, new Read(), 0, 40, 90)))).isEqualTo(CheckResult.Verdict.VIOLATION);
  }

  @Test
  void knossosCasRegisterExamples() {
    // Knossos's cas-register: a successful cas must see the value it expected.
    assertThat(check(List.of(
        ok(0, new Write(1), null, 0, 10),
        ok(1, new Cas(1, 2), true, 20, 30),
        ok(2, new Read(), 2, 40, 50)))).isEqualTo(CheckResult.Verdict.OK);
    assertThat(check(List.of(
        ok(0, new Write(1), null, 0, 10),
        ok(1, new Cas(2, 3), true, 20, 30)))).isEqualTo(CheckResult.Verdict.VIOLATION);
    // Two cas from the same value both succeeding, sequentially: only one may.
    assertThat(check(List.of(
        ok(0, new Cas(0, 1), true, 0, 10),
        ok(1, new Cas(0, 2), true, 20, 30)))).isEqualTo(CheckResult.Verdict.VIOLATION);
    // ... concurrently too (both saw 0): still at most one.
    assertThat(check(List.of(
        ok(0, new Cas(0, 1), true, 0, 30),
        ok(1, new Cas(0, 2), true, 10, 40)))).isEqualTo(CheckResult.Verdict.VIOLATION);
    // Concurrent: one applies, the other fails having seen the new value.
    assertThat(check(List.of(
        ok(0, new Cas(0, 1), true, 0, 30),
        ok(1, new Cas(0, 2), false, 10, 40),
        ok(2, new Read(), 1, 50, 60)))).isEqualTo(CheckResult.Verdict.OK);
  }

  @Test
  void staleReadAndNewOldInversion() {
    assertThat(check(List.of(
        ok(0, new Write(1), null, 0, 10),
        ok(1, new Read(), 0, 20, 30)))).as("stale read").isEqualTo(CheckResult.Verdict.VIOLATION);
    // A write in progress may be seen by one read, but a later read may not go back.
    assertThat(check(List.of(
        ok(0, new Write(1), null, 0, 100),
        ok(1, new Read(), 1, 10, 20),
        ok(2, new Read(), 0, 30, 40)))).as("new-old inversion").isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(check(List.of(
        ok(0, new Write(1), null, 0, 100),
        ok(1, new Read(), 0, 10, 20),
        ok(2, new Read(), 1, 30, 40)))).isEqualTo(CheckResult.Verdict.OK);
  }

  @Test
  void aFailedCasWhoseWriteIsSeenLaterIsAViolation() {
    // CASSANDRA-12126's shape: cas answered "not applied" with nobody else writing, yet its value is read.
    assertThat(check(List.of(
        ok(0, new Cas(0, 5), false, 0, 10),
        ok(1, new Read(), 5, 20, 30)))).isEqualTo(CheckResult.Verdict.VIOLATION);
  }

  @Test
  void indeterminateOperationsMayHappenLateOrNever() {
    // A timed-out write seen long after it was called: fine.
    assertThat(check(List.of(
        Operation.<Op, Object>indeterminate(0, "x", new Write(7), 0),
        ok(1, new Read(), 0, 10, 20),
        ok(1, new Read(), 7, 1_000, 1_010),
        ok(2, new Read(), 7, 2_000, 2_010)))).isEqualTo(CheckResult.Verdict.OK);
    // Never seen: fine too.
    assertThat(check(List.of(
        Operation.<Op, Object>indeterminate(0, "x", new Write(7), 0),
        ok(1, new Read(), 0, 1_000, 1_010)))).isEqualTo(CheckResult.Verdict.OK);
    // But not before its call.
    assertThat(check(List.of(
        ok(1, new Read(), 7, 0, 10),
        Operation.<Op, Object>indeterminate(0, "x", new Write(7), 20)))).isEqualTo(CheckResult.Verdict.VIOLATION);
    // And seen, then gone again, with no other write: once it happened it stays.
    assertThat(check(List.of(
        Operation.<Op, Object>indeterminate(0, "x", new Write(7), 0),
        ok(1, new Read(), 7, 10, 20),
        ok(2, new Read(), 0, 30, 40)))).isEqualTo(CheckResult.Verdict.VIOLATION);
    // A failed write did not happen: reading its value is a violation.
    assertThat(check(List.of(
        Operation.<Op, Object>fail(0, "x", new Write(7), 0, 10),
        ok(1, new Read(), 7, 20, 30)))).isEqualTo(CheckResult.Verdict.VIOLATION);
  }

  @Test
  void perKeyDecompositionNamesTheBadKey() {
    List<Operation<Op, Object>> h = new ArrayList<>();
    h.add(Operation.ok(0, "a", new Write(1), null, 0, 10));
    h.add(Operation.ok(1, "b", new Write(1), null, 0, 10));
    h.add(Operation.ok(0, "a", new Read(), 1, 20, 30));
    h.add(Operation.ok(1, "b", new Read(), 0, 20, 30));
    List<CheckResult> results = checker.checkByKey(h);
    assertThat(results).extracting(CheckResult::key).containsExactly("a", "b");
    assertThat(results).extracting(CheckResult::verdict)
        .containsExactly(CheckResult.Verdict.OK, CheckResult.Verdict.VIOLATION);
    assertThat(LinearizabilityChecker.overall(results)).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(String.join("\n", results.get(1).explanation())).contains("read -> ok 0");
  }

  @Test
  void agreesWithBruteForceOnRandomSmallHistories() {
    Random random = new Random(18);
    int violations = 0;
    for (int round = 0; round < 3_000; round++) {
      List<Operation<Op, Object>> h = randomHistory(random, 2 + random.nextInt(6));
      boolean expected = BruteForce.linearizable(REGISTER, h);
      CheckResult r = checker.checkKey("x", h);
      assertThat(r.ok()).as("round %d: %s", round, h).isEqualTo(expected);
      violations += expected ? 0 : 1;
    }
    // Both kinds must be well represented for the comparison to mean something.
    assertThat(violations).isBetween(300, 2_700);
  }

  @Test
  void aLongLinearizableHistoryIsCheckedQuickly() {
    Random random = new Random(7);
    List<Operation<Op, Object>> h = simulated(random, 5, 2_000);
    long start = System.nanoTime();
    CheckResult r = checker.checkKey("x", h);
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.OK);
    assertThat(ms).as("ms for 2,000 operations of 5 clients").isLessThan(20_000);
  }

  @Test
  void oneWrongReadInALongHistoryIsFound() {
    Random random = new Random(11);
    List<Operation<Op, Object>> h = simulated(random, 5, 2_000);
    int victim = -1;
    for (int i = h.size() / 2; i < h.size(); i++) {
      if (h.get(i).input() instanceof Read) {
        victim = i;
        break;
      }
    }
    Operation<Op, Object> r = h.get(victim);
    h.set(victim, Operation.ok(r.client(), "x", r.input(), 99, r.call(), r.ret())); // 99 is never written
    CheckResult result = checker.checkKey("x", h);
    assertThat(result.verdict()).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(result.explanation().get(0)).contains("read -> ok 99");
  }

  @Test
  void timedOutWritesThatNeverHappenedOrHappenedLateAreAccepted() {
    Random random = new Random(5);
    List<Operation<Op, Object>> h = simulated(random, 5, 1_000, true);
    // Writes whose value nobody read may be reported as timed out: whether they took effect or
    // not, the history stays linearizable (the simulation applied them; "never" is also allowed).
    java.util.Set<Integer> read = new java.util.HashSet<>();
    for (Operation<Op, Object> op : h) {
      if (op.input() instanceof Read) {
        read.add((Integer) op.output());
      }
    }
    int made = 0;
    for (int i = 0; i < h.size(); i++) {
      Operation<Op, Object> op = h.get(i);
      if (op.input() instanceof Write w && !read.contains(w.value()) && random.nextBoolean()) {
        h.set(i, Operation.indeterminate(op.client(), "x", op.input(), op.call()));
        made++;
      }
    }
    assertThat(made).isPositive();
    assertThat(checker.checkKey("x", h).verdict()).isEqualTo(CheckResult.Verdict.OK);
  }

  /**
   * Forty writes that timed out and whose values nobody read, then reads of the old value: the
   * whole search would try subsets of the writes (the kill run saw UNKNOWN on 4 keys' 230 ops);
   * left out first, the history is linearizable in a few steps. A read of one of them keeps that
   * one in, and a read that contradicts real time is still a violation.
   */
  @Test
  void unobservedIndeterminateWritesAreLeftOutFirst() {
    List<Operation<Op, Object>> h = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      h.add(Operation.indeterminate(i, "x", new Write(100 + i), 10L * i));
    }
    h.add(ok(0, new Read(), 0, 1000, 1010));
    h.add(ok(0, new Read(), 0, 1020, 1030));
    LinearizabilityChecker<java.util.Optional<Integer>, Op, Object> small = new LinearizabilityChecker<>(REGISTER, 2000);
    CheckResult r = small.checkKey("x", h);
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.OK);
    assertThat(r.explanation()).containsExactly("40 indeterminate operations nobody saw left out");
    h.add(ok(0, new Read(), 105, 1040, 1050));
    assertThat(small.checkKey("x", h).verdict()).isEqualTo(CheckResult.Verdict.OK);
    h.add(ok(0, new Read(), 0, 1060, 1070)); // 105 was seen, then 0 again: nothing writes 0
    assertThat(small.checkKey("x", h).verdict()).isNotEqualTo(CheckResult.Verdict.OK);
  }

  @Test
  void aBudgetRunOutIsUnknownNotAGuess() {
    Random random = new Random(7);
    List<Operation<Op, Object>> h = simulated(random, 5, 500);
    CheckResult r = new LinearizabilityChecker<>(REGISTER, 10).checkKey("x", h);
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.UNKNOWN);
  }

  /**
   * A kill run's key, as the lab records it (3 clients, reads at SERIAL, writes and
   * compare-and-sets from the last value seen, unique values, 240 operations as the kill run's
   * keys had), with a node down for most of the run: there most updates time out and take effect
   * late (a later Paxos round finishes them) or never, and reads fail. The checker before
   * 2026-12-02 left two of these three keys UNKNOWN after 5,000,000 steps (54 s and 26 s); now
   * each is decided in under 5,000 steps, and the same key with one late read made stale within
   * 300,000 (a violation must rule out every order).
   */
  @Test
  void aKillRunsKeyWithManyTimedOutWritesIsDecided() {
    for (long seed = 1; seed <= 3; seed++) {
      List<Operation<Op, Object>> h = killRun(new Random(seed), 3, 240);
      assertThat(h.stream().filter(o -> !o.determinate()).count()).as("seed %d", seed).isGreaterThan(40);
      LinearizabilityChecker<java.util.Optional<Integer>, Op, Object> bounded =
          new LinearizabilityChecker<>(REGISTER, 500_000);
      assertThat(bounded.checkKey("x", h).verdict()).as("seed %d", seed).isEqualTo(CheckResult.Verdict.OK);
      // A read late in the run that answers the initial 0 after other values were read.
      for (int i = h.size() * 3 / 4; i < h.size(); i++) {
        Operation<Op, Object> o = h.get(i);
        if (o.input() instanceof Read && o.status() == Status.OK && !Integer.valueOf(0).equals(o.output())) {
          h.set(i, Operation.ok(o.client(), "x", o.input(), 0, o.call(), o.ret()));
          break;
        }
      }
      CheckResult stale = bounded.checkKey("x", h);
      assertThat(stale.verdict()).as("seed %d with a stale read", seed).isEqualTo(CheckResult.Verdict.VIOLATION);
      assertThat(stale.explanation().get(0)).contains("read -> ok 0");
    }
  }

  /**
   * The lab's cas-register workload against a linearizable register that loses a node between
   * 1/8 and 7/8 of the run: there, an update times out with probability 0.7 and then takes effect
   * with probability 0.5, up to 3,000 time units after its call; a read fails. Clients wait out
   * a timeout (200 units) before their next operation.
   */
  static List<Operation<Op, Object>> killRun(Random random, int clients, int count) {
    // Events in time order: a client's call (kind 0) or an operation taking effect (kind 1).
    record Event(long time, int kind, int client, int op) {}
    java.util.PriorityQueue<Event> events = new java.util.PriorityQueue<>(
        java.util.Comparator.comparingLong(Event::time).thenComparingInt(Event::kind));
    List<Op> ops = new ArrayList<>();
    List<long[]> times = new ArrayList<>(); // call, ret
    List<Integer> outcome = new ArrayList<>(); // 0 ok, 1 failed, 2 indeterminate
    List<Object> outputs = new ArrayList<>();
    List<Integer> owner = new ArrayList<>();
    int[] lastSeen = new int[clients];
    long end = count * 40L; // about the run's length: a third of its operations fall in the window
    for (int c = 0; c < clients; c++) {
      events.add(new Event(random.nextInt(5), 0, c, -1));
    }
    Integer value = 0;
    while (!events.isEmpty()) {
      Event e = events.poll();
      int c = e.client();
      if (e.kind() == 0) {
        if (ops.size() == count) {
          continue;
        }
        int i = ops.size();
        long call = e.time();
        boolean down = call > end / 8 && call < 7 * end / 8;
        int choice = random.nextInt(10);
        Op op = choice < 4 ? new Read() : choice < 6 ? new Write(c * 1_000_000 + i)
            : new Cas(lastSeen[c], c * 1_000_000 + i);
        boolean timedOut = down && random.nextInt(10) < 7;
        long ret = timedOut ? call + 200 : call + 1 + random.nextInt(60);
        ops.add(op);
        owner.add(c);
        times.add(new long[] {call, ret});
        outputs.add(null);
        outcome.add(timedOut ? (op instanceof Read ? 1 : 2) : 0);
        if (!timedOut) {
          events.add(new Event(call + random.nextLong(ret - call + 1), 1, c, i));
        } else if (!(op instanceof Read) && random.nextBoolean()) {
          events.add(new Event(call + random.nextInt(3000), 1, c, i)); // a later round finishes it
        }
        events.add(new Event(ret + 1 + random.nextInt(5), 0, c, -1));
      } else {
        int i = e.op();
        Op op = ops.get(i);
        boolean determinate = outcome.get(i) == 0;
        if (op instanceof Read) {
          outputs.set(i, value);
          lastSeen[c] = value;
        } else if (op instanceof Write w) {
          value = w.value();
          lastSeen[c] = determinate ? value : lastSeen[c];
        } else {
          Cas cas = (Cas) op;
          boolean applied = value == cas.expected();
          outputs.set(i, applied);
          value = applied ? cas.value() : value;
          lastSeen[c] = determinate && applied ? value : lastSeen[c];
        }
      }
    }
    List<Operation<Op, Object>> h = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      long[] t = times.get(i);
      h.add(switch (outcome.get(i)) {
        case 0 -> Operation.ok(owner.get(i), "x", ops.get(i), outputs.get(i), t[0], t[1]);
        case 1 -> Operation.fail(owner.get(i), "x", ops.get(i), t[0], t[1]);
        default -> Operation.indeterminate(owner.get(i), "x", ops.get(i), t[0]);
      });
    }
    return h;
  }

  /**
   * Random operations with random intervals and outputs drawn from a small range: about half of
   * them linearizable. Some are failed or indeterminate.
   */
  private static List<Operation<Op, Object>> randomHistory(Random random, int n) {
    List<Operation<Op, Object>> h = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long call = random.nextInt(20);
      long ret = call + random.nextInt(10);
      Op op = switch (random.nextInt(3)) {
        case 0 -> new Read();
        case 1 -> new Write(random.nextInt(3));
        default -> new Cas(random.nextInt(3), random.nextInt(3));
      };
      Object out = op instanceof Read ? (Object) random.nextInt(3) : op instanceof Cas ? (Object) random.nextBoolean() : null;
      int kind = random.nextInt(10);
      if (kind == 0) {
        h.add(Operation.fail(i, "x", op, call, ret));
      } else if (kind == 1) {
        h.add(Operation.indeterminate(i, "x", op, call));
      } else {
        h.add(Operation.ok(i, "x", op, out, call, ret));
      }
    }
    return h;
  }

  /**
   * A real register under {@code clients} concurrent clients: each operation takes effect at a
   * random instant inside its interval, so the history is linearizable by construction.
   */
  static List<Operation<Op, Object>> simulated(Random random, int clients, int count) {
    return simulated(random, clients, count, false);
  }

  /** @param uniqueWrites each write a value of its own (1000 + its index), as the lab's workload writes */
  static List<Operation<Op, Object>> simulated(Random random, int clients, int count, boolean uniqueWrites) {
    long[] free = new long[clients];
    record Pending(int client, Op op, long call, long at, long ret) {}
    List<Pending> pending = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int c = random.nextInt(clients);
      long call = free[c] + random.nextInt(5);
      long ret = call + 1 + random.nextInt(30);
      long at = call + random.nextLong(ret - call + 1);
      free[c] = ret + 1;
      Op op = switch (random.nextInt(3)) {
        case 0 -> new Read();
        case 1 -> new Write(uniqueWrites ? 1000 + i : random.nextInt(5));
        default -> new Cas(random.nextInt(5), random.nextInt(5));
      };
      pending.add(new Pending(c, op, call, at, ret));
    }
    pending.sort(java.util.Comparator.comparingLong(Pending::at));
    Integer value = 0;
    List<Operation<Op, Object>> h = new ArrayList<>();
    for (Pending p : pending) {
      Object out = null;
      if (p.op() instanceof Read) {
        out = value;
      } else if (p.op() instanceof Write w) {
        value = w.value();
      } else {
        Cas cas = (Cas) p.op();
        out = value == cas.expected();
        if (value == cas.expected()) {
          value = cas.value();
        }
      }
      h.add(Operation.ok(p.client(), "x", p.op(), out, p.call(), p.ret()));
    }
    return h;
  }
}
