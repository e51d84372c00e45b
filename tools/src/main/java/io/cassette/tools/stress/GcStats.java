package io.cassette.tools.stress;

/**
 * The servers' garbage-collection figures for an interval or a run, as cassandra-stress shows
 * them: read over JMX from Cassandra ({@link JmxGcCollector}); zero when the servers have no
 * JMX (Cassette), where cassandra-stress itself prints "Total GC count : 0" and "Avg GC time :
 * NaN ms" too.
 *
 * @param count collections
 * @param maxMs longest pause (summed over nodes, as cassandra-stress does)
 * @param sumMs total pause time
 * @param sumSquaresMs sum of the squared pauses, for the standard deviation
 * @param sdvMs standard deviation of the pauses
 * @param bytes memory reclaimed
 */
public record GcStats(double count, double maxMs, double sumMs, double sumSquaresMs, double sdvMs, double bytes) {
  public static final GcStats NONE = of(0, 0, 0, 0, 0);

  public static GcStats of(double count, double bytes, double maxMs, double sumMs, double sumSquaresMs) {
    double mean = sumMs / count;
    double sdv = Math.sqrt(sumSquaresMs / count - mean * mean);
    return new GcStats(count, maxMs, sumMs, sumSquaresMs, Double.isNaN(sdv) ? 0 : sdv, bytes);
  }

  /** This and {@code other} together. */
  public GcStats plus(GcStats other) {
    return of(count + other.count, bytes + other.bytes, maxMs + other.maxMs, sumMs + other.sumMs,
        sumSquaresMs + other.sumSquaresMs);
  }
}
