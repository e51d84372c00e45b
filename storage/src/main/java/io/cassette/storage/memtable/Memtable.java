package io.cassette.storage.memtable;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.PartitionUpdate;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory, sorted write buffer of one table: partitions by token then key. Writes go
 * to the table's current memtable until it is switched out and flushed to an SSTable;
 * then it stays readable until the SSTable replaces it. Thread-safe.
 */
public final class Memtable {
  /**
   * Partitions by token, in order: one descent finds or adds a write's partition and serves
   * point reads, scans and flushes alike. A skip list in order plus a hash map by key cost a
   * hash probe and a skip-list insert per new partition, and 76 bytes per partition against
   * the trie's 31 or so (bench/results/2026-12-02-memwrite.md).
   */
  private final PartitionTrie partitions = new PartitionTrie();
  /** Column names, numbered, for the packed rows of every partition here. */
  private final ColumnDictionary columns = new ColumnDictionary();
  private final AtomicLong liveBytes = new AtomicLong();
  private final AtomicLong minTimestamp = new AtomicLong(Long.MAX_VALUE);

  /** Applies one partition update; returns the heap bytes it added (negative: freed, as when a row's merge packs smaller). */
  public long apply(DecoratedKey key, PartitionUpdate update) {
    // [0]: heap bytes added, [1]: smallest timestamp; one array for the whole write
    long[] acc = {0, Long.MAX_VALUE};
    MemtablePartition p = partitions.getOrAdd(key, columns, acc);
    p.apply(update, acc);
    if (acc[1] != Long.MAX_VALUE) {
      minTimestamp.accumulateAndGet(acc[1], Math::min);
    }
    liveBytes.addAndGet(acc[0]);
    return acc[0];
  }

  public MemtablePartition get(DecoratedKey key) {
    return partitions.get(key);
  }

  /**
   * Partitions in token order from {@code from} ({@code null}: all; a bound with a null key
   * stands before every key of its token); a live view that reflects concurrent writes.
   */
  public Iterator<MemtablePartition> partitions(DecoratedKey from, boolean inclusive) {
    return partitions.iterator(from, inclusive);
  }

  /** All partitions in token order (see {@link #partitions(DecoratedKey, boolean)}). */
  public Iterable<MemtablePartition> partitions() {
    return () -> partitions.iterator(null, true);
  }

  /** Partitions held (those added so far). */
  public int size() {
    return partitions.size();
  }

  public boolean isEmpty() {
    return partitions.size() == 0;
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
