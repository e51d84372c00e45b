package io.cassette.cluster.net;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Reconnect delays: initial * 2^attempt, capped, each with "equal jitter" (half fixed, half
 * random) so the nodes of a ring that lost a peer together do not all knock at once.
 */
final class Backoff {
  private final long initialMillis;
  private final long maxMillis;

  Backoff(Duration initial, Duration max) {
    this.initialMillis = Math.max(1, initial.toMillis());
    this.maxMillis = Math.max(initialMillis, max.toMillis());
  }

  /** Delay before retry number {@code attempt} (0 = the first retry). */
  long delayMillis(int attempt) {
    long base = initialMillis << Math.min(attempt, 20);
    long capped = Math.min(maxMillis, base);
    long half = capped / 2;
    return half + ThreadLocalRandom.current().nextLong(capped - half + 1);
  }
}
