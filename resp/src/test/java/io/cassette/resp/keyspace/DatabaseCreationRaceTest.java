package io.cassette.resp.keyspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.LocalMetadataLog;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.coordinator.metadata.MetadataConflictException;
import io.cassette.coordinator.metadata.MetadataEntry;
import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.TableSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes creating Redis databases at once (SELECT 1 on one, SELECT 2 on another): the
 * second commit was computed from the snapshot before the first. As the ring's log does, the
 * log here refuses a change whose expected epoch is old; another node's change lands between
 * this node's read of the schema and its commit.
 */
class DatabaseCreationRaceTest {
  @TempDir
  Path dir;

  @Test
  void aDatabaseCreatedMeanwhileByAnotherNodeIsKept() {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      RacingLog[] log = new RacingLog[1];
      LocalCoordinator coordinator = LocalCoordinator.open(engine, null,
          sync -> log[0] = new RacingLog(LocalMetadataLog.open(engine, sync)));
      Keyspace keyspace = new Keyspace(coordinator, 0);
      log[0].rivalCreates(2); // another node's SELECT 2, from the same snapshot as ours
      keyspace.db(1).batch(); // our SELECT 1 ... SET

      KeyspaceDefinition redis = coordinator.metadata().current().keyspace(RedisLayout.KEYSPACE);
      assertThat(redis.tables()).extracting(TableSpec::name).containsExactlyInAnyOrder("db0", "db1", "db2");
      assertThat(log[0].conflicts).isEqualTo(1);
      assertThat(coordinator.table(RedisLayout.KEYSPACE, "db2")).isPresent();
    }
  }

  /** A log checking expected epochs (as the ring's does), with another node's commit injected once. */
  static final class RacingLog implements MetadataLog {
    private final MetadataLog inner;
    private int rivalDb = -1;
    int conflicts;

    RacingLog(MetadataLog inner) {
      this.inner = inner;
    }

    void rivalCreates(int db) {
      rivalDb = db;
    }

    @Override
    public ClusterMetadata current() {
      return inner.current();
    }

    @Override
    public ClusterMetadata commit(MetadataChange change) {
      rival();
      return inner.commit(change);
    }

    @Override
    public ClusterMetadata commit(MetadataChange change, long expectedEpoch) {
      rival();
      if (inner.current().epoch() != expectedEpoch) {
        conflicts++;
        throw new MetadataConflictException("epoch " + inner.current().epoch() + ", expected " + expectedEpoch);
      }
      return inner.commit(change);
    }

    /** The other node's database, computed from the snapshot both nodes read. */
    private void rival() {
      if (rivalDb < 0) {
        return;
      }
      int db = rivalDb;
      rivalDb = -1;
      KeyspaceDefinition ks = inner.current().keyspace(RedisLayout.KEYSPACE);
      List<TableSpec> tables = new ArrayList<>(ks.tables());
      tables.add(TableSpec.withDefaults(RedisLayout.KEYSPACE, RedisLayout.tableName(db), RedisLayout.tableId(db)));
      inner.commit(MetadataChange.put(new KeyspaceDefinition(RedisLayout.KEYSPACE, ks.replication(), tables, null)));
    }

    @Override
    public void listen(BiConsumer<MetadataEntry, ClusterMetadata> listener) {
      inner.listen(listener);
    }
  }
}
