package io.cassette.coordinator.ring;

import io.cassette.cluster.net.MessagingService;
import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.PartitionOperation;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
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
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The coordinator of a ring (replication factor 1, issue 15): each partition lives on the
 * owner of its token and any node coordinates a request by forwarding it there.
 * API placeholder: delegates to {@code local} until forwarding lands.
 */
public final class RingCoordinator implements Coordinator {
  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final LongFunction<CompletableFuture<?>> awaitEpoch;

  /**
   * @param local      this node's storage, where requests from peers (and for partitions this
   *                   node owns) are executed
   * @param messaging  the started internode messaging service
   * @param ring       the latest ring snapshot (members, tokens, liveness)
   * @param awaitEpoch completes when this node has applied the metadata log up to the given
   *                   epoch; called before acting on a message from a node that is ahead
   */
  public RingCoordinator(LocalCoordinator local, MessagingService messaging, Supplier<TokenRing> ring,
                         LongFunction<CompletableFuture<?>> awaitEpoch) {
    this.local = local;
    this.messaging = messaging;
    this.ring = ring;
    this.awaitEpoch = awaitEpoch;
  }

  /** Registers the verb handlers that execute peers' requests on {@code local}. */
  public void registerHandlers() {
  }

  @Override
  public MetadataLog metadata() {
    return local.metadata();
  }

  @Override
  public Optional<TableSpec> table(String keyspace, String name) {
    return local.table(keyspace, name);
  }

  @Override
  public PartitionView read(String keyspace, String table, byte[] partitionKey, ReadQuery query, Request request) {
    return local.read(keyspace, table, partitionKey, query, request);
  }

  @Override
  public Table.CloseableIterator<PartitionView> scan(String keyspace, String table, KeyRange range,
                                                     ReadQuery query, Request request) {
    return local.scan(keyspace, table, range, query, request);
  }

  @Override
  public void write(Mutation mutation, Request request) {
    local.write(mutation, request);
  }

  @Override
  public void batch(List<PartitionUpdate> updates, BatchType type, Request request) {
    local.batch(updates, type, request);
  }

  @Override
  public <R> R compareAndSet(String keyspace, String table, byte[] partitionKey,
                             PartitionOperation<R> operation, Request request) {
    return local.compareAndSet(keyspace, table, partitionKey, operation, request);
  }

  @Override
  public <R> R readModifyWrite(String keyspace, String table, byte[] partitionKey, boolean counter,
                               PartitionOperation<R> operation, Request request) {
    return local.readModifyWrite(keyspace, table, partitionKey, counter, operation, request);
  }

  @Override
  public void truncate(String keyspace, String table, Request request) {
    local.truncate(keyspace, table, request);
  }
}
