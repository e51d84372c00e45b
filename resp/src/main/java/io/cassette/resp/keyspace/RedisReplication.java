package io.cassette.resp.keyspace;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.coordinator.metadata.MetadataConflictException;
import io.cassette.coordinator.replication.ReplicationStrategy;
import java.util.List;
import java.util.Map;

/**
 * The {@code redis} keyspace's replication as the operator asks for it
 * ({@code resp_replication_factor}): SimpleStrategy with that factor, committed to the
 * metadata log so every node places and reads Redis keys alike. The first node to open its
 * Redis door creates the keyspace with it; a node opening with a different factor than the
 * log's replaces the log's, as {@code ALTER KEYSPACE redis WITH replication = ...} would
 * (tables kept). As in Cassandra nothing is streamed: new replicas get the existing keys by
 * {@code nodetool repair redis}, which the log line names.
 *
 * <p>Not a CQL statement: the keyspace has no CQL definition (its tables are Redis's binary
 * layout, not CQL tables), so drivers, DESCRIBE and migrate never see it; a CQL path would have
 * to show them a keyspace whose tables they cannot describe.
 */
public final class RedisReplication {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RedisReplication.class);

  private RedisReplication() {}

  /** The replication map of factor {@code rf}: {@code {class: SimpleStrategy, replication_factor: rf}}. */
  public static Map<String, String> simple(int rf) {
    if (rf < 1) {
      throw new IllegalArgumentException("replication factor " + rf + " (expected 1 or more, such as 3)");
    }
    return Map.of("class", "SimpleStrategy", "replication_factor", Integer.toString(rf));
  }

  /** The factor of {@code replication}, 1 for a keyspace not created yet. */
  static int factorOf(KeyspaceDefinition ks) {
    return ks == null ? 1 : ReplicationStrategy.of(ks.replication()).replicationFactor();
  }

  /**
   * Makes the {@code redis} keyspace's replication {@link #simple}({@code rf}) in the metadata
   * log: creates the keyspace (no tables yet; {@link RedisTable#open} adds them) or replaces its
   * replication, committed against the snapshot it read and computed again when another node
   * changed the metadata meanwhile. Returns once this node applied it; no change when the log
   * already has it.
   *
   * @return the factor the log had before (1 when there was no keyspace)
   */
  public static int apply(Coordinator coordinator, int rf) {
    Map<String, String> wanted = simple(rf);
    synchronized (RedisTable.class) { // one metadata change of the Redis door at a time here
      for (int attempt = 1; ; attempt++) {
        ClusterMetadata current = coordinator.metadata().current();
        KeyspaceDefinition ks = current.keyspace(RedisLayout.KEYSPACE);
        int before = factorOf(ks);
        if (ks != null && before == rf && ks.replication().getOrDefault("class", "").endsWith("SimpleStrategy")) {
          return before;
        }
        List<io.cassette.storage.TableSpec> tables = ks == null ? List.of() : ks.tables();
        try {
          coordinator.metadata().commit(MetadataChange.put(
              new KeyspaceDefinition(RedisLayout.KEYSPACE, wanted, tables, null)), current.epoch());
        } catch (MetadataConflictException e) {
          if (attempt >= RedisTable.CREATE_ATTEMPTS) {
            throw e;
          }
          continue; // another node changed the metadata first: look again at the newer snapshot
        }
        if (ks == null) {
          LOG.info("Redis keyspace '{}' created with replication factor {} (resp_replication_factor)",
              RedisLayout.KEYSPACE, rf);
        } else {
          LOG.warn("Redis keyspace '{}': replication {} changed to {} (resp_replication_factor of this node; set the "
              + "same value on every node). {}", RedisLayout.KEYSPACE, ks.replication(), wanted,
              rf > before ? "Run 'nodetool repair " + RedisLayout.KEYSPACE + "' on each node so the new replicas "
                  + "get the keys written before." : "Run 'nodetool cleanup' to drop keys this node no longer holds.");
        }
        return before;
      }
    }
  }
}
