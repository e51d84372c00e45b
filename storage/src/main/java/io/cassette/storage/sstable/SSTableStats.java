package io.cassette.storage.sstable;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.commitlog.CommitLogPosition;

/**
 * What an SSTable holds, used to skip it on reads and to decide compactions and purges.
 * Timestamps in µs; local deletion times in seconds ({@code Long.MAX_VALUE} when none).
 */
public record SSTableStats(long partitionCount, long minTimestamp, long maxTimestamp,
                           long minLocalDeletionTime, long maxLocalDeletionTime, long tombstoneCount,
                           DecoratedKey firstKey, DecoratedKey lastKey,
                           CommitLogPosition commitLogUpperBound, long dataLength, long indexLength,
                           long uncompressedLength) {}
