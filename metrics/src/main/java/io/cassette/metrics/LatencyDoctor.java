package io.cassette.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns the {@link LatencyMonitor}'s history into plain advice, as Redis's {@code LATENCY DOCTOR}
 * does: for each event how often and how bad, then what likely causes it and which of Cassette's
 * settings to change, quoting the values in force. The statistics are Redis's: average, mean
 * deviation and minimum over the samples in the history, all-time worst, and the period (seconds
 * from the oldest sample to now, divided by the number of samples).
 *
 * <p>Settings are read from a supplier at each report, so the advice follows the configuration
 * in force. Keys used (absent keys are left out of the advice): {@code commitlog_sync},
 * {@code commitlog_sync_period}, {@code commitlog_directory}, {@code data_file_directories},
 * {@code compaction_throughput}, {@code memtable_heap_space}, {@code heap}. Thread-safe.
 */
public final class LatencyDoctor {
  /** Events coming more often than this many seconds apart are called frequent. */
  static final double FREQUENT_PERIOD_SECONDS = 60;

  /** What the doctor computed for one event. Durations in microseconds. */
  public record EventStats(String event, int samples, long avgMicros, long madMicros, long minMicros,
                           long maxMicros, long allTimeMaxMicros, String worstContext,
                           double periodSeconds, long events) {}

  private final LatencyMonitor monitor;
  private final Supplier<Map<String, String>> settings;

  public LatencyDoctor(LatencyMonitor monitor, Supplier<Map<String, String>> settings) {
    this.monitor = monitor;
    this.settings = settings;
  }

  /** Statistics per event with samples, by event name. */
  public List<EventStats> analyze() {
    long now = monitor.nowEpochSecond();
    List<EventStats> out = new ArrayList<>();
    for (LatencyMonitor.Latest l : monitor.latest()) {
      List<LatencyMonitor.Sample> samples = monitor.history(l.event());
      if (samples.isEmpty()) {
        continue;
      }
      long sum = 0;
      long min = Long.MAX_VALUE;
      long max = 0;
      long oldest = Long.MAX_VALUE;
      for (LatencyMonitor.Sample s : samples) {
        sum += s.micros();
        min = Math.min(min, s.micros());
        max = Math.max(max, s.micros());
        oldest = Math.min(oldest, s.epochSecond());
      }
      long avg = sum / samples.size();
      long mad = 0;
      for (LatencyMonitor.Sample s : samples) {
        mad += Math.abs(s.micros() - avg);
      }
      mad /= samples.size();
      long span = Math.max(1, now - oldest);
      out.add(new EventStats(l.event(), samples.size(), avg, mad, min, max, l.maxMicros(),
          l.maxContext(), (double) span / samples.size(), l.events()));
    }
    return out;
  }

  /** The report, as {@code LATENCY DOCTOR}, {@code nodetool latency} and the dashboard show it. */
  public String report() {
    if (!monitor.enabled()) {
      return "Latency monitoring is disabled in this Cassette node (latency_monitor_threshold is 0).\n"
          + "Set latency_monitor_threshold to a number of milliseconds, for example 100, in\n"
          + "conf/cassette.yaml to record commit-log fsyncs, flushes, compactions, GC pauses and\n"
          + "requests that take at least that long.\n";
    }
    List<EventStats> stats = analyze();
    if (stats.isEmpty()) {
      return "No latency spike was observed during the lifetime of this Cassette node (threshold "
          + monitor.thresholdMillis() + "ms):\nno fsync, flush, compaction, GC pause or request took that long."
          + " Nothing to fix.\n";
    }
    Map<String, String> s = settings.get();
    StringBuilder sb = new StringBuilder();
    sb.append("I have observed latency spikes in this Cassette node (threshold ")
        .append(monitor.thresholdMillis()).append("ms).\n\n");
    int i = 1;
    for (EventStats e : stats) {
      sb.append(i++).append(". ").append(e.event()).append(": ").append(e.samples())
          .append(e.samples() == 1 ? " latency spike" : " latency spikes")
          .append(" (average ").append(ms(e.avgMicros())).append(", mean deviation ")
          .append(ms(e.madMicros())).append(", period ")
          .append(String.format(Locale.ROOT, "%.2f", e.periodSeconds()))
          .append(" sec). Worst all time event ").append(ms(e.allTimeMaxMicros()));
      if (e.worstContext() != null && !e.worstContext().isEmpty()) {
        sb.append(" (").append(e.worstContext()).append(')');
      }
      sb.append(".\n");
    }
    sb.append("\nHere is what I suggest:\n");
    for (EventStats e : stats) {
      sb.append("\n- ");
      advise(e, stats, s, sb);
      sb.append('\n');
    }
    return sb.toString();
  }

  private void advise(EventStats e, List<EventStats> all, Map<String, String> s, StringBuilder sb) {
    String often = e.periodSeconds() < FREQUENT_PERIOD_SECONDS
        ? "about every " + String.format(Locale.ROOT, "%.0f", Math.max(1, e.periodSeconds())) + " s"
        : "now and then";
    switch (e.event()) {
      case LatencyEvents.COMMITLOG_FSYNC -> {
        sb.append("commitlog-fsync: the commit log's fsync took up to ").append(ms(e.allTimeMaxMicros()))
            .append(", ").append(often).append(". The storage device is slow to make writes durable;")
            .append(" SD cards and eMMC stall for seconds while they erase blocks.");
        String sync = s.get("commitlog_sync");
        String period = s.get("commitlog_sync_period");
        if ("batch".equals(sync) || "group".equals(sync)) {
          sb.append(" commitlog_sync is ").append(sync).append(", so every write waits for these fsyncs:")
              .append(" set commitlog_sync: periodic to acknowledge writes at once and fsync in the")
              .append(" background every commitlog_sync_period");
          appendNow(sb, period);
          sb.append("; the price is that a power failure may lose up to that much of the latest writes.");
        } else {
          sb.append(" With commitlog_sync: periodic requests do not wait for fsync, but while it")
              .append(" stalls unsynced data piles up and writers are held back once the backlog is full.")
              .append(" Lower commitlog_sync_period");
          appendNow(sb, period);
          sb.append(" so each fsync has less to write, and check the request events below.");
        }
        sb.append(" Moving commitlog_directory");
        appendNow(sb, s.get("commitlog_directory"));
        sb.append(" to a faster device than the data (a USB SSD rather than the SD card) helps most;")
            .append(" `dmesg` shows whether the card reports I/O errors.");
      }
      case LatencyEvents.MEMTABLE_FLUSH -> {
        sb.append("memtable-flush: writing a memtable to an SSTable took up to ").append(ms(e.allTimeMaxMicros()))
            .append(", ").append(often).append(". Flushes run in the background, but while one is slow")
            .append(" the memtable space stays taken and writes wait once memtable_heap_space");
        appendNow(sb, s.get("memtable_heap_space"));
        sb.append(" is full. Lower compaction_throughput");
        appendNow(sb, s.get("compaction_throughput"));
        sb.append(" so compaction leaves the device to flushes, or give memtables more room if the")
            .append(" heap allows (fewer, larger flushes).");
      }
      case LatencyEvents.COMPACTION -> {
        sb.append("compaction: compacting SSTables took up to ").append(ms(e.allTimeMaxMicros()))
            .append(", ").append(often).append(". Compaction competes with requests and commit-log")
            .append(" fsyncs for the device. ");
        String tp = s.get("compaction_throughput");
        if (tp != null && tp.matches("0+([^0-9.].*)?")) {
          sb.append("compaction_throughput is ").append(tp).append(", which means unthrottled:")
              .append(" set it to, for example, 8MiB/s on an SD card.");
        } else {
          sb.append("Lower compaction_throughput");
          appendNow(sb, tp);
          sb.append(", for example to 8MiB/s on an SD card, to spread compactions out; pending")
              .append(" compactions on the dashboard show whether it keeps up.");
        }
      }
      case LatencyEvents.GC_PAUSE -> {
        Runtime rt = Runtime.getRuntime();
        long usedPct = 100 * (rt.totalMemory() - rt.freeMemory()) / rt.maxMemory();
        sb.append("gc-pause: the JVM stopped for garbage collection for up to ").append(ms(e.allTimeMaxMicros()))
            .append(", ").append(often).append(". The heap is ")
            .append(s.getOrDefault("heap", (rt.maxMemory() >> 20) + "MiB")).append(", ").append(usedPct)
            .append("% in use now. Frequent or long pauses mean the heap is too small for the load:")
            .append(" raise it with --heap (or -Xmx in CASSETTE_JAVA_OPTS), or lower memtable_heap_space");
        appendNow(sb, s.get("memtable_heap_space"));
        sb.append(" so more of the heap stays free.");
      }
      case LatencyEvents.REQUEST_CQL, LatencyEvents.REQUEST_RESP -> {
        boolean cql = e.event().equals(LatencyEvents.REQUEST_CQL);
        sb.append(e.event()).append(": ").append(e.events()).append(cql ? " CQL requests" : " Redis commands")
            .append(" took at least the threshold, the worst ").append(ms(e.allTimeMaxMicros()));
        if (e.worstContext() != null) {
          sb.append(" (").append(e.worstContext()).append(')');
        }
        sb.append(". The slow log (").append(cql ? "the dashboard's slow CQL queries" : "SLOWLOG GET")
            .append(") names the statements. ")
            .append(cql ? "Large partitions, ALLOW FILTERING scans and big IN lists are the usual causes."
                : "Commands over big keys (KEYS, SMEMBERS, HGETALL, LRANGE 0 -1) are the usual causes.");
        String overlap = overlap(e, all);
        if (overlap != null) {
          sb.append(' ').append(overlap);
        }
      }
      case LatencyEvents.DISK_FULL -> {
        sb.append("disk-full: writes were refused for lack of space for up to ").append(ms(e.allTimeMaxMicros()));
        if (e.worstContext() != null) {
          sb.append(" (").append(e.worstContext()).append(')');
        }
        sb.append(". Free space under data_file_directories");
        appendNow(sb, s.get("data_file_directories"));
        sb.append(": drop or truncate unused tables and clear snapshots. Compaction needs free space")
            .append(" as large as the SSTables it merges, so keep a third of the disk free.");
      }
      default -> sb.append(e.event()).append(": up to ").append(ms(e.allTimeMaxMicros())).append(", ")
          .append(often).append(". I have no specific advice for this event.");
    }
  }

  /** Says which stalls happened in the same seconds as slow requests: fix those first. */
  private String overlap(EventStats request, List<EventStats> all) {
    Set<Long> requestSeconds = new HashSet<>();
    for (LatencyMonitor.Sample s : monitor.history(request.event())) {
      requestSeconds.add(s.epochSecond());
    }
    List<String> causes = new ArrayList<>();
    for (EventStats other : all) {
      if (other.event().startsWith("request-")) {
        continue;
      }
      int together = 0;
      for (LatencyMonitor.Sample s : monitor.history(other.event())) {
        // A stall delays requests for its whole length: count the seconds it covered.
        long from = s.epochSecond() - s.micros() / 1_000_000;
        for (long t = from; t <= s.epochSecond(); t++) {
          if (requestSeconds.contains(t)) {
            together++;
            break;
          }
        }
      }
      if (together > 0) {
        causes.add(together + " " + other.event());
      }
    }
    if (causes.isEmpty()) {
      return null;
    }
    return "Slow requests came in the same seconds as " + String.join(", ", causes)
        + " spikes: fix those first, the requests were probably waiting on them.";
  }

  private static void appendNow(StringBuilder sb, String value) {
    if (value != null && !value.isEmpty()) {
      sb.append(" (now ").append(value).append(')');
    }
  }

  private static String ms(long micros) {
    return micros >= 1000 || micros == 0 ? (micros / 1000) + "ms"
        : String.format(Locale.ROOT, "%.1fms", micros / 1000.0);
  }
}
