package io.cassette.lab.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SetAndCounterCheckerTest {
  private static final SetChecker.Grouping ONE_GROUP = e -> 0;

  @Test
  void everyAcknowledgedInsertReadAtTheEndIsOk() {
    SetChecker.Result r = SetChecker.check(List.of(
        new SetChecker.Insert(1, 0, 10, Status.OK),
        new SetChecker.Insert(2, 0, 10, Status.INDETERMINATE),
        new SetChecker.Insert(3, 0, 10, Status.FAIL)),
        List.of(new SetChecker.Read(0, 5, 6, Set.of(), false, "n1"),
            new SetChecker.Read(0, 20, 30, Set.of(1, 2), true, "n1")), ONE_GROUP);
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.OK);
    assertThat(r.recovered()).isEqualTo(1);
  }

  @Test
  void aLostInsertAStaleReadAndAPhantomAreViolations() {
    SetChecker.Result r = SetChecker.check(List.of(
        new SetChecker.Insert(1, 0, 10, Status.OK),
        new SetChecker.Insert(2, 0, 10, Status.OK)),
        List.of(new SetChecker.Read(0, 20, 21, Set.of(1), false, "n2"),
            new SetChecker.Read(0, 30, 40, Set.of(2, 9), true, "n1")), ONE_GROUP);
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(r.lost()).containsExactly(1);
    assertThat(r.stale()).containsOnlyKeys(1, 2);
    assertThat(r.stale().get(2)).contains("via n2");
    assertThat(r.unexpected()).containsExactly(9);
  }

  @Test
  void aReadConcurrentWithTheInsertMayMissIt() {
    SetChecker.Result r = SetChecker.check(List.of(new SetChecker.Insert(1, 0, 10, Status.OK)),
        List.of(new SetChecker.Read(0, 5, 15, Set.of(), false, "n1"),
            new SetChecker.Read(0, 30, 40, Set.of(1), true, "n1")), ONE_GROUP);
    assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.OK);
  }

  @Test
  void counterWithinAcknowledgedAndIndeterminate() {
    assertThat(CounterChecker.check("c", 10, 2, 3, 10).verdict()).isEqualTo(CheckResult.Verdict.OK);
    assertThat(CounterChecker.check("c", 10, 2, 3, 13).verdict()).isEqualTo(CheckResult.Verdict.OK);
    assertThat(CounterChecker.check("c", 10, 2, 3, 9).verdict()).isEqualTo(CheckResult.Verdict.VIOLATION);
    assertThat(CounterChecker.check("c", 10, 2, 3, 9).describe()).contains("1 acknowledged increments lost");
    assertThat(CounterChecker.check("c", 10, 2, 3, 14).verdict()).isEqualTo(CheckResult.Verdict.VIOLATION);
  }
}
