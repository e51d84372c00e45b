package io.cassette.coordinator.ring.repair;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;

/**
 * Builds this replica's {@link MerkleTree} of one range of one table (Cassandra's validation
 * compaction, without the compaction): scans the range unfiltered, in token order, and adds
 * each partition's {@link PartitionHash}. Memory: the tree, one partition and its bytes.
 */
final class Validator {
  private static final Request ONE = Request.of(ConsistencyLevel.ONE);

  private final LocalCoordinator local;

  Validator(LocalCoordinator local) {
    this.local = local;
  }

  MerkleTree validate(RepairMessages.ValidationRequest r) {
    MerkleTree tree = new MerkleTree(r.range(), r.depth());
    PartitionHash hash = new PartitionHash();
    try (Table.CloseableIterator<PartitionUpdate> it = local.scanUnfiltered(r.keyspace(), r.table(),
        KeyRange.tokens(r.range().start(), r.range().end()), ReadQuery.all(r.nowInSeconds()), ONE)) {
      while (it.hasNext()) {
        PartitionUpdate u = it.next();
        long[] h = hash.hash(u);
        tree.add(Murmur3Token.of(u.key()), h[0], h[1]);
      }
    }
    return tree;
  }
}
