package io.cassette.tools.stress;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which partition seed each operation works on (cassandra-stress's -pop): the sequence
 * first..last shared by all threads (so a count of last-first+1 visits every seed exactly
 * once), wrapping to the start unless no-wrap was given; or samples of a distribution.
 *
 * <p>Thread-safe: the sequence is one atomic counter; distribution sampling uses a random
 * source per thread.
 */
public final class SeedSource {
  /** Returned by {@link #next()} once a no-wrap sequence is used up. */
  public static final long EXHAUSTED = Long.MIN_VALUE;

  private final StressSettings.PopulationSettings population;
  private final AtomicLong position = new AtomicLong();
  private final ThreadLocal<SplittableRandom> random;

  public SeedSource(StressSettings.PopulationSettings population) {
    this.population = population;
    SplittableRandom root = new SplittableRandom(System.nanoTime());
    this.random = ThreadLocal.withInitial(() -> {
      synchronized (root) {
        return root.split();
      }
    });
  }

  /** The next seed, or {@link #EXHAUSTED}. */
  public long next() {
    if (!population.isSequential()) {
      return population.distribution().next(random.get());
    }
    long i = position.getAndIncrement();
    long range = population.last() - population.first() + 1;
    if (i >= range) {
      if (!population.wrap()) {
        return EXHAUSTED;
      }
      i %= range;
    }
    return population.first() + i;
  }
}
