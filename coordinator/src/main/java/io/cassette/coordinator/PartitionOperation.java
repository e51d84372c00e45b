package io.cassette.coordinator;

import io.cassette.storage.PartitionUpdate;
import java.util.List;

/**
 * A read-modify-write of one partition: a lightweight transaction (condition + updates) or a
 * counter increment. The coordinator runs it with the partition held (one node: a partition
 * lock; the ring: Paxos for compare-and-set, the counter leader for counters), so no other
 * operation on that partition interleaves between its reads and its writes.
 *
 * <p>REQUIRES: reads only through {@code current}; adds its writes to {@code writes} (none =
 * nothing applied, e.g. a condition that does not hold); writes may touch other partitions
 * only of derived tables (index entries). Called once per attempt; may be retried on the ring,
 * so it must have no side effects besides {@code writes} and its answer.
 *
 * @param <R> the answer (e.g. CQL's [applied] row)
 */
@FunctionalInterface
public interface PartitionOperation<R> {
  R run(PartitionReader current, List<PartitionUpdate> writes);
}
