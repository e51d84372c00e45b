package io.cassette.server.admin;

import io.cassette.server.http.JsonWriter;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.HashMap;
import java.util.Map;

/**
 * nodetool gcstats: garbage collection since the previous call, in the columns Cassandra's
 * GCInspector reports (interval, longest pause, total, standard deviation, collections). The
 * JVM's beans give only a count and a total time per collector, so "longest" and "stdev" are
 * over each collector's mean pause in the interval, weighted by its collections: an estimate,
 * not a per-pause figure. Thread-safe (calls are serialised).
 */
final class GcStatistics {
  private long lastCallMillis = System.currentTimeMillis();
  /** Per collector: {count, time in ms} at the previous call. */
  private final Map<String, long[]> last = new HashMap<>();

  GcStatistics() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      last.put(gc.getName(), new long[] {gc.getCollectionCount(), gc.getCollectionTime()});
    }
  }

  /** The interval's figures as one JSON object; the next call starts a new interval. */
  synchronized String sinceLastCall() {
    long now = System.currentTimeMillis();
    long collections = 0;
    long totalMillis = 0;
    double maxPause = 0;
    double sumSquares = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      long count = Math.max(0, gc.getCollectionCount());
      long time = Math.max(0, gc.getCollectionTime());
      long[] before = last.getOrDefault(gc.getName(), new long[2]);
      long dc = count - before[0];
      long dt = time - before[1];
      last.put(gc.getName(), new long[] {count, time});
      if (dc > 0) {
        double mean = (double) dt / dc;
        maxPause = Math.max(maxPause, mean);
        sumSquares += dc * mean * mean;
        collections += dc;
        totalMillis += dt;
      }
    }
    double stdev = 0;
    if (collections > 0) {
      double mean = (double) totalMillis / collections;
      stdev = Math.sqrt(Math.max(0, sumSquares / collections - mean * mean));
    }
    long interval = now - lastCallMillis;
    lastCallMillis = now;
    return new JsonWriter().beginObject()
        .field("intervalMillis", interval)
        .field("maxGcElapsedMillis", (long) Math.ceil(maxPause))
        .field("totalGcElapsedMillis", totalMillis)
        .field("stdevGcElapsedMillis", stdev)
        .field("collections", collections)
        .field("directMemoryBytes", directMemoryBytes())
        .endObject().toString();
  }

  /** Memory outside the heap that the JVM accounts for (metaspace, code cache...). */
  static long offHeapBytes() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.NON_HEAP) {
        used += pool.getUsage().getUsed();
      }
    }
    return used + Math.max(0, directMemoryBytes());
  }

  /** Bytes in direct buffers, -1 when the JVM does not say (Cassandra prints -1 too). */
  static long directMemoryBytes() {
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        return pool.getMemoryUsed();
      }
    }
    return -1;
  }
}
