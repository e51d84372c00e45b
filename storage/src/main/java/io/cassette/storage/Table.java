package io.cassette.storage;

import java.util.Iterator;

/**
 * One table of the engine. Thread-safe; reads see every write acknowledged before they began.
 */
public interface Table {
  TableSpec spec();

  /** Same as {@code engine.apply(Mutation.of(update))}. */
  void apply(PartitionUpdate update);

  /** The live view of one partition; an empty view when there is nothing live. */
  PartitionView read(byte[] partitionKey, ReadQuery query);

  /**
   * One partition within {@code query} with its tombstones, unfiltered: partition deletion,
   * range tombstones, row deletions, tombstone and expired cells (see
   * {@link io.cassette.storage.partition.PartitionReader#readUnfiltered}). What a replica answers
   * a coordinator with, so that a deletion one replica missed still wins the merge.
   */
  PartitionUpdate readUnfiltered(byte[] partitionKey, ReadQuery query);

  /**
   * Live partitions of {@code range} in token order, each filtered by {@code query}; empty
   * partitions are skipped. The iterator reads lazily and must be closed.
   */
  CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query);

  /**
   * Partitions of {@code range} in token order, unfiltered as {@link #readUnfiltered} reads
   * one; partitions with nothing at all (no data, no tombstone) are skipped. Must be closed.
   */
  CloseableIterator<PartitionUpdate> scanUnfiltered(KeyRange range, ReadQuery query);

  /**
   * Repair's validation: the content digest ({@link io.cassette.storage.partition.PartitionDigest})
   * of every partition with {@code startTokenExclusive < token <= endToken}, in token order, as
   * the partition is at {@code nowInSeconds} (tombstones older than gc_grace_seconds dropped,
   * expired cells as tombstones); partitions with nothing left are skipped. Replicas holding
   * the same data give the same digests, whatever their SSTables. Digests stored with the
   * SSTables are used where they can be (see {@code DigestScan}). Must be closed.
   */
  default CloseableIterator<TokenDigest> digests(long startTokenExclusive, long endToken, long nowInSeconds) {
    return DigestScan.computed(this, startTokenExclusive, endToken, nowInSeconds);
  }

  /** Writes the memtable to an SSTable and waits for it. */
  void flush();

  /** Compacts all SSTables into one (nodetool compact) and waits for it. */
  void compact();

  /**
   * nodetool cleanup: flushes, then rewrites the table's SSTables without the partitions whose
   * token {@code keepToken} refuses (ranges this node no longer replicates after a ring change).
   */
  default void cleanup(java.util.function.LongPredicate keepToken) {
    throw new UnsupportedOperationException("cleanup");
  }

  /**
   * A sink that writes streamed partitions straight into new SSTables of this table, made live
   * together on {@link SSTableSink#commit} (streaming: bootstrap, replace).
   */
  default SSTableSink sink() {
    throw new UnsupportedOperationException("sink");
  }

  /** Removes all data (CQL TRUNCATE); durable when this returns. */
  void truncate();

  /** Hard-links the table's current SSTables under {@code snapshots/<tag>/}. */
  void snapshot(String tag);

  TableMetrics metrics();

  /** Its storage-attached indexes (SAI), or null where storage keeps none (not a local table). */
  default io.cassette.storage.index.TableIndexes indexes() {
    return null;
  }

  /** An iterator over files that holds resources until closed. */
  interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();
  }
}
