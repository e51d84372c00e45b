package io.cassette.storage;

/** Deletes every row whose clustering falls in {@code slice}, written at or before it. */
public record RangeTombstone(Slice slice, DeletionTime deletion) {}
