package io.cassette.storage;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything the engine needs from configuration; the server derives it from
 * {@code cassette.yaml} and the heap it was given.
 *
 * @param dataDirectory          where tables' SSTables and the catalog live
 * @param commitLogDirectory     where commit-log segments live
 * @param commitLogSync          acknowledge before or after fsync
 * @param commitLogSyncPeriod    fsync interval in periodic mode (Cassandra's default: 10 s)
 * @param commitLogSegmentBytes  size of one segment file
 * @param commitLogBacklogBytes  unsynced bytes after which writers wait (back-pressure)
 * @param memtableBudgetBytes    heap share for all memtables together; a flush starts at half
 * @param compactionThroughputBytesPerSecond cap on compaction I/O; 0 = unthrottled
 * @param compactionThreads      background compaction pool size
 */
public record EngineOptions(Path dataDirectory, Path commitLogDirectory,
                            CommitLogSync commitLogSync, Duration commitLogSyncPeriod,
                            long commitLogSegmentBytes, long commitLogBacklogBytes,
                            long memtableBudgetBytes, long compactionThroughputBytesPerSecond,
                            int compactionThreads) {

  /** Defaults sized for a small heap, with data and commit log under {@code directory}. */
  public static EngineOptions defaults(Path directory) {
    return new EngineOptions(directory.resolve("data"), directory.resolve("commitlog"),
        CommitLogSync.PERIODIC, Duration.ofSeconds(10), 32L << 20, 8L << 20,
        16L << 20, 64L << 20, 1);
  }
}
