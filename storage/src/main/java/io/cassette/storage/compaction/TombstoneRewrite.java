package io.cassette.storage.compaction;

import io.cassette.storage.TableSpec;
import io.cassette.storage.sstable.SSTableReader;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The single-SSTable tombstone compaction: an SSTable worth rewriting alone to drop what has
 * expired or been deleted (TTL-heavy data that size tiering may never pick). Cassandra's
 * {@code tombstone_compaction_interval} option. Thread-safe.
 */
final class TombstoneRewrite {
  /** Cassandra's option: seconds an SSTable must exist before it is rewritten alone for its tombstones. */
  static final String TOMBSTONE_COMPACTION_INTERVAL = "tombstone_compaction_interval";
  static final long DEFAULT_TOMBSTONE_COMPACTION_INTERVAL_SECONDS = 86_400;

  /**
   * Generations written by compacting one SSTable alone: not picked again in this process,
   * since what they still hold past gc_grace could not be purged (older data elsewhere).
   */
  private final Set<Long> rewrittenAlone = ConcurrentHashMap.newKeySet();

  /**
   * An SSTable among {@code candidates} whose every deletion and expiry is past gc_grace and
   * which is older than tombstone_compaction_interval. The usual purge rules keep what older
   * data elsewhere still needs. Null if none.
   */
  SSTableReader candidate(TableSpec s, List<SSTableReader> candidates, long now) {
    long gcBefore = now - s.gcGraceSeconds();
    long interval;
    try {
      interval = Long.parseLong(s.compaction().getOrDefault(TOMBSTONE_COMPACTION_INTERVAL,
          "" + DEFAULT_TOMBSTONE_COMPACTION_INTERVAL_SECONDS));
    } catch (NumberFormatException e) {
      interval = DEFAULT_TOMBSTONE_COMPACTION_INTERVAL_SECONDS;
    }
    for (SSTableReader c : candidates) {
      var st = c.stats();
      boolean hasDeletions = st.tombstoneCount() > 0 || st.minLocalDeletionTime() != Long.MAX_VALUE;
      if (!hasDeletions || st.maxLocalDeletionTime() >= gcBefore || c.ageSeconds() < interval) {
        continue;
      }
      if (!rewrittenAlone.contains(c.descriptor().generation())) {
        return c;
      }
    }
    return null;
  }

  /** Records that {@code output} was written by compacting one SSTable alone. */
  void wroteAlone(SSTableReader output) {
    rewrittenAlone.add(output.descriptor().generation());
  }
}
