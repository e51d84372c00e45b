package io.cassette.tools.stress;

/**
 * The server's garbage-collection figures for an interval: cassandra-stress reads them over
 * JMX, which Cassette does not offer; this tool reports zeros, as cassandra-stress itself does
 * when JMX is unreachable ("Total GC count : 0", "Avg GC time : NaN ms").
 *
 * @param count collections
 * @param maxMs longest pause
 * @param sumMs total pause time
 * @param sdvMs standard deviation of the pauses
 * @param bytes memory reclaimed
 */
public record GcStats(double count, double maxMs, double sumMs, double sdvMs, double bytes) {
  public static final GcStats NONE = new GcStats(0, 0, 0, 0, 0);
}
