package io.cassette.coordinator;

import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.util.List;
import java.util.Optional;

/**
 * The one way the query layers (CQL, Redis) reach data and schema. Each call names its
 * keyspace and table, carries a {@link Request} (consistency, timeout, client), finds the
 * replicas of the partition's token, checks that enough of them are alive for the level
 * (else {@link CoordinatorException.Unavailable}, having done nothing) and then reads or
 * writes them. On one node ({@link io.cassette.coordinator.local.LocalCoordinator}) that is a
 * local call to the storage engine; the ring replaces the implementation, not its callers.
 *
 * <p>Values are storage's ({@link Mutation}, {@link PartitionUpdate}, {@link ReadQuery},
 * {@link PartitionView}, {@link KeyRange}): the coordinator moves partitions, it does not
 * interpret CQL or Redis. Thread-safe.
 *
 * <p>Errors: {@link CoordinatorException} for refusals (unavailable, invalid level, unknown
 * table); {@link io.cassette.storage.StorageException} when a replica's storage failed.
 */
public interface Coordinator {

  // ------------------------------------------------------------------ schema

  /** The metadata log: the schema as epoch-numbered entries; schema changes are committed there. */
  MetadataLog metadata();

  /** The storage options of a table, or empty when it does not exist (also node-local tables). */
  Optional<TableSpec> table(String keyspace, String name);

  /**
   * Whether this node holds the partition (on the ring: owns its token), so node-local
   * background work (Redis's active expiry) can keep to its own partitions. One node: always.
   */
  default boolean ownsLocally(String keyspace, byte[] partitionKey) {
    return true;
  }

  /**
   * Whether every write of the data this node reads passes through this coordinator object, so
   * a front door may cache what it read and wrote (Redis's metadata caches). One node: yes. On
   * a ring other nodes own most partitions and peers write this node's, so: no.
   */
  default boolean seesAllWrites() {
    return true;
  }

  /**
   * This node's storage table when it holds every partition of it (one node), so a front door
   * may use what storage keeps beside the data (storage-attached indexes). On the ring: empty.
   */
  default Optional<Table> localTable(String keyspace, String name) {
    return Optional.empty();
  }

  /**
   * This node's storage table, holding every partition (one node) or this node's share (ring):
   * for what storage keeps beside the data, such as the definitions of storage-attached
   * indexes. Not for answering queries (see {@link #localTable}).
   */
  default Optional<Table> storedTable(String keyspace, String name) {
    return localTable(keyspace, name);
  }

  /**
   * Whether {@link #indexScan} asks each range's replicas (the ring) rather than this node's
   * storage, so a front door that reads its local indexes itself knows to send the query out.
   */
  default boolean indexScansOnReplicas() {
    return false;
  }

  /**
   * The base tables with materialized views and how their view updates are computed: the
   * front door that defines views sets it on every schema change; the base replicas' write
   * path uses it.
   */
  io.cassette.coordinator.view.ViewRegistry views();

  // ------------------------------------------------------------------ data

  /** One partition, filtered by {@code query}; an empty view when nothing is live. */
  PartitionView read(String keyspace, String table, byte[] partitionKey, ReadQuery query, Request request);

  /**
   * As {@link #read}, but the caller's thread need not wait for the replicas: the future
   * completes (on whatever thread brought the last needed answer, possibly an event loop:
   * dependants must not block) with the view, or fails with the exception {@link #read} would
   * throw. This default reads now and returns a completed future; the ring answers from its
   * messaging callbacks.
   */
  default java.util.concurrent.CompletableFuture<PartitionView> readAsync(String keyspace, String table,
                                                                          byte[] partitionKey, ReadQuery query,
                                                                          Request request) {
    try {
      return java.util.concurrent.CompletableFuture.completedFuture(read(keyspace, table, partitionKey, query, request));
    } catch (RuntimeException e) {
      return java.util.concurrent.CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Live partitions of {@code range} in token order, each filtered by {@code query}. Lazy: the
   * caller pages by stopping early and resuming with {@code KeyRange(lastKey, end)}; it must
   * close the iterator.
   */
  Table.CloseableIterator<PartitionView> scan(String keyspace, String table, KeyRange range,
                                              ReadQuery query, Request request);

  /**
   * A range read with an index query (Cassandra 5.0's SAI range read): the live partitions of
   * {@code range} in token order that hold rows the replicas' storage-attached indexes find,
   * each filtered by {@code query} narrowed to those rows; for a nearest-neighbour query each
   * replica's top {@code index.limit()} rows of its range. Candidates: the caller re-checks
   * every row (and re-ranks ANN rows). Pages as {@link #scan}; the iterator must be closed.
   * This default answers from this node's storage when it holds the table.
   */
  default Table.CloseableIterator<PartitionView> indexScan(String keyspace, String table, KeyRange range,
                                                           ReadQuery query, io.cassette.storage.index.IndexQuery index,
                                                           Request request) {
    Table t = localTable(keyspace, table).orElseThrow(() -> new CoordinatorException.UnknownTable(keyspace, table));
    return io.cassette.storage.index.IndexedScan.live(t, range, query, index);
  }

  /** Applies a mutation: each partition atomically, and on one node all of it as one record. */
  void write(Mutation mutation, Request request);

  /**
   * As {@link #write}, but the caller's thread need not wait for the replicas: the future
   * completes (on whatever thread brought the last needed answer) when the write is
   * acknowledged at the level, or fails with the exception {@link #write} would throw. This
   * default writes now and returns a completed future; the ring answers from its messaging
   * callbacks.
   */
  default java.util.concurrent.CompletableFuture<Void> writeAsync(Mutation mutation, Request request) {
    try {
      write(mutation, request);
      return java.util.concurrent.CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return java.util.concurrent.CompletableFuture.failedFuture(e);
    }
  }

  /** Applies a CQL batch (updates of one partition already merged) as {@code type} says. */
  void batch(List<PartitionUpdate> updates, BatchType type, Request request);

  /**
   * A lightweight transaction on one partition: {@code operation} reads the current state,
   * checks its condition and adds its writes; the check and the writes are atomic with respect
   * to every other compare-and-set and counter write of the partition. Needs
   * {@code request.serialConsistency()} for the Paxos round and {@code request.consistency()}
   * for the commit.
   */
  <R> R compareAndSet(String keyspace, String table, byte[] partitionKey,
                      PartitionOperation<R> operation, Request request);

  /**
   * A read-modify-write that is not a transaction: counter increments and CQL's list-by-index
   * updates, serialised per partition like {@link #compareAndSet} but at the ordinary level.
   *
   * @param counter true for counter tables (ANY is refused there, as Cassandra does)
   */
  <R> R readModifyWrite(String keyspace, String table, byte[] partitionKey, boolean counter,
                        PartitionOperation<R> operation, Request request);

  /** Removes all data of a table on every replica (CQL TRUNCATE, Redis FLUSHDB). */
  void truncate(String keyspace, String table, Request request);
}
