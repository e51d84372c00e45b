package io.cassette.lab.check;

/**
 * A counter that only goes up by one: after the run it must hold at least every acknowledged
 * increment and at most those plus the indeterminate ones (failed ones never count).
 */
public final class CounterChecker {
  public record Result(String key, long acknowledged, long failed, long indeterminate, long finalValue) {
    public CheckResult.Verdict verdict() {
      return finalValue >= acknowledged && finalValue <= acknowledged + indeterminate
          ? CheckResult.Verdict.OK : CheckResult.Verdict.VIOLATION;
    }

    /** Increments lost (positive) or counted twice / invented (negative would be over the bound). */
    public String describe() {
      if (finalValue < acknowledged) {
        return key + ": final " + finalValue + " < " + acknowledged + " acknowledged: "
            + (acknowledged - finalValue) + " acknowledged increments lost";
      }
      if (finalValue > acknowledged + indeterminate) {
        return key + ": final " + finalValue + " > " + acknowledged + " acknowledged + " + indeterminate
            + " indeterminate: " + (finalValue - acknowledged - indeterminate) + " increments counted twice";
      }
      return key + ": final " + finalValue + " within [" + acknowledged + ", " + (acknowledged + indeterminate) + "]";
    }
  }

  public static Result check(String key, long acknowledged, long failed, long indeterminate, long finalValue) {
    return new Result(key, acknowledged, failed, indeterminate, finalValue);
  }
}
