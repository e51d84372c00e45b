package io.cassette.storage.compaction;

import io.cassette.storage.DecoratedKey;

/**
 * Says how old a tombstone in a compaction must be so that dropping it cannot resurrect data
 * held outside the compaction (other SSTables, memtables).
 */
public interface PurgeEvaluator {
  /**
   * A tombstone of {@code key} with a timestamp strictly below the result shadows nothing
   * outside the compaction; {@code Long.MAX_VALUE} when nothing outside may hold the key.
   */
  long maxPurgeableTimestamp(DecoratedKey key);

  PurgeEvaluator NEVER = key -> Long.MIN_VALUE;
}
