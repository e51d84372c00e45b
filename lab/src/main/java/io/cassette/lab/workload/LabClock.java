package io.cassette.lab.workload;

/** One monotonic clock for every history of a run: nanoseconds since the run began. */
public final class LabClock {
  private final long origin = System.nanoTime();

  public long nanos() {
    return System.nanoTime() - origin;
  }

  public long millis() {
    return nanos() / 1_000_000;
  }
}
