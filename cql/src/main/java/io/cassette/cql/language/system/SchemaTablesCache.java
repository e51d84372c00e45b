package io.cassette.cql.language.system;

import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.TableMetadata;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The tables of system_schema and system_virtual_schema, built once per schema snapshot. Every
 * driver session reads them whole on connect and after each schema change, and building
 * system_schema.columns alone takes tens of milliseconds: a stress run's sessions made them a
 * tenth of its CPU. They depend on the schema only, and a {@link Schema} is immutable, so a
 * table built for one snapshot stays right until the snapshot is replaced.
 *
 * <p>Thread-safe: a race builds a table twice, never a wrong one.
 */
public final class SchemaTablesCache {
  private record Built(Schema schema, ConcurrentHashMap<String, VirtualTable> tables) {}

  private volatile Built built = new Built(null, new ConcurrentHashMap<>());

  /** True for the keyspaces whose tables are functions of the schema alone. */
  public static boolean cacheable(TableMetadata t) {
    return t.keyspace.equals(SystemKeyspaces.SCHEMA) || t.keyspace.equals(SystemKeyspaces.VIRTUAL_SCHEMA);
  }

  /** Table {@code t} as of {@code schema}, built by {@code build} if this snapshot has not had it yet. */
  public VirtualTable get(TableMetadata t, Schema schema, Supplier<VirtualTable> build) {
    Built b = built;
    if (b.schema != schema) {
      b = new Built(schema, new ConcurrentHashMap<>());
      built = b;
    }
    String name = t.keyspace + "." + t.name;
    VirtualTable table = b.tables.get(name);
    if (table == null || table.metadata() != t) {
      table = build.get();
      b.tables.put(name, table);
    }
    return table;
  }
}
