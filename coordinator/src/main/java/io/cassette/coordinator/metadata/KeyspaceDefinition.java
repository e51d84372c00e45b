package io.cassette.coordinator.metadata;

import io.cassette.storage.TableSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One keyspace as the cluster metadata holds it: its replication map, the storage tables it
 * has (including derived ones such as index tables), and the front door's own description
 * of it. Immutable.
 *
 * @param name        the keyspace name
 * @param replication Cassandra's map, e.g. {@code {class: SimpleStrategy, replication_factor: 3}}
 * @param tables      the storage tables of the keyspace
 * @param definition  opaque to the coordinator: what the front door that owns the keyspace
 *                    needs to rebuild its view (CQL: its DDL statements); null when none does
 *                    (the Redis keyspace)
 */
public record KeyspaceDefinition(String name, Map<String, String> replication, List<TableSpec> tables,
                                 byte[] definition) {
  public KeyspaceDefinition {
    replication = Map.copyOf(replication);
    tables = List.copyOf(tables);
    definition = definition == null ? null : definition.clone();
  }

  public Optional<TableSpec> table(String tableName) {
    for (TableSpec t : tables) {
      if (t.name().equals(tableName)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  @Override
  public byte[] definition() {
    return definition == null ? null : definition.clone();
  }

  /** Whether {@code other} describes the same front-door definition (byte equality). */
  public boolean sameDefinition(byte[] other) {
    return Arrays.equals(definition, other);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyspaceDefinition k && k.name.equals(name) && k.replication.equals(replication)
        && k.tables.equals(tables) && Arrays.equals(k.definition, definition);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + Arrays.hashCode(definition);
  }
}
