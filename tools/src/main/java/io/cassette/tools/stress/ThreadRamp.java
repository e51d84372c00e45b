package io.cassette.tools.stress;

import java.util.List;

/**
 * The automatic thread ramp used when no thread count is given: 4, 8, 16, then x1.5 each step
 * (24, 36, 54, 81, 121, ...) up to threads<=; with "auto" (the default) it stops once the
 * average throughput improvement over the last three steps is negative. Pure arithmetic.
 */
public final class ThreadRamp {
  private ThreadRamp() {}

  /** The thread count after {@code threads}: doubling below 16, then x1.5 (truncated). */
  public static int next(int threads) {
    return threads < 16 ? threads * 2 : (int) (threads * 1.5);
  }

  /**
   * Whether to run another step after the op rates measured so far, as cassandra-stress
   * decides: keep going while the mean improvement over the last 3 steps is >= 0 and over the
   * last 5 is >= {@code targetUncertainty} (-1 unless err< was given); steps too few to judge
   * count as improving.
   */
  public static boolean keepGoing(List<Double> opRates, double targetUncertainty) {
    return hasAverageImprovement(opRates, 3, 0) && hasAverageImprovement(opRates, 5, targetUncertainty);
  }

  static boolean hasAverageImprovement(List<Double> opRates, int count, double minImprovement) {
    return opRates.size() < count + 1 || averageImprovement(opRates, count) >= minImprovement;
  }

  /** Mean of (rate[i] - rate[i-1]) / rate[i-1] over the last {@code count} steps. */
  public static double averageImprovement(List<Double> opRates, int count) {
    double improvement = 0;
    for (int i = opRates.size() - count; i < opRates.size(); i++) {
      double prev = opRates.get(i - 1);
      double cur = opRates.get(i);
      improvement += (cur - prev) / prev;
    }
    return improvement / count;
  }
}
