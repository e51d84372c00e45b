package io.cassette.storage;

/**
 * A point-in-time copy of engine-wide counters (nodetool info, /metrics).
 *
 * @param writeStalls             writes that waited because memtables used the whole budget
 * @param writeStallMicros        total time writers spent in those waits
 * @param memtableBytes           estimated heap held by all memtables (active and flushing)
 * @param memtableBudgetBytes     the budget; flushes start at half of it
 * @param pendingFlushes          memtables switched out and not yet written
 * @param commitLogSyncs          completed commit-log fsyncs
 * @param commitLogSyncMicrosMax  the slowest fsync seen
 * @param commitLogSyncMicrosTotal total time in fsync
 * @param commitLogBackPressureWaits writes that waited for a stalled fsync (backlog full)
 * @param commitLogBackPressureMicros total time of those waits
 * @param commitLogBytes          bytes appended to the commit log since open
 * @param commitLogSegments       segment files on disk
 * @param flushes                 completed flushes since open
 * @param compactions             completed compactions since open
 * @param compactionBytesWritten  bytes written by compactions since open
 * @param chunkCacheHits          point-read chunk lookups served from the chunk cache
 * @param chunkCacheMisses        point-read chunk lookups that read and decompressed the file
 * @param chunkCacheBytes         bytes held by the chunk cache (at most 1/16 of the heap)
 * @param keyCacheHits            partition lookups whose data position the key cache held
 *                                (Cassandra's "keys" cache; one cache per JVM, shared by its engines)
 * @param keyCacheMisses          partition lookups the key cache was asked and did not hold
 *                                (hits + misses: Cassandra's request_count)
 * @param keyCacheEntries         partitions the key cache holds (entry_count)
 * @param keyCacheBytes           bytes those entries take (size_bytes)
 * @param keyCacheCapacityBytes   bytes the key cache may hold, allocated whole (capacity_bytes)
 */
public record StorageMetrics(long writeStalls, long writeStallMicros, long memtableBytes,
                             long memtableBudgetBytes, int pendingFlushes, long commitLogSyncs,
                             long commitLogSyncMicrosMax, long commitLogSyncMicrosTotal,
                             long commitLogBackPressureWaits, long commitLogBackPressureMicros,
                             long commitLogBytes, int commitLogSegments, long flushes,
                             long compactions, long compactionBytesWritten, long chunkCacheHits,
                             long chunkCacheMisses, long chunkCacheBytes, long keyCacheHits,
                             long keyCacheMisses, long keyCacheEntries, long keyCacheBytes,
                             long keyCacheCapacityBytes) {
  /** For engines that keep no counters. */
  public static final StorageMetrics EMPTY = new StorageMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** Without key-cache figures (all zero). */
  public StorageMetrics(long writeStalls, long writeStallMicros, long memtableBytes, long memtableBudgetBytes,
                        int pendingFlushes, long commitLogSyncs, long commitLogSyncMicrosMax,
                        long commitLogSyncMicrosTotal, long commitLogBackPressureWaits,
                        long commitLogBackPressureMicros, long commitLogBytes, int commitLogSegments,
                        long flushes, long compactions, long compactionBytesWritten, long chunkCacheHits,
                        long chunkCacheMisses, long chunkCacheBytes) {
    this(writeStalls, writeStallMicros, memtableBytes, memtableBudgetBytes, pendingFlushes, commitLogSyncs,
        commitLogSyncMicrosMax, commitLogSyncMicrosTotal, commitLogBackPressureWaits, commitLogBackPressureMicros,
        commitLogBytes, commitLogSegments, flushes, compactions, compactionBytesWritten, chunkCacheHits,
        chunkCacheMisses, chunkCacheBytes, 0, 0, 0, 0, 0);
  }
}
