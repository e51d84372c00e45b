package io.cassette.coordinator.metadata;

import java.util.function.BiConsumer;

/**
 * The cluster metadata (today: the schema) as one ordered log of numbered changes, as
 * Cassandra's transactional cluster metadata keeps it. Every node applies the entries in
 * epoch order and serves from the resulting immutable {@link ClusterMetadata}. A schema
 * change is one {@link #commit}: the front doors never change tables directly.
 *
 * <p>Implementations: {@link LocalMetadataLog} (one node; entries persisted in the node's own
 * storage so epochs survive a restart) and, for the ring, the metadata service on Raft. The
 * contract both keep:
 * <ul>
 *   <li>epochs start at 1 and increase by one per entry, with no gaps, and never go back
 *       (also across restarts);</li>
 *   <li>{@link #commit} returns once the entry is durable and applied on this node; if the
 *       change cannot be applied (storage refuses an option) it throws and nothing is
 *       appended;</li>
 *   <li>listeners see every applied entry exactly once per process, in epoch order, after
 *       {@link #current()} shows it.</li>
 * </ul>
 * Thread-safe; commits are serialised.
 */
public interface MetadataLog {

  /** The latest applied snapshot. */
  ClusterMetadata current();

  /** Appends {@code change} as the next epoch, applies it, and returns the new snapshot. */
  ClusterMetadata commit(MetadataChange change);

  /**
   * Commits {@code change} only if the log is still at {@code expectedEpoch}, the snapshot
   * the change was computed from; otherwise throws {@link MetadataConflictException} having
   * appended nothing. On one node commits are serialised by their caller, so the default
   * needs no check; the ring's log checks it against the replicated order.
   */
  default ClusterMetadata commit(MetadataChange change, long expectedEpoch) {
    return commit(change);
  }

  /**
   * Tells {@code listener} of each entry applied from now on, with the snapshot after it
   * (on the ring: also entries committed by other nodes).
   */
  void listen(BiConsumer<MetadataEntry, ClusterMetadata> listener);
}
