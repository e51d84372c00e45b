package io.cassette.cql.language.schema;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One immutable snapshot of the whole schema, numbered by {@code epoch}; {@code version} is
 * the schema_version UUID reported in system.local. Readers hold one snapshot for a whole
 * statement; changes produce a new snapshot.
 */
public record Schema(long epoch, UUID version, Map<String, KeyspaceMetadata> keyspaces) {
  public Schema {
    keyspaces = Collections.unmodifiableMap(new TreeMap<>(keyspaces));
  }

  public KeyspaceMetadata keyspace(String name) {
    return keyspaces.get(name);
  }

  public TableMetadata table(String keyspace, String table) {
    KeyspaceMetadata ks = keyspaces.get(keyspace);
    return ks == null ? null : ks.tables().get(table);
  }
}
