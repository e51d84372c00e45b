package io.cassette.coordinator.local;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped locks that serialise read-modify-write on one partition (lightweight transactions,
 * counters, list index updates) on this node: the single-node stand-in for Paxos and the
 * counter leader. Ordinary writes do not take them.
 */
final class PartitionLocks {
  /** Enough stripes that unrelated partitions rarely contend; a fixed memory cost. */
  private static final int STRIPES = 1024;
  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  PartitionLocks() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  ReentrantLock lockFor(String keyspace, String table, byte[] key) {
    int h = (keyspace.hashCode() * 31 + table.hashCode()) * 31 + Arrays.hashCode(key);
    return locks[Math.floorMod(h ^ (h >>> 16), STRIPES)];
  }
}
