package io.cassette.resp.keyspace;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
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
 * Redis front door goes through here at consistency ONE (Redis has no levels).
 */
final class RedisTable {
  /** Redis commands read and write one replica, as a Redis primary does. */
  static final Request REQUEST = Request.of(ConsistencyLevel.ONE);

  private final Coordinator coordinator;
  private final String name;

  private RedisTable(Coordinator coordinator, String name) {
    this.coordinator = coordinator;
    this.name = name;
  }

  /**
   * The table of database {@code db}, added to the {@code redis} keyspace of the metadata log
   * when the log does not have it yet (first use, or a data directory from before the log).
   */
  static RedisTable open(Coordinator coordinator, int db) {
    TableSpec defaults = TableSpec.withDefaults(RedisLayout.KEYSPACE, RedisLayout.tableName(db),
        RedisLayout.tableId(db));
    TableSpec spec = new TableSpec(defaults.keyspace(), defaults.name(), defaults.id(),
        defaults.compression(), defaults.compaction(), RedisLayout.GC_GRACE_SECONDS,
        defaults.bloomFilterFpChance(), 0);
    synchronized (RedisTable.class) {
      KeyspaceDefinition ks = coordinator.metadata().current().keyspace(RedisLayout.KEYSPACE);
      if (ks == null || ks.table(spec.name()).isEmpty()) {
        List<TableSpec> tables = new ArrayList<>(ks == null ? List.of() : ks.tables());
        tables.add(spec);
        Map<String, String> replication = ks == null ? RedisLayout.REPLICATION : ks.replication();
        coordinator.metadata().commit(MetadataChange.put(
            new KeyspaceDefinition(RedisLayout.KEYSPACE, replication, tables, null)));
      }
    }
    return new RedisTable(coordinator, spec.name());
  }

  /** Whether database {@code db} has a table already (so it may hold keys). */
  static boolean exists(Coordinator coordinator, int db) {
    return coordinator.table(RedisLayout.KEYSPACE, RedisLayout.tableName(db)).isPresent();
  }

  String name() {
    return name;
  }

  PartitionView read(byte[] partitionKey, ReadQuery query) {
    return coordinator.read(RedisLayout.KEYSPACE, name, partitionKey, query, REQUEST);
  }

  Table.CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
    return coordinator.scan(RedisLayout.KEYSPACE, name, range, query, REQUEST);
  }

  void write(Mutation mutation) {
    coordinator.write(mutation, REQUEST);
  }

  /** Whether this node holds {@code partitionKey} (always on one node; its owner on a ring). */
  boolean ownsLocally(byte[] partitionKey) {
    return coordinator.ownsLocally(RedisLayout.KEYSPACE, partitionKey);
  }

  /** Whether only this node writes the keys (one node), so counts and caches kept here stay true. */
  boolean seesAllWrites() {
    return coordinator.seesAllWrites();
  }

  void truncate() {
    coordinator.truncate(RedisLayout.KEYSPACE, name, REQUEST);
  }
}
