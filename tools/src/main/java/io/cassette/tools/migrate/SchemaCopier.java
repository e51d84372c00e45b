package io.cassette.tools.migrate;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.metadata.schema.IndexMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates the source's keyspaces, user types, tables and secondary indexes on the target
 * ({@code IF NOT EXISTS}: an existing table is kept as it is). Tables are created with their
 * columns, primary key and clustering order only: table options (compaction, caching...)
 * differ between Cassette and Cassandra and are left at the target's defaults. Replication is
 * copied, with each replication factor capped at the target's node count (a one-node target
 * cannot hold three replicas; writes at QUORUM would fail).
 */
final class SchemaCopier {
  private final CqlSession source;
  private final CqlSession target;
  private final PrintStream out;

  SchemaCopier(CqlSession source, CqlSession target, PrintStream out) {
    this.source = source;
    this.target = target;
    this.out = out;
  }

  void copy(KeyspaceMetadata ks, List<TableMetadata> tables) {
    int nodes = Math.max(1, target.getMetadata().getNodes().size());
    String name = ks.getName().asCql(true);
    target.execute("CREATE KEYSPACE IF NOT EXISTS " + name + " WITH replication = "
        + replication(ks.getReplication(), nodes) + " AND durable_writes = " + ks.isDurableWrites());
    createTypes(ks);
    for (TableMetadata t : tables) {
      target.execute(createTable(t));
      for (IndexMetadata index : t.getIndexes().values()) {
        try {
          target.execute("CREATE INDEX IF NOT EXISTS " + index.getName().asCql(true) + " ON "
              + name + "." + t.getName().asCql(true) + " (" + index.getTarget() + ")");
        } catch (RuntimeException e) {
          out.println("warning: index " + index.getName() + " not created on the target: " + e.getMessage());
        }
      }
    }
    target.checkSchemaAgreement();
  }

  /** User types in an order where each type's field types exist before it. */
  private void createTypes(KeyspaceMetadata ks) {
    List<UserDefinedType> pending = new ArrayList<>(ks.getUserDefinedTypes().values());
    while (!pending.isEmpty()) {
      List<UserDefinedType> failed = new ArrayList<>();
      RuntimeException last = null;
      for (UserDefinedType t : pending) {
        try {
          target.execute(t.describe(false).replace("CREATE TYPE ", "CREATE TYPE IF NOT EXISTS "));
        } catch (RuntimeException e) {
          failed.add(t);
          last = e;
        }
      }
      if (failed.size() == pending.size()) {
        throw last;
      }
      pending = failed;
    }
  }

  static String createTable(TableMetadata t) {
    StringBuilder cql = new StringBuilder("CREATE TABLE IF NOT EXISTS ")
        .append(t.getKeyspace().asCql(true)).append('.').append(t.getName().asCql(true)).append(" (");
    for (ColumnMetadata c : t.getColumns().values()) {
      cql.append(c.getName().asCql(true)).append(' ').append(c.getType().asCql(true, true));
      if (c.isStatic()) {
        cql.append(" STATIC");
      }
      cql.append(", ");
    }
    cql.append("PRIMARY KEY ((");
    cql.append(String.join(", ", names(t.getPartitionKey())));
    cql.append(')');
    for (ColumnMetadata c : t.getClusteringColumns().keySet()) {
      cql.append(", ").append(c.getName().asCql(true));
    }
    cql.append("))");
    if (!t.getClusteringColumns().isEmpty()) {
      List<String> order = new ArrayList<>();
      for (Map.Entry<ColumnMetadata, ClusteringOrder> e : t.getClusteringColumns().entrySet()) {
        order.add(e.getKey().getName().asCql(true) + " " + e.getValue().name());
      }
      cql.append(" WITH CLUSTERING ORDER BY (").append(String.join(", ", order)).append(')');
    }
    return cql.toString();
  }

  static List<String> names(List<ColumnMetadata> columns) {
    List<String> names = new ArrayList<>();
    for (ColumnMetadata c : columns) {
      names.add(c.getName().asCql(true));
    }
    return names;
  }

  /** The replication map as CQL, each factor at most {@code nodes}. */
  static String replication(Map<String, String> replication, int nodes) {
    Map<String, String> capped = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : replication.entrySet()) {
      String v = e.getValue();
      if (!e.getKey().equals("class") && v.matches("\\d+") && Integer.parseInt(v) > nodes) {
        v = Integer.toString(nodes);
      }
      String cls = e.getKey().equals("class") ? v.replace("org.apache.cassandra.locator.", "") : v;
      capped.put(e.getKey(), cls);
    }
    List<String> parts = new ArrayList<>();
    capped.forEach((k, v) -> parts.add("'" + k.replace("'", "''") + "': '" + v.replace("'", "''") + "'"));
    return "{" + String.join(", ", parts) + "}";
  }

  static String qualified(CqlIdentifier ks, CqlIdentifier table) {
    return ks.asCql(true) + "." + table.asCql(true);
  }
}
