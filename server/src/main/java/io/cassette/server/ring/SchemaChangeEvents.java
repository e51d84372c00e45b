package io.cassette.server.ring;

import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.cql.Result;
import io.cassette.storage.TableSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The SCHEMA_CHANGE events a schema entry committed by another node means for this node's
 * CQL clients, from the snapshots before and after it: keyspaces created or dropped, tables
 * created or dropped, and otherwise the keyspace updated (drivers then refresh it whole).
 * Keyspaces without a CQL definition (Redis) have no events.
 */
final class SchemaChangeEvents {
  private SchemaChangeEvents() {}

  static List<Result.SchemaChange> between(ClusterMetadata before, ClusterMetadata after) {
    List<Result.SchemaChange> out = new ArrayList<>();
    Set<String> names = new TreeSet<>(before.keyspaces().keySet());
    names.addAll(after.keyspaces().keySet());
    for (String ks : names) {
      KeyspaceDefinition old = before.keyspace(ks);
      KeyspaceDefinition neu = after.keyspace(ks);
      if ((old == null || old.definition() == null) && (neu == null || neu.definition() == null)) {
        continue;
      }
      if (old == null) {
        out.add(event("CREATED", "KEYSPACE", ks, null));
        for (TableSpec t : neu.tables()) {
          out.add(event("CREATED", "TABLE", ks, t.name()));
        }
      } else if (neu == null) {
        out.add(event("DROPPED", "KEYSPACE", ks, null));
      } else if (!old.equals(neu)) {
        boolean tablesChanged = false;
        Map<String, TableSpec> oldTables = byName(old);
        Map<String, TableSpec> newTables = byName(neu);
        for (String t : newTables.keySet()) {
          if (!oldTables.containsKey(t)) {
            out.add(event("CREATED", "TABLE", ks, t));
            tablesChanged = true;
          }
        }
        for (String t : oldTables.keySet()) {
          if (!newTables.containsKey(t)) {
            out.add(event("DROPPED", "TABLE", ks, t));
            tablesChanged = true;
          }
        }
        if (!tablesChanged || !old.replication().equals(neu.replication())
            || !Arrays.equals(old.definition(), neu.definition()) && !tablesChanged) {
          out.add(event("UPDATED", "KEYSPACE", ks, null));
        }
      }
    }
    return out;
  }

  private static Map<String, TableSpec> byName(KeyspaceDefinition k) {
    Map<String, TableSpec> m = new java.util.TreeMap<>();
    for (TableSpec t : k.tables()) {
      m.put(t.name(), t);
    }
    return m;
  }

  private static Result.SchemaChange event(String change, String target, String ks, String name) {
    return new Result.SchemaChange(change, target, ks, name, List.of());
  }
}
