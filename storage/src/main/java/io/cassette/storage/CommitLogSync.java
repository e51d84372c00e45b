package io.cassette.storage;

/** When a write is acknowledged relative to its commit-log fsync (Cassandra's names). */
public enum CommitLogSync {
  /** Acknowledged at once; fsync every {@code commitlog_sync_period}. */
  PERIODIC,
  /** Acknowledged after fsync; concurrent writers share one fsync. */
  BATCH
}
