package io.cassette.lab.workload;

import io.cassette.lab.check.CheckResult;
import java.util.List;

/**
 * A client workload: set up its tables, run on several client threads until a deadline or an
 * operation budget, read its final state once the ring is whole again, and check its history.
 */
public interface Workload {
  String name();

  void setup() throws Exception;

  /** One client's loop; returns at {@code deadlineNanos} (lab clock) or when the budget is spent. */
  void runClient(int client, long deadlineNanos) throws InterruptedException;

  /** Reads after the run (every node, the ring healed). */
  void finish() throws Exception;

  /** The checker's verdict and the lines that explain it. */
  Verdict check();

  /**
   * As {@link #check()}, knowing the faults as they happened: for a checker that allows what a
   * fault rightly loses (e.g. hints buffered in a coordinator that was killed).
   */
  default Verdict check(List<io.cassette.lab.fault.FaultWindow> faults) {
    return check();
  }

  /**
   * Writes the history the checker saw to {@code history-NAME.txt} in {@code dir}, one operation
   * a line in call order, so a violation can be read in full (the report shows an excerpt).
   */
  default void writeHistory(java.nio.file.Path dir) throws java.io.IOException {}

  /** Every operation, for counts and the latency chart. */
  List<OpRecord> records();

  /**
   * @param details one line per fact worth printing (counts, lost elements, a violation's history excerpt)
   */
  record Verdict(String workload, String checker, CheckResult.Verdict verdict, List<String> details) {}
}
