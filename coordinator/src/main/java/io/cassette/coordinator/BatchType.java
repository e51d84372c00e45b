package io.cassette.coordinator;

/**
 * How a batch is applied. LOGGED: all or nothing, even across partitions (one node: one
 * commit-log record; the ring: Cassandra's batchlog). UNLOGGED: each partition atomically,
 * partitions independently.
 */
public enum BatchType {
  LOGGED, UNLOGGED
}
