package io.cassette.storage;

/**
 * Told of the engine's slow background work as it happens, for metrics and the latency
 * monitor: storage itself depends on no metrics library. Called on the commit-log sync,
 * flush and compaction threads; implementations must be quick and must not throw.
 */
public interface StorageListener {
  /** Does nothing. */
  StorageListener NONE = new StorageListener() { };

  /** One commit-log fsync took {@code micros}; {@code segment} is the last file synced. */
  default void commitLogSynced(long micros, String segment) { }

  /** A memtable of {@code table} ("ks.t") became an SSTable of {@code bytes} in {@code micros}. */
  default void memtableFlushed(String table, long micros, long bytes) { }

  /** A compaction of {@code table} read {@code bytesRead} and wrote {@code bytesWritten}. */
  default void compacted(String table, long micros, long bytesRead, long bytesWritten) { }
}
