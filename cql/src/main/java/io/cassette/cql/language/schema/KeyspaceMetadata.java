package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType.UdtType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** An immutable keyspace: replication, durable writes, tables and user types by name. */
public record KeyspaceMetadata(String name, Map<String, String> replication, boolean durableWrites,
                               Map<String, TableMetadata> tables, Map<String, UdtType> types,
                               boolean virtual) {
  public KeyspaceMetadata {
    replication = Collections.unmodifiableMap(new TreeMap<>(replication));
    tables = Collections.unmodifiableMap(new TreeMap<>(tables));
    types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
  }

  public KeyspaceMetadata withTable(TableMetadata t) {
    Map<String, TableMetadata> m = new TreeMap<>(tables);
    m.put(t.name, t);
    return new KeyspaceMetadata(name, replication, durableWrites, m, types, virtual);
  }

  public KeyspaceMetadata withoutTable(String table) {
    Map<String, TableMetadata> m = new TreeMap<>(tables);
    m.remove(table);
    return new KeyspaceMetadata(name, replication, durableWrites, m, types, virtual);
  }

  public KeyspaceMetadata withType(UdtType t) {
    Map<String, UdtType> m = new LinkedHashMap<>(types);
    m.put(t.name(), t);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, m, virtual);
  }

  public KeyspaceMetadata withoutType(String type) {
    Map<String, UdtType> m = new LinkedHashMap<>(types);
    m.remove(type);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, m, virtual);
  }

  public KeyspaceMetadata withOptions(Map<String, String> newReplication, boolean newDurable) {
    return new KeyspaceMetadata(name, newReplication, newDurable, tables, types, virtual);
  }
}
