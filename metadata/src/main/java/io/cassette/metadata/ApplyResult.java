package io.cassette.metadata;

/** What applying one {@link Transformation} did: a new snapshot, or a reason it did not apply. */
public sealed interface ApplyResult {
    /** Applied: {@code metadata} is at the next epoch. */
    record Applied(ClusterMetadata metadata) implements ApplyResult {}

    /** Not applied (the epoch does not advance); {@code reason} is meant for the operator. */
    record Rejected(String reason) implements ApplyResult {}
}
