package io.cassette.coordinator.metadata;

/** One entry of the metadata log: a change and the epoch it was given (1, 2, 3, ...). */
public record MetadataEntry(long epoch, MetadataChange change) {}
