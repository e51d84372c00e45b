package io.cassette.metadata;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster's metadata as one ordered, epoch-numbered log of {@link Transformation}s, and
 * this node's view of it. Implemented by {@link MetadataService} (replicated with Raft) and
 * {@link LocalMetadataLog} (one process, for tests and single nodes without Raft).
 */
public interface MetadataLog {
    /** The newest snapshot this node has applied. Never blocks; works without a quorum. */
    ClusterMetadata current();

    /**
     * Orders {@code t} after every earlier entry and applies it. Completes with the
     * snapshot at the entry's epoch (or a later one) once this node has applied it, or
     * exceptionally with {@link MetadataRejectedException} (did not apply to the state it met,
     * with the reason) or {@link MetadataUnavailableException} (no quorum or no answer within
     * the commit timeout: "metadata service unavailable: no quorum (1 of 3 members reachable)";
     * or, rarely, committed but not yet applied on this node within the timeout).
     */
    CompletableFuture<ClusterMetadata> commit(Transformation t);

    /**
     * Completes once this node has applied {@code epoch} (at once if it has), fetching
     * missing entries if it follows the log from outside the metadata service; completes
     * exceptionally with a {@link java.util.concurrent.TimeoutException} after {@code timeout}.
     * A node that receives a message stamped with a newer epoch calls this before acting.
     */
    CompletableFuture<ClusterMetadata> awaitEpoch(Epoch epoch, Duration timeout);

    /** Adds a listener told of every later epoch, in order (see {@link MetadataListener}). */
    void addListener(MetadataListener listener);

    void removeListener(MetadataListener listener);
}
