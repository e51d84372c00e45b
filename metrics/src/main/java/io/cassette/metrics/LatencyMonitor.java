package io.cassette.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Redis's latency monitor for Cassette's stalls: each event at or above
 * {@code latency_monitor_threshold} milliseconds is kept, with its time, duration and context,
 * in a history of the last {@link #HISTORY_LENGTH} samples per event name. As in Redis, events
 * within the same second share one sample holding the worst of them, and the all-time maximum
 * of each event survives the history (until {@link #reset}). A threshold of 0 disables the monitor.
 *
 * <p>{@link #record} is the hot path: below the threshold it reads one volatile and returns,
 * without allocation or locking. Recording an event locks that event's history only.
 * Thread-safe.
 */
public final class LatencyMonitor {
  /** Samples kept per event: Redis's LATENCY_TS_LEN. */
  public static final int HISTORY_LENGTH = 160;
  /**
   * Cassette's default threshold. Redis ships with 0 (disabled); Cassette is for SD cards, where
   * stalls are the thing to explain, so it starts enabled at a level no healthy request reaches.
   */
  public static final long DEFAULT_THRESHOLD_MILLIS = 100;

  /** One sample: the worst event of one second. */
  public record Sample(long epochSecond, long micros, String context) {
    /** Whole milliseconds, as Redis reports them. */
    public long millis() {
      return micros / 1000;
    }
  }

  /**
   * The state of one event, as {@code LATENCY LATEST} shows it, plus Cassette's extras.
   *
   * @param epochSecond   time of the latest sample
   * @param latestMicros  duration of the latest sample
   * @param maxMicros     all-time worst
   * @param maxContext    context of the all-time worst
   * @param events        every event recorded, including those merged into one sample
   */
  public record Latest(String event, long epochSecond, long latestMicros, long maxMicros,
                       String maxContext, long events) {
    public long latestMillis() {
      return latestMicros / 1000;
    }

    public long maxMillis() {
      return maxMicros / 1000;
    }
  }

  private final LongSupplier clockMillis;
  private final Map<String, EventHistory> events = new ConcurrentHashMap<>();
  private volatile long thresholdMicros;

  public LatencyMonitor() {
    this(DEFAULT_THRESHOLD_MILLIS, System::currentTimeMillis);
  }

  /** @param clockMillis wall-clock milliseconds (sample times are Unix seconds, as in Redis) */
  public LatencyMonitor(long thresholdMillis, LongSupplier clockMillis) {
    this.clockMillis = clockMillis;
    setThresholdMillis(thresholdMillis);
  }

  /** @param millis 0 disables the monitor */
  public void setThresholdMillis(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("latency_monitor_threshold: " + millis + " (expected: >= 0 ms)");
    }
    thresholdMicros = millis * 1000;
  }

  public long thresholdMillis() {
    return thresholdMicros / 1000;
  }

  public boolean enabled() {
    return thresholdMicros > 0;
  }

  /**
   * Records {@code event} if it took at least the threshold.
   *
   * @param context what was slow (a file, a table, a command); may be null; keep it short
   * @return whether it was recorded
   */
  public boolean record(String event, long micros, String context) {
    long threshold = thresholdMicros;
    if (threshold <= 0 || micros < threshold) {
      return false;
    }
    EventHistory h = events.get(event);
    if (h == null) {
      h = events.computeIfAbsent(event, e -> new EventHistory());
    }
    h.add(clockMillis.getAsLong() / 1000, micros, context);
    return true;
  }

  /** Every event with samples, by name ({@code LATENCY LATEST}). */
  public List<Latest> latest() {
    List<Latest> out = new ArrayList<>();
    for (Map.Entry<String, EventHistory> e : new TreeMap<>(events).entrySet()) {
      Latest l = e.getValue().latest(e.getKey());
      if (l != null) {
        out.add(l);
      }
    }
    return out;
  }

  /** The samples of {@code event}, oldest first; empty for an unknown event ({@code LATENCY HISTORY}). */
  public List<Sample> history(String event) {
    EventHistory h = events.get(event);
    return h == null ? List.of() : h.samples();
  }

  /**
   * Forgets the named events, or all events when none is named ({@code LATENCY RESET}).
   *
   * @return how many event histories were reset
   */
  public int reset(String... names) {
    int n = 0;
    if (names.length == 0) {
      for (String e : List.copyOf(events.keySet())) {
        n += events.remove(e) != null ? 1 : 0;
      }
    } else {
      for (String e : names) {
        n += events.remove(e) != null ? 1 : 0;
      }
    }
    return n;
  }

  /** Wall-clock seconds now, by the clock samples are stamped with. */
  public long nowEpochSecond() {
    return clockMillis.getAsLong() / 1000;
  }

  /** The ring of samples of one event. Guarded by itself. */
  private static final class EventHistory {
    private final long[] seconds = new long[HISTORY_LENGTH];
    private final long[] micros = new long[HISTORY_LENGTH];
    private final String[] contexts = new String[HISTORY_LENGTH];
    /** Index of the newest sample; -1 when empty. */
    private int newest = -1;
    private int size;
    private long maxMicros;
    private String maxContext;
    private long events;

    synchronized void add(long second, long duration, String context) {
      events++;
      if (duration > maxMicros) {
        maxMicros = duration;
        maxContext = context;
      }
      if (newest >= 0 && seconds[newest] == second) {
        if (duration > micros[newest]) {
          micros[newest] = duration;
          contexts[newest] = context;
        }
        return;
      }
      newest = (newest + 1) % HISTORY_LENGTH;
      seconds[newest] = second;
      micros[newest] = duration;
      contexts[newest] = context;
      size = Math.min(size + 1, HISTORY_LENGTH);
    }

    synchronized Latest latest(String name) {
      if (newest < 0) {
        return null;
      }
      return new Latest(name, seconds[newest], micros[newest], maxMicros, maxContext, events);
    }

    synchronized List<Sample> samples() {
      List<Sample> out = new ArrayList<>(size);
      for (int i = size - 1; i >= 0; i--) {
        int j = Math.floorMod(newest - i, HISTORY_LENGTH);
        out.add(new Sample(seconds[j], micros[j], contexts[j]));
      }
      return out;
    }
  }
}
