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

  /** The strategy named by the table's Cassandra-style {@code compaction} map. */
  static CompactionStrategy forOptions(Map<String, String> options) {
    String cls = options.getOrDefault("class", "SizeTieredCompactionStrategy");
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    return switch (simple) {
      case "SizeTieredCompactionStrategy", "UnifiedCompactionStrategy" -> SizeTieredStrategy.fromOptions(options);
      case "TimeWindowCompactionStrategy" -> TimeWindowStrategy.fromOptions(options);
      default -> throw new StorageException("unknown compaction class: " + cls
          + " (expected: SizeTieredCompactionStrategy or TimeWindowCompactionStrategy)");
    };
  }
}
