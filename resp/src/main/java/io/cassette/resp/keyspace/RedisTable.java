package io.cassette.resp.keyspace;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.MetadataConflictException;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One Redis database's table as the coordinator serves it: every read, scan and write of the
 * Redis front door goes through here at one consistency level, {@code resp_consistency}
 * (Redis has no levels; see {@link #DEFAULT_CONSISTENCY}).
 */
final class RedisTable {
  /**
   * QUORUM: with replication factor 1 (the Redis keyspace's default) it is one replica, as
   * ONE; once the keyspace has more replicas, the node executing a key's commands writes and
   * reads a majority, so when execution moves to the next live replica (its owner went DOWN)
   * that node still reads every acknowledged write.
   */
  static final ConsistencyLevel DEFAULT_CONSISTENCY = ConsistencyLevel.QUORUM;
  /** Tries at creating a database's table when other nodes change the schema meanwhile. */
  static final int CREATE_ATTEMPTS = 20;

  private final Coordinator coordinator;
  private final String name;
  private final Request request;
  private final WriteFence.Slot fence;

  private RedisTable(Coordinator coordinator, String name, Request request, WriteFence.Slot fence) {
    this.coordinator = coordinator;
    this.name = name;
    this.request = request;
    this.fence = fence;
  }

  /**
   * The table of database {@code db}, added to the {@code redis} keyspace of the metadata log
   * when the log does not have it yet (first use, or a data directory from before the log).
   * Two nodes may create databases at once: each change is committed against the snapshot it
   * was computed from ({@code commit(change, epoch)}), so a concurrent one is refused and
   * computed again from the newer snapshot instead of replacing the other node's table; the
   * table's id is derived from its name, so both nodes create the very same table.
   */
  static RedisTable open(Coordinator coordinator, int db, Request request, WriteFence.Slot fence) {
    TableSpec defaults = TableSpec.withDefaults(RedisLayout.KEYSPACE, RedisLayout.tableName(db),
        RedisLayout.tableId(db));
    TableSpec spec = new TableSpec(defaults.keyspace(), defaults.name(), defaults.id(),
        defaults.compression(), defaults.compaction(), RedisLayout.GC_GRACE_SECONDS,
        defaults.bloomFilterFpChance(), 0);
    synchronized (RedisTable.class) {
      for (int attempt = 1; ; attempt++) {
        ClusterMetadata current = coordinator.metadata().current();
        KeyspaceDefinition ks = current.keyspace(RedisLayout.KEYSPACE);
        if (ks != null && ks.table(spec.name()).isPresent()) {
          break;
        }
        List<TableSpec> tables = new ArrayList<>(ks == null ? List.of() : ks.tables());
        tables.add(spec);
        Map<String, String> replication = ks == null ? RedisLayout.REPLICATION : ks.replication();
        try {
          coordinator.metadata().commit(MetadataChange.put(
              new KeyspaceDefinition(RedisLayout.KEYSPACE, replication, tables, null)), current.epoch());
          break;
        } catch (MetadataConflictException e) {
          if (attempt >= CREATE_ATTEMPTS) {
            throw e;
          }
          // another node changed the schema first: look again at the newer snapshot
        }
      }
    }
    return new RedisTable(coordinator, spec.name(), request, fence);
  }

  /** Whether database {@code db} has a table already (so it may hold keys). */
  static boolean exists(Coordinator coordinator, int db) {
    return coordinator.table(RedisLayout.KEYSPACE, RedisLayout.tableName(db)).isPresent();
  }

  String name() {
    return name;
  }

  PartitionView read(byte[] partitionKey, ReadQuery query) {
    return coordinator.read(RedisLayout.KEYSPACE, name, partitionKey, query, request);
  }

  /**
   * A read at ONE: a partition this node holds is read here, without messages (the ring
   * prefers itself at ONE). For background probes only, never for a command's answer.
   */
  PartitionView readHere(byte[] partitionKey, ReadQuery query) {
    return coordinator.read(RedisLayout.KEYSPACE, name, partitionKey, query, HERE);
  }

  private static final Request HERE = Request.of(io.cassette.coordinator.ConsistencyLevel.ONE);

  Table.CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
    return coordinator.scan(RedisLayout.KEYSPACE, name, range, query, request);
  }

  /**
   * Writes at the door's level, with the executor's fence when it has one: a replica that
   * promised a newer epoch of the lease refuses it, and when too few accept, the client gets
   * {@link #FENCED} (the write may have reached a minority: indeterminate, as a timeout).
   */
  void write(Mutation mutation) {
    Request r = fence.apply(request);
    try {
      coordinator.write(mutation, r);
    } catch (io.cassette.coordinator.CoordinatorException.Failure e) {
      if (r.fence() != null && e.failures.containsValue(io.cassette.cluster.net.RequestFailureReason.FENCED.code)) {
        throw new io.cassette.resp.command.RedisException(FENCED);
      }
      throw e;
    }
  }

  /**
   * A fenced write refused by the key's replicas. TRYAGAIN is what Redis Cluster answers when a
   * request cannot run now but may later (its clients retry it); the text says it may have run.
   */
  static final String FENCED = "TRYAGAIN another node executes this key now (this node's lease on its replicas "
      + "was taken over); the command may or may not have been applied";

  /** Whether this node holds {@code partitionKey} (always on one node; its owner on a ring). */
  boolean ownsLocally(byte[] partitionKey) {
    return coordinator.ownsLocally(RedisLayout.KEYSPACE, partitionKey);
  }

  /** Whether only this node writes the keys (one node), so counts and caches kept here stay true. */
  boolean seesAllWrites() {
    return coordinator.seesAllWrites();
  }

  void truncate() {
    coordinator.truncate(RedisLayout.KEYSPACE, name, request);
  }
}
