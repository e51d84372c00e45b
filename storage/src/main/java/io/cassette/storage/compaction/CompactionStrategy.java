package io.cassette.storage.compaction;

import io.cassette.storage.StorageException;
import io.cassette.storage.sstable.SSTableReader;
import java.util.List;
import java.util.Map;

/** Chooses which SSTables of a table to compact next. Implementations are stateless. */
public interface CompactionStrategy {
  /** The next group to compact among {@code candidates} (not already compacting), or an empty list. */
  List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds);

  /** Roughly how many background compactions are waiting. */
  int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds);

  /**
   * As {@link #nextBackgroundTask(List, long)}, knowing the size on disk of the table's recent
   * flushes ({@code flushBytes}, 0 when none has been seen since start): what a strategy that
   * sizes its tiers from the flushes (as Cassandra's UCS does) starts from.
   */
  default List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    return nextBackgroundTask(candidates, nowInSeconds);
  }

  /** As {@link #estimatedPendingTasks(List, long)}, knowing the recent flush size. */
  default int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    return estimatedPendingTasks(candidates, nowInSeconds);
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
