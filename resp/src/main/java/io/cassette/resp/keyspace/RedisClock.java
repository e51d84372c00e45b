package io.cassette.resp.keyspace;

/**
 * Write timestamps (µs) that strictly increase, so a delete and a re-create in the same
 * microsecond still order correctly, and so each timestamp can serve as a unique collection
 * version. Not thread-safe: used by the single command thread.
 */
public final class RedisClock {
  private long last;

  /** A timestamp greater than every one returned before. */
  public long nextMicros() {
    long now = System.currentTimeMillis() * 1000;
    last = now > last ? now : last + 1;
    return last;
  }

  public long nowMillis() {
    return System.currentTimeMillis();
  }
}
