package io.cassette.metrics;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's side of the node: heap and non-heap use, threads, collections per collector, and
 * each stop-the-world GC pause, taken from the collectors' notifications, recorded in
 * {@code cassette_jvm_gc_pause_seconds} and offered to the {@link LatencyMonitor} as a
 * {@code gc-pause} event. Concurrent cycles (ZGC and Shenandoah "Cycles", G1's concurrent
 * marking) are not pauses and are left out. Close to stop listening.
 */
public final class JvmMetrics implements AutoCloseable {
  private final LatencyMonitor monitor;
  private final LatencyHistogram pauses;
  private final MetricFamily<Counter> pausesByCollector;
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::onNotification;

  JvmMetrics(MetricsRegistry registry, LatencyMonitor monitor) {
    this.monitor = monitor;
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    registry.gauge("cassette_jvm_heap_used_bytes", "Heap in use",
        () -> memory.getHeapMemoryUsage().getUsed());
    registry.gauge("cassette_jvm_heap_committed_bytes", "Heap committed by the JVM",
        () -> memory.getHeapMemoryUsage().getCommitted());
    registry.gauge("cassette_jvm_heap_max_bytes", "Largest heap the JVM may use (-Xmx)",
        () -> Runtime.getRuntime().maxMemory());
    registry.gauge("cassette_jvm_nonheap_used_bytes", "Non-heap memory in use (metaspace, code cache)",
        () -> memory.getNonHeapMemoryUsage().getUsed());
    registry.gauge("cassette_jvm_threads", "Live threads", threads::getThreadCount);
    registry.gauge("cassette_jvm_threads_peak", "Most live threads at once since start", threads::getPeakThreadCount);
    registry.gauge("cassette_jvm_uptime_seconds", "Seconds since the JVM started",
        () -> ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0);
    pauses = registry.latency("cassette_jvm_gc_pause_seconds", "Stop-the-world garbage-collection pauses");
    pausesByCollector = registry.counterFamily("cassette_jvm_gc_pauses_total",
        "Stop-the-world pauses by collector", "collector");
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** Pauses recorded so far. */
  public LatencyHistogram pauses() {
    return pauses;
  }

  private void onNotification(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    onCollection(info.getGcName(), info.getGcAction(), info.getGcCause(), info.getGcInfo().getDuration());
  }

  /** One collection ended; visible for tests, which cannot make the JVM pause on demand. */
  void onCollection(String collector, String action, String cause, long durationMillis) {
    if (!isPause(collector, action)) {
      return;
    }
    long micros = durationMillis * 1000;
    pauses.record(micros);
    pausesByCollector.labels(collector).inc();
    monitor.record(LatencyEvents.GC_PAUSE, micros, collector + " (" + cause + ")");
  }

  static boolean isPause(String collector, String action) {
    String c = collector.toLowerCase(Locale.ROOT);
    String a = action.toLowerCase(Locale.ROOT);
    return !(c.contains("cycles") || c.contains("concurrent") || a.contains("cycle") || a.contains("concurrent"));
  }

  @Override
  public void close() {
    for (NotificationEmitter e : emitters) {
      try {
        e.removeNotificationListener(listener);
      } catch (ListenerNotFoundException ignored) {
        // already removed
      }
    }
    emitters.clear();
  }
}
