package io.cassette.coordinator;

import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;

/**
 * Reads the one partition a {@link PartitionOperation} holds, as it is while the operation
 * runs (no other read-modify-write of that partition interleaves).
 */
@FunctionalInterface
public interface PartitionReader {
  PartitionView read(ReadQuery query);
}
