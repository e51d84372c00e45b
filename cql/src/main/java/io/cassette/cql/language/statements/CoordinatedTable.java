package io.cassette.cql.language.statements;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;

/** A stored table read through the coordinator at one request's consistency level. */
final class CoordinatedTable implements TableReader {
  private final Coordinator coordinator;
  private final String keyspace;
  private final String table;
  private final Request request;
  /** Non-null: reads are answered from there, without waiting ({@link PrefetchedReads}). */
  private final PrefetchedReads prefetched;

  CoordinatedTable(Coordinator coordinator, String keyspace, String table, Request request) {
    this(coordinator, keyspace, table, request, null);
  }

  CoordinatedTable(Coordinator coordinator, String keyspace, String table, Request request,
                   PrefetchedReads prefetched) {
    this.coordinator = coordinator;
    this.keyspace = keyspace;
    this.table = table;
    this.request = request;
    this.prefetched = prefetched;
  }

  @Override
  public PartitionView read(byte[] partitionKey, ReadQuery query) {
    if (prefetched != null) {
      return prefetched.read(coordinator, keyspace, table, partitionKey, query, request);
    }
    return coordinator.read(keyspace, table, partitionKey, query, request);
  }

  @Override
  public Table.CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
    return coordinator.scan(keyspace, table, range, query, request);
  }

  @Override
  public Table.CloseableIterator<PartitionView> indexScan(KeyRange range, ReadQuery query,
                                                          io.cassette.storage.index.IndexQuery index) {
    return coordinator.indexScan(keyspace, table, range, query, index, request);
  }
}
