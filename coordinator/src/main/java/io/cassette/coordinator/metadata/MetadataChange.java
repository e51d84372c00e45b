package io.cassette.coordinator.metadata;

import java.util.List;

/**
 * The body of one metadata-log entry: keyspaces whose definition becomes the one given (new
 * or changed), and keyspaces removed. State, not operations: applying an entry twice gives
 * the same metadata, so a node catching up may replay safely.
 */
public record MetadataChange(List<KeyspaceDefinition> put, List<String> drop) {
  public MetadataChange {
    put = List.copyOf(put);
    drop = List.copyOf(drop);
  }

  public static MetadataChange put(KeyspaceDefinition keyspace) {
    return new MetadataChange(List.of(keyspace), List.of());
  }

  public static MetadataChange drop(String keyspace) {
    return new MetadataChange(List.of(), List.of(keyspace));
  }

  public boolean isEmpty() {
    return put.isEmpty() && drop.isEmpty();
  }
}
