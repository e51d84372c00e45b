package io.cassette.coordinator.ring.repair;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.storage.Table;
import io.cassette.storage.TokenDigest;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds this replica's {@link MerkleTree} of one range of one table (Cassandra's validation
 * compaction, without the compaction): adds each partition's content digest, in token order,
 * as storage gives them ({@link Table#digests}: read from the SSTables' Digest.db where a
 * partition lives in one SSTable and has no deletion or TTL, else computed from the partition
 * as it is at the request's time). Memory: the tree and storage's per-SSTable block.
 */
final class Validator {
  private static final Logger LOG = LoggerFactory.getLogger(Validator.class);

  private final LocalCoordinator local;

  Validator(LocalCoordinator local) {
    this.local = local;
  }

  MerkleTree validate(RepairMessages.ValidationRequest r) {
    long started = System.nanoTime();
    MerkleTree tree = new MerkleTree(r.range(), r.depth());
    long stored = 0;
    long computed = 0;
    try (Table.CloseableIterator<TokenDigest> it = local.digests(r.keyspace(), r.table(), r.range().start(),
        r.range().end(), r.nowInSeconds())) {
      while (it.hasNext()) {
        TokenDigest d = it.next();
        tree.add(d.token(), d.high(), d.low());
        if (d.stored()) {
          stored++;
        } else {
          computed++;
        }
      }
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("validated {}.{} {}: {} partitions ({} stored digests, {} computed) in {} ms", r.keyspace(), r.table(),
          r.range(), stored + computed, stored, computed, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }
    return tree;
  }
}
