package io.cassette.cql.language.statements;

/**
 * Cassandra's {@code tombstone_warn_threshold} and {@code tombstone_failure_threshold}: a read
 * that meets more tombstones than {@code warn} gets a client warning, more than {@code failure}
 * fails with READ_FAILURE (READ_TOO_MANY_TOMBSTONES). Negative disables a threshold.
 */
public record TombstoneThresholds(int warn, int failure) {
  /** Cassandra 5.0's defaults. */
  public static final TombstoneThresholds DEFAULTS = new TombstoneThresholds(1000, 100_000);
}
