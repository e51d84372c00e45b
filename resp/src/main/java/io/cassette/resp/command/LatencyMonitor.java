package io.cassette.resp.command;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Redis's latency monitor: for each event ("command", "fast-command"...), samples above
 * latency-monitor-threshold ms, one per second, the last {@link #HISTORY} kept.
 * Thread-safe (synchronized).
 */
public final class LatencyMonitor {
  static final int HISTORY = 160;

  public record Sample(long timeSeconds, long millis) {}

  public static final class Event {
    public final ArrayDeque<Sample> samples = new ArrayDeque<>();
    public long maxMillis;
  }

  private final Map<String, Event> events = new LinkedHashMap<>();

  public synchronized void add(String event, long millis) {
    long now = System.currentTimeMillis() / 1000;
    Event e = events.computeIfAbsent(event, k -> new Event());
    Sample last = e.samples.peekLast();
    if (last != null && last.timeSeconds() == now) {
      e.samples.pollLast();
      millis = Math.max(millis, last.millis());
    }
    e.samples.addLast(new Sample(now, millis));
    while (e.samples.size() > HISTORY) {
      e.samples.pollFirst();
    }
    e.maxMillis = Math.max(e.maxMillis, millis);
  }

  public synchronized Map<String, Event> snapshot() {
    Map<String, Event> out = new LinkedHashMap<>();
    for (Map.Entry<String, Event> en : events.entrySet()) {
      Event copy = new Event();
      copy.samples.addAll(en.getValue().samples);
      copy.maxMillis = en.getValue().maxMillis;
      out.put(en.getKey(), copy);
    }
    return out;
  }

  public synchronized List<Sample> history(String event) {
    Event e = events.get(event);
    return e == null ? List.of() : new ArrayList<>(e.samples);
  }

  /** Resets the named events (all when empty); returns how many were reset. */
  public synchronized int reset(List<String> names) {
    if (names.isEmpty()) {
      int n = events.size();
      events.clear();
      return n;
    }
    int n = 0;
    for (String name : names) {
      if (events.remove(name) != null) {
        n++;
      }
    }
    return n;
  }
}
