package io.cassette.resp.keyspace;

/**
 * Write timestamps (µs) that strictly increase, so a delete and a re-create in the same
 * microsecond still order correctly; with a random salt ({@link #nextSalt}) a timestamp names
 * a new collection. Not thread-safe: used by the single command thread.
 */
public final class RedisClock {
  private long last;
  /** Salts of new collections; seeded from the OS so nodes (and restarts) draw differently. */
  private final java.util.SplittableRandom random =
      new java.util.SplittableRandom(new java.security.SecureRandom().nextLong());

  /** A timestamp greater than every one returned before. */
  public long nextMicros() {
    long now = System.currentTimeMillis() * 1000;
    last = now > last ? now : last + 1;
    return last;
  }

  /** The greatest timestamp returned so far (0: none): every write made yet is at or before it. */
  public long lastMicros() {
    return last;
  }

  public long nowMillis() {
    return System.currentTimeMillis();
  }

  /** 64 random bits, never 0 (0 marks a layout-1 collection): half of a collection's name. */
  public long nextSalt() {
    long s;
    do {
      s = random.nextLong();
    } while (s == 0);
    return s;
  }
}
