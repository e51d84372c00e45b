package io.cassette.coordinator.metadata;

import io.cassette.storage.TableSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable snapshot of the cluster metadata after the entries up to {@code epoch}: the
 * keyspaces with their replication and tables. (The ring adds members, tokens and node
 * states here.) Readers hold a snapshot and never lock.
 */
public record ClusterMetadata(long epoch, Map<String, KeyspaceDefinition> keyspaces) {
  /** Before the first entry. */
  public static final ClusterMetadata EMPTY = new ClusterMetadata(0, Map.of());

  public ClusterMetadata {
    keyspaces = Collections.unmodifiableMap(new LinkedHashMap<>(keyspaces));
  }

  public KeyspaceDefinition keyspace(String name) {
    return keyspaces.get(name);
  }

  public Optional<TableSpec> table(String keyspace, String name) {
    KeyspaceDefinition k = keyspaces.get(keyspace);
    return k == null ? Optional.empty() : k.table(name);
  }

  /** The snapshot after {@code entry}; REQUIRES: {@code entry.epoch() == epoch() + 1}. */
  public ClusterMetadata apply(MetadataEntry entry) {
    if (entry.epoch() != epoch + 1) {
      throw new IllegalStateException("metadata entry " + entry.epoch() + " applied at epoch " + epoch);
    }
    Map<String, KeyspaceDefinition> next = new LinkedHashMap<>(keyspaces);
    for (String name : entry.change().drop()) {
      next.remove(name);
    }
    for (KeyspaceDefinition k : entry.change().put()) {
      next.put(k.name(), k);
    }
    return new ClusterMetadata(entry.epoch(), next);
  }
}
