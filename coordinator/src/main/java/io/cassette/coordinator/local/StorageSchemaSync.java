package io.cassette.coordinator.local;

import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.storage.Engine;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the engine's tables match the metadata: applied to each metadata-log entry (before
 * it is appended, so storage can refuse an option) and once at start with the whole replayed
 * snapshot. Tables are identified by id: a table dropped and re-created under the same name
 * is a new table with a new id.
 */
final class StorageSchemaSync implements BiConsumer<ClusterMetadata, ClusterMetadata> {
  private static final Logger LOG = LoggerFactory.getLogger(StorageSchemaSync.class);
  private final Engine engine;

  StorageSchemaSync(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void accept(ClusterMetadata before, ClusterMetadata after) {
    Map<UUID, TableSpec> old = specs(before);
    Map<UUID, TableSpec> neu = specs(after);
    for (TableSpec t : old.values()) {
      if (!neu.containsKey(t.id()) && engine.table(t.keyspace(), t.name()).isPresent()) {
        engine.dropTable(t.keyspace(), t.name());
      }
    }
    for (TableSpec t : neu.values()) {
      Optional<Table> existing = engine.table(t.keyspace(), t.name());
      if (existing.isEmpty()) {
        engine.createTable(t);
      } else if (!existing.get().spec().id().equals(t.id())) {
        // Only at start: storage kept a table the log no longer has (a crash between a
        // change to storage and its entry). The log is the truth.
        LOG.warn("Table {}.{} has id {} in storage but {} in the metadata log (epoch {}); replacing it",
            t.keyspace(), t.name(), existing.get().spec().id(), t.id(), after.epoch());
        engine.dropTable(t.keyspace(), t.name());
        engine.createTable(t);
      } else if (!existing.get().spec().equals(t)) {
        engine.alterTable(t);
      }
    }
  }

  private static Map<UUID, TableSpec> specs(ClusterMetadata m) {
    Map<UUID, TableSpec> out = new HashMap<>();
    for (KeyspaceDefinition k : m.keyspaces().values()) {
      for (TableSpec t : k.tables()) {
        out.put(t.id(), t);
      }
    }
    return out;
  }
}
