package io.cassette.storage.compaction;

import io.cassette.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * What size-tiered buckets and unified levels share once SSTables are grouped: the first group
 * with enough SSTables is the next compaction (at most {@code max} of them), and every full
 * group counts its compactions as pending.
 */
final class TieredGroups {
  private TieredGroups() {}

  /** The first group (in order) holding at least {@code threshold(i)} SSTables, cut to {@code max}; or empty. */
  static List<SSTableReader> firstFull(List<List<SSTableReader>> groups, IntUnaryOperator threshold, int max) {
    for (int i = 0; i < groups.size(); i++) {
      List<SSTableReader> g = groups.get(i);
      if (g.size() >= threshold.applyAsInt(i)) {
        return new ArrayList<>(g.subList(0, Math.min(max, g.size())));
      }
    }
    return List.of();
  }

  /** Compactions of at most {@code max} SSTables that the full groups need. */
  static int pendingTasks(List<List<SSTableReader>> groups, IntUnaryOperator threshold, int max) {
    int n = 0;
    for (int i = 0; i < groups.size(); i++) {
      int size = groups.get(i).size();
      if (size >= threshold.applyAsInt(i)) {
        n += (size + max - 1) / max;
      }
    }
    return n;
  }
}
