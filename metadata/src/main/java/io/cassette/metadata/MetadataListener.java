package io.cassette.metadata;

/**
 * Told of each new epoch, in epoch order, on the single thread that applies the log: keep
 * it short (hand slow work to your own executor) and do not call {@code commit(..).join()}
 * from it, which would wait for the thread it runs on.
 */
@FunctionalInterface
public interface MetadataListener {
    /**
     * @param previous the snapshot before
     * @param next     the snapshot after; {@code next.epoch()} is {@code previous.epoch() + 1}
     *                 when {@code applied} is given
     * @param applied  the transformation that made {@code next}, or null when the node skipped
     *                 ahead by installing a snapshot (after a restart or a long absence): then
     *                 compare the two snapshots, e.g. {@code next.schema()} holds every schema
     *                 entry after {@code previous.schemaEpoch()}
     */
    void onEpoch(ClusterMetadata previous, ClusterMetadata next, Transformation applied);
}
