package io.cassette.storage.compaction;

import io.cassette.storage.StorageException;
import io.cassette.storage.sstable.SSTableReader;
import java.util.List;
import java.util.Map;

/** Chooses which SSTables of a table to compact next. Implementations are stateless. */
public interface CompactionStrategy {
  /**
   * The next group to compact among {@code candidates} (not already compacting), or an empty list.
   * {@code flushBytes} is the size on disk of the table's recent flushes (0 when none has been seen
   * since start): what a strategy that sizes its tiers from the flushes (as Cassandra's UCS does)
   * starts from.
   */
  List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds, long flushBytes);

  /** Roughly how many background compactions are waiting, knowing the recent flush size. */
  int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds, long flushBytes);

  /** As {@link #nextBackgroundTask(List, long, long)} with no flush seen yet. */
  default List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds) {
    return nextBackgroundTask(candidates, nowInSeconds, 0);
  }

  /** As {@link #estimatedPendingTasks(List, long, long)} with no flush seen yet. */
  default int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds) {
    return estimatedPendingTasks(candidates, nowInSeconds, 0);
  }

  /** The strategy named by the table's Cassandra-style {@code compaction} map. */
  static CompactionStrategy forOptions(Map<String, String> options) {
    String cls = options.getOrDefault("class", "SizeTieredCompactionStrategy");
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    return switch (simple) {
      case "SizeTieredCompactionStrategy" -> SizeTieredStrategy.fromOptions(options);
      case "UnifiedCompactionStrategy" -> UnifiedStrategy.fromOptions(options);
      case "TimeWindowCompactionStrategy" -> TimeWindowStrategy.fromOptions(options);
      default -> throw new StorageException("unknown compaction class: " + cls
          + " (expected: SizeTieredCompactionStrategy, UnifiedCompactionStrategy or TimeWindowCompactionStrategy)");
    };
  }
}
