package io.cassette.coordinator.ring.hints;

/**
 * The {@code gc_grace_seconds} of the tables hints are for, as the schema has them now. A hint
 * older than the smallest grace of its tables may bring back data whose tombstone compaction has
 * already purged, so it is dropped on delivery instead of sent (Cassandra's
 * {@code Hint.isLive}). Thread-safe implementations only.
 */
public interface GcGrace {
  /** No table is known: no hint expires (tests, and a node whose schema is not there yet). */
  GcGrace UNKNOWN = (keyspace, table) -> -1;

  /** The table's gc_grace_seconds, or -1 when this node does not know the table. */
  int seconds(String keyspace, String table);
}
