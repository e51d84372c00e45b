package io.cassette.storage.memtable;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.PartitionUpdate;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory, sorted write buffer of one table: partitions by token then key. Writes go
 * to the table's current memtable until it is switched out and flushed to an SSTable;
 * then it stays readable until the SSTable replaces it. Thread-safe.
 */
public final class Memtable {
  /** In order, for flushes and scans. */
  private final ConcurrentSkipListMap<DecoratedKey, MemtablePartition> partitions = new ConcurrentSkipListMap<>();
  /**
   * The same partitions by key: a point read, and a write to a partition already here, cost
   * one hash probe instead of a skip-list descent (the skip list's get and put were the
   * hottest storage frames under load: JFR, bench/results/2026-12-02-perfstore.md). A new
   * partition enters here first, then the skip list, before its write returns; flushes
   * switch the memtable out only after writes in flight return (the engine's switch lock).
   */
  private final ConcurrentHashMap<DecoratedKey, MemtablePartition> byKey = new ConcurrentHashMap<>();
  /** Column names, numbered, for the packed rows of every partition here. */
  private final ColumnDictionary columns = new ColumnDictionary();
  private final AtomicLong liveBytes = new AtomicLong();
  private final AtomicLong minTimestamp = new AtomicLong(Long.MAX_VALUE);

  /** Applies one partition update; returns the heap bytes it added (negative: freed, as when a row's merge packs smaller). */
  public long apply(DecoratedKey key, PartitionUpdate update) {
    MemtablePartition p = byKey.get(key);
    long added = 0;
    if (p == null) {
      // A fresh partition is cheap (no row map until it has two rows), so building one
      // speculatively costs little.
      MemtablePartition fresh = new MemtablePartition(key, columns);
      p = byKey.putIfAbsent(key, fresh);
      if (p == null) {
        p = fresh;
        partitions.put(key, fresh);
        added += MemtablePartition.PARTITION_OVERHEAD + PackedRow.arrayBytes(key.key().length);
      }
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
    return byKey.get(key);
  }

  /** All partitions in token order; a live view that reflects concurrent writes. */
  public NavigableMap<DecoratedKey, MemtablePartition> partitions() {
    return partitions;
  }

  public boolean isEmpty() {
    return partitions.isEmpty();
  }

  /**
   * Counts {@code bytes} of heap held for this memtable's rows elsewhere (its storage-attached
   * index postings), so they are in {@link #liveBytes} and the memtable budget.
   */
  public void addIndexBytes(long bytes) {
    liveBytes.addAndGet(bytes);
  }

  /** Heap bytes held: rows (see MemtablePartition's constants for what is counted) and index postings. */
  public long liveBytes() {
    return liveBytes.get();
  }

  /** Smallest write timestamp (µs) of any data or deletion in it; Long.MAX_VALUE when empty. */
  public long minTimestamp() {
    return minTimestamp.get();
  }
}
