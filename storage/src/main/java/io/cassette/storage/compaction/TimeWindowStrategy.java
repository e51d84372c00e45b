package io.cassette.storage.compaction;

import io.cassette.storage.StorageException;
import io.cassette.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Cassandra's time-window strategy for time series: SSTables are grouped by the window
 * (compaction_window_unit x compaction_window_size) of their newest write; the current
 * window is compacted size-tiered, each older window down to one SSTable.
 */
public final class TimeWindowStrategy implements CompactionStrategy {
  private final long windowMicros;
  private final SizeTieredStrategy currentWindow;
  private final int maxThreshold;

  public TimeWindowStrategy(long windowMicros, SizeTieredStrategy currentWindow, int maxThreshold) {
    this.windowMicros = windowMicros;
    this.currentWindow = currentWindow;
    this.maxThreshold = maxThreshold;
  }

  static TimeWindowStrategy fromOptions(Map<String, String> o) {
    String unit = o.getOrDefault("compaction_window_unit", "DAYS").toUpperCase(java.util.Locale.ROOT);
    long unitSeconds = switch (unit) {
      case "MINUTES" -> 60L;
      case "HOURS" -> 3600L;
      case "DAYS" -> 86400L;
      default -> throw new StorageException("compaction_window_unit: " + unit + " (expected: MINUTES, HOURS or DAYS)");
    };
    int size;
    try {
      size = Integer.parseInt(o.getOrDefault("compaction_window_size", "1"));
    } catch (NumberFormatException e) {
      throw new StorageException("compaction_window_size: " + o.get("compaction_window_size") + " (expected: a positive integer)");
    }
    if (size < 1) {
      throw new StorageException("compaction_window_size: " + size + " (expected: >= 1)");
    }
    SizeTieredStrategy stcs = SizeTieredStrategy.fromOptions(o);
    int max = Integer.parseInt(o.getOrDefault("max_threshold", "" + SizeTieredStrategy.DEFAULT_MAX_THRESHOLD));
    return new TimeWindowStrategy(unitSeconds * size * 1_000_000L, stcs, max);
  }

  long windowOf(SSTableReader s) {
    return Math.floorDiv(s.stats().maxTimestamp(), windowMicros);
  }

  private TreeMap<Long, List<SSTableReader>> windows(List<SSTableReader> candidates) {
    TreeMap<Long, List<SSTableReader>> w = new TreeMap<>();
    for (SSTableReader s : candidates) {
      w.computeIfAbsent(windowOf(s), k -> new ArrayList<>()).add(s);
    }
    return w;
  }

  @Override
  public List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    long current = Math.floorDiv(nowInSeconds * 1_000_000L, windowMicros);
    TreeMap<Long, List<SSTableReader>> w = windows(candidates);
    for (var e : w.descendingMap().entrySet()) {
      List<SSTableReader> group = e.getValue();
      if (e.getKey() >= current) {
        // The current window keeps size-tiered's fixed small bucket: its SSTables are bounded by the window.
        List<SSTableReader> task = currentWindow.nextBackgroundTask(group, nowInSeconds);
        if (!task.isEmpty()) {
          return task;
        }
      } else if (group.size() >= 2) {
        return new ArrayList<>(group.subList(0, Math.min(maxThreshold, group.size())));
      }
    }
    return List.of();
  }

  @Override
  public int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    long current = Math.floorDiv(nowInSeconds * 1_000_000L, windowMicros);
    int n = 0;
    for (var e : windows(candidates).entrySet()) {
      if (e.getKey() >= current) {
        n += currentWindow.estimatedPendingTasks(e.getValue(), nowInSeconds);
      } else if (e.getValue().size() >= 2) {
        n++;
      }
    }
    return n;
  }
}
