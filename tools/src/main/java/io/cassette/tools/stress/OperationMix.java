package io.cassette.tools.stress;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Picks the next operation of a mixed or user run: by weight (ratio(write=1,read=3) or
 * ops(insert=1,q1=2)), each pick repeated for a run length drawn from the clustering
 * distribution, as cassandra-stress does. A single operation is always that one.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class OperationMix {
  private final List<StressOperation> operations;
  private final double[] cumulative;
  private final Distribution clustering;
  private final SplittableRandom random;
  private StressOperation current;
  private long remaining;

  /** @param weights one per operation, positive */
  public OperationMix(List<StressOperation> operations, List<Double> weights, Distribution clustering,
      SplittableRandom random) {
    this.operations = operations;
    this.cumulative = new double[weights.size()];
    double sum = 0;
    for (int i = 0; i < weights.size(); i++) {
      sum += weights.get(i);
      cumulative[i] = sum;
    }
    for (int i = 0; i < cumulative.length; i++) {
      cumulative[i] /= sum;
    }
    this.clustering = clustering == null ? Distribution.fixed(1) : clustering;
    this.random = random;
  }

  public StressOperation next() {
    if (operations.size() == 1) {
      return operations.get(0);
    }
    if (remaining <= 0) {
      double u = random.nextDouble();
      int i = 0;
      while (i < cumulative.length - 1 && u >= cumulative[i]) {
        i++;
      }
      current = operations.get(i);
      remaining = Math.max(1, clustering.next(random));
    }
    remaining--;
    return current;
  }
}
