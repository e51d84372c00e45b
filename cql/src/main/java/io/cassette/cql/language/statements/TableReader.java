package io.cassette.cql.language.statements;

import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;

/**
 * What SELECT and read-before-write read from: a stored table through the coordinator
 * ({@link CoordinatedTable}, bound to one request's consistency) or a virtual table computed
 * in memory. The storage reading contract: empty views for missing partitions, token order.
 */
public interface TableReader {
  PartitionView read(byte[] partitionKey, ReadQuery query);

  /** Live partitions of {@code range} in token order; the iterator must be closed. */
  Table.CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query);

  /**
   * Live partitions of {@code range} holding rows the replicas' storage-attached indexes find
   * ({@link io.cassette.coordinator.Coordinator#indexScan}); the iterator must be closed.
   */
  default Table.CloseableIterator<PartitionView> indexScan(KeyRange range, ReadQuery query,
                                                           io.cassette.storage.index.IndexQuery index) {
    throw new UnsupportedOperationException("no storage-attached indexes here");
  }
}
