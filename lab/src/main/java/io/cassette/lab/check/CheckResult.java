package io.cassette.lab.check;

import java.util.List;

/**
 * What a checker concluded about one key's history (or a whole one).
 *
 * @param verdict OK, VIOLATION, or UNKNOWN when the search ran out of its budget
 * @param operations how many operations were searched (failed ones and failed or indeterminate
 *                   reads dropped first)
 * @param explanation for a violation: the operation that could not be placed and the longest
 *                    partial linearization found before it, one line each; for OK at most a
 *                    note on how it was found; else empty
 */
public record CheckResult(String key, Verdict verdict, int operations, List<String> explanation) {
  public enum Verdict { OK, VIOLATION, UNKNOWN }

  public boolean ok() {
    return verdict == Verdict.OK;
  }
}
