package io.cassette.storage.memtable;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.PartitionUpdate;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory, sorted write buffer of one table: partitions by token then key. Writes go
 * to the table's current memtable until it is switched out and flushed to an SSTable;
 * then it stays readable until the SSTable replaces it. Thread-safe.
 */
public final class Memtable {
  private final ConcurrentSkipListMap<DecoratedKey, MemtablePartition> partitions = new ConcurrentSkipListMap<>();
  private final AtomicLong liveBytes = new AtomicLong();
  private final AtomicLong minTimestamp = new AtomicLong(Long.MAX_VALUE);

  /** Applies one partition update; returns the estimated heap bytes it added. */
  public long apply(DecoratedKey key, PartitionUpdate update) {
    // One traversal whether the partition is new or not: a fresh partition is cheap
    // (no row map until it has two rows), so building one speculatively costs little.
    MemtablePartition fresh = new MemtablePartition(key);
    MemtablePartition p = partitions.putIfAbsent(key, fresh);
    long added = 0;
    if (p == null) {
      p = fresh;
      added += MemtablePartition.PARTITION_OVERHEAD + key.key().length;
    }
    long[] min = {Long.MAX_VALUE};
    added += p.apply(update, min);
    if (min[0] != Long.MAX_VALUE) {
      minTimestamp.accumulateAndGet(min[0], Math::min);
    }
    liveBytes.addAndGet(added);
    return added;
  }

  public MemtablePartition get(DecoratedKey key) {
    return partitions.get(key);
  }

  /** All partitions in token order; a live view that reflects concurrent writes. */
  public NavigableMap<DecoratedKey, MemtablePartition> partitions() {
    return partitions;
  }

  public boolean isEmpty() {
    return partitions.isEmpty();
  }

  /** Estimated heap bytes held. */
  public long liveBytes() {
    return liveBytes.get();
  }

  /** Smallest write timestamp (µs) of any data or deletion in it; Long.MAX_VALUE when empty. */
  public long minTimestamp() {
    return minTimestamp.get();
  }
}
