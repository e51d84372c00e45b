package io.cassette.lab.workload;

/** One monotonic clock for every history of a run: nanoseconds since the run began. */
public final class LabClock {
  private final long origin = System.nanoTime();
  private final java.time.Instant wallOrigin = java.time.Instant.now();

  /** When the run began on the wall clock, to line histories up with the nodes' log lines. */
  public java.time.Instant wallOrigin() {
    return wallOrigin;
  }

  public long nanos() {
    return System.nanoTime() - origin;
  }

  public long millis() {
    return nanos() / 1_000_000;
  }
}
