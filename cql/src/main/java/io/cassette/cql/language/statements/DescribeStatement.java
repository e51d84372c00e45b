package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.IndexMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.TableOptions;
import io.cassette.cql.language.system.SystemKeyspaces;
import io.cassette.cql.language.system.SystemTables;
import io.cassette.cql.language.types.Identifiers;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Server-side DESCRIBE as Cassandra 4.0+ answers it (cqlsh sends it to the server): rows of
 * (keyspace_name, type, name[, create_statement]) with the CQL that recreates each element.
 */
final class DescribeStatement implements Executable {
  private static final String RESULT_TABLE = "describe";
  private final Statement.Describe describe;
  private final String keyspace;
  private final Services services;

  DescribeStatement(Statement.Describe describe, String keyspace, Services services) {
    this.describe = describe;
    this.keyspace = keyspace;
    this.services = services;
  }

  @Override
  public List<ColumnSpec> variables() {
    return List.of();
  }

  private static ColumnSpec col(String name) {
    return new ColumnSpec(null, RESULT_TABLE, name, Types.TEXT);
  }

  @Override
  public Result execute(QueryContext ctx) {
    Schema schema = services.schema().current();
    String current = ctx.state.keyspace() != null ? ctx.state.keyspace() : keyspace;
    List<List<String>> rows = new ArrayList<>();
    boolean withStatement = true;
    switch (describe.what()) {
      case "CLUSTER" -> {
        List<ColumnSpec> cols = List.of(col("cluster"), col("partitioner"), col("snitch"));
        return rows(cols, List.of(List.of(services.node().clusterName(), SystemTables.PARTITIONER,
            "org.apache.cassandra.locator.SimpleSnitch")));
      }
      case "KEYSPACES" -> {
        withStatement = false;
        for (KeyspaceMetadata k : visible(schema)) {
          rows.add(List.of(k.name(), "keyspace", k.name()));
        }
      }
      case "TABLES" -> {
        withStatement = false;
        for (KeyspaceMetadata k : visible(schema)) {
          if (current != null && !k.name().equals(current)) {
            continue;
          }
          for (TableMetadata t : k.tables().values()) {
            if (!t.isView()) {
              rows.add(List.of(k.name(), "table", t.name));
            }
          }
        }
      }
      case "TYPES" -> {
        withStatement = false;
        for (KeyspaceMetadata k : visible(schema)) {
          if (current != null && !k.name().equals(current)) {
            continue;
          }
          for (UdtType u : k.types().values()) {
            rows.add(List.of(k.name(), "type", u.name()));
          }
        }
      }
      case "FUNCTIONS", "AGGREGATES" -> {
        withStatement = false;
        boolean functions = describe.what().equals("FUNCTIONS");
        for (KeyspaceMetadata k : visible(schema)) {
          if (current != null && !k.name().equals(current)) {
            continue;
          }
          for (List<String> r : functionRows(k, functions, !functions)) {
            rows.add(r.subList(0, 3));
          }
        }
      }
      case "SCHEMA" -> {
        for (KeyspaceMetadata k : visible(schema)) {
          if (!describe.full() && SystemKeyspaces.isSystem(k.name())) {
            continue;
          }
          keyspaceRows(k, false, rows);
        }
      }
      case "KEYSPACE" -> keyspaceRows(keyspace(schema, describe.name() == null ? current : describe.name().name()),
          describe.full(), rows);
      case "TABLE" -> tableRows(schema, table(schema, describe.name(), current, "Table "), rows);
      case "VIEW" -> {
        String ks = describe.name().keyspace() != null ? describe.name().keyspace() : current;
        KeyspaceMetadata k = keyspace(schema, ks);
        TableMetadata v = k.tables().get(describe.name().name());
        if (v == null || !v.isView()) {
          throw invalid("Materialized view '" + describe.name().name() + "' not found in '" + ks + "'");
        }
        tableRows(schema, v, rows);
      }
      case "TYPE" -> {
        String ks = describe.name().keyspace() != null ? describe.name().keyspace() : current;
        KeyspaceMetadata k = keyspace(schema, ks);
        UdtType u = k.types().get(describe.name().name());
        if (u == null) {
          throw invalid("User defined type '" + describe.name().name() + "' not found in '" + ks + "'");
        }
        rows.add(List.of(k.name(), "type", u.name(), type(u)));
      }
      case "INDEX" -> {
        String ks = describe.name().keyspace() != null ? describe.name().keyspace() : current;
        KeyspaceMetadata k = keyspace(schema, ks);
        for (TableMetadata t : k.tables().values()) {
          IndexMetadata i = t.indexes.get(describe.name().name());
          if (i != null) {
            rows.add(List.of(k.name(), "index", i.name(), index(t, i)));
          }
        }
        if (rows.isEmpty()) {
          throw invalid("Index '" + describe.name().name() + "' not found in '" + ks + "'");
        }
      }
      default -> {
        Statement.QualifiedName n = describe.name();
        if (n.keyspace() == null && schema.keyspace(n.name()) != null) {
          keyspaceRows(schema.keyspace(n.name()), false, rows);
        } else {
          tableRows(schema, table(schema, n, current, ""), rows);
        }
      }
    }
    List<ColumnSpec> cols = new ArrayList<>(List.of(col("keyspace_name"), col("type"), col("name")));
    if (withStatement) {
      cols.add(col("create_statement"));
    }
    return rows(cols, rows);
  }

  private static List<KeyspaceMetadata> visible(Schema schema) {
    List<KeyspaceMetadata> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      if (!k.name().equals(SystemKeyspaces.CASSETTE)) {
        out.add(k);
      }
    }
    return out;
  }

  private static KeyspaceMetadata keyspace(Schema schema, String name) {
    if (name == null) {
      throw invalid("No keyspace specified and no current keyspace");
    }
    KeyspaceMetadata k = schema.keyspace(name);
    if (k == null) {
      throw invalid("'" + name + "' not found in keyspaces");
    }
    return k;
  }

  /** @param what "Table " for DESCRIBE TABLE, "" for DESCRIBE of a bare name (Cassandra's two texts) */
  private static TableMetadata table(Schema schema, Statement.QualifiedName n, String current, String what) {
    String ks = n.keyspace() != null ? n.keyspace() : current;
    KeyspaceMetadata k = keyspace(schema, ks);
    TableMetadata t = k.tables().get(n.name());
    if (t == null) {
      throw invalid(what + "'" + n.name() + "' not found in keyspace '" + ks + "'");
    }
    return t;
  }

  private static Result rows(List<ColumnSpec> cols, List<List<String>> rows) {
    List<List<ByteBuffer>> out = new ArrayList<>();
    for (List<String> r : rows) {
      List<ByteBuffer> row = new ArrayList<>();
      for (int i = 0; i < cols.size(); i++) {
        row.add(ByteBuffer.wrap(Values.ofText(r.get(i))));
      }
      out.add(row);
    }
    return new Result.Rows(cols, out, null);
  }

  private void keyspaceRows(KeyspaceMetadata k, boolean only, List<List<String>> rows) {
    // Cassandra describes its own replication strategies by their short class names
    Map<String, String> replication = new TreeMap<>(k.replication());
    String cls = replication.get("class");
    if (cls != null && cls.startsWith("org.apache.cassandra.locator.")) {
      replication.put("class", cls.substring("org.apache.cassandra.locator.".length()));
    }
    rows.add(List.of(k.name(), "keyspace", k.name(), "CREATE KEYSPACE " + q(k.name()) + " WITH replication = "
        + map(replication) + "  AND durable_writes = " + k.durableWrites() + ";"));
    if (only) {
      return;
    }
    for (UdtType u : k.types().values()) {
      rows.add(List.of(k.name(), "type", u.name(), type(u)));
    }
    rows.addAll(functionRows(k, true, true));
    for (TableMetadata t : k.tables().values()) {
      if (!t.isView()) {
        tableRows(k, t, rows);
      }
    }
  }

  /** The keyspace's functions, then its aggregates, each by name and signature, as Cassandra describes them. */
  private static List<List<String>> functionRows(KeyspaceMetadata k, boolean functions, boolean aggregates) {
    List<List<String>> fs = new ArrayList<>();
    if (functions) {
      for (io.cassette.cql.language.schema.UserFunction f : k.functions()) {
        StringBuilder sb = new StringBuilder("CREATE FUNCTION " + q(k.name()) + "." + q(f.name()) + "(");
        for (int i = 0; i < f.argumentTypes().size(); i++) {
          sb.append(i == 0 ? "" : ", ").append(q(f.argumentNames().get(i))).append(' ')
              .append(Types.toCql(f.argumentTypes().get(i)));
        }
        sb.append(")\n    ").append(f.calledOnNullInput() ? "CALLED" : "RETURNS NULL").append(" ON NULL INPUT\n")
            .append("    RETURNS ").append(Types.toCql(f.returnType())).append("\n    LANGUAGE ").append(f.language())
            .append("\n    AS $$").append(f.body()).append("$$;");
        fs.add(List.of(k.name(), "function", f.name() + "(" + String.join(", ", f.argumentTypeNames()) + ")",
            sb.toString()));
      }
    }
    List<List<String>> as = new ArrayList<>();
    if (aggregates) {
      for (io.cassette.cql.language.schema.UserAggregate a : k.aggregates()) {
        StringBuilder sb = new StringBuilder("CREATE AGGREGATE " + q(k.name()) + "." + q(a.name()) + "("
            + String.join(", ", a.argumentTypeNames()) + ")\n    SFUNC " + q(a.stateFunction()) + "\n    STYPE "
            + Types.toCql(a.stateType()));
        if (a.finalFunction() != null) {
          sb.append("\n    FINALFUNC ").append(q(a.finalFunction()));
        }
        if (a.initcond() != null) {
          sb.append("\n    INITCOND ")
              .append(io.cassette.cql.language.types.TextForms.toCqlLiteral(a.stateType(), a.initcond()));
        }
        as.add(List.of(k.name(), "aggregate", a.name() + "(" + String.join(", ", a.argumentTypeNames()) + ")",
            sb.append(';').toString()));
      }
    }
    java.util.Comparator<List<String>> byName = java.util.Comparator.comparing(r -> r.get(2));
    fs.sort(byName);
    as.sort(byName);
    fs.addAll(as);
    return fs;
  }

  private static void tableRows(Schema schema, TableMetadata t, List<List<String>> rows) {
    tableRows(schema.keyspace(t.keyspace), t, rows);
  }

  /** A table, its indexes and its materialized views (by name), or a view alone, as Cassandra describes them. */
  private static void tableRows(KeyspaceMetadata k, TableMetadata t, List<List<String>> rows) {
    if (t.isView()) {
      rows.add(List.of(t.keyspace, "materialized_view", t.name, view(t)));
      return;
    }
    rows.add(List.of(t.keyspace, "table", t.name, table(t)));
    for (IndexMetadata i : t.indexes.values()) {
      rows.add(List.of(t.keyspace, "index", i.name(), index(t, i)));
    }
    if (k != null) {
      for (TableMetadata v : io.cassette.cql.language.views.Views.of(k, t.name)) {
        rows.add(List.of(v.keyspace, "materialized_view", v.name, view(v)));
      }
    }
  }

  /** CREATE MATERIALIZED VIEW as Cassandra 5.0.4's DESCRIBE prints it (no default_time_to_live line). */
  static String view(TableMetadata v) {
    StringBuilder sb = new StringBuilder("CREATE MATERIALIZED VIEW " + q(v.keyspace) + "." + q(v.name) + " AS\n    SELECT ");
    if (v.view.includeAllColumns()) {
      sb.append('*');
    } else {
      for (int i = 0; i < v.columns.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(q(v.columns.get(i).name()));
      }
    }
    sb.append("\n    FROM ").append(q(v.keyspace)).append('.').append(q(v.view.baseTable()));
    if (!v.view.whereClause().isEmpty()) {
      sb.append("\n    WHERE ").append(v.view.whereClause());
    }
    sb.append("\n    PRIMARY KEY (");
    if (v.partitionKey.size() > 1) {
      sb.append('(');
    }
    for (int i = 0; i < v.partitionKey.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(q(v.partitionKey.get(i).name()));
    }
    if (v.partitionKey.size() > 1) {
      sb.append(')');
    }
    for (ColumnMetadata c : v.clustering) {
      sb.append(", ").append(q(c.name()));
    }
    sb.append(")\n WITH ");
    String table = table(v);
    String options = table.substring(table.indexOf(") WITH ") + ") WITH ".length())
        .replace("    AND default_time_to_live = " + v.options.defaultTimeToLive() + "\n", "");
    return sb.append(options).toString();
  }

  static String table(TableMetadata t) {
    StringBuilder sb = new StringBuilder("CREATE TABLE " + q(t.keyspace) + "." + q(t.name) + " (\n");
    boolean single = t.partitionKey.size() == 1 && t.clustering.isEmpty();
    for (ColumnMetadata c : t.describeOrder()) {
      sb.append("    ").append(q(c.name())).append(' ').append(Types.toCql(c.type()));
      if (c.isStatic()) {
        sb.append(" static");
      }
      if (t.mask(c.name()) != null) {
        sb.append(" MASKED WITH ").append(t.mask(c.name()).toCql());
      }
      if (single && c.kind() == ColumnMetadata.Kind.PARTITION_KEY) {
        sb.append(" PRIMARY KEY");
      }
      sb.append(",\n");
    }
    if (!single) {
      sb.append("    PRIMARY KEY (");
      if (t.partitionKey.size() > 1) {
        sb.append('(');
      }
      for (int i = 0; i < t.partitionKey.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(q(t.partitionKey.get(i).name()));
      }
      if (t.partitionKey.size() > 1) {
        sb.append(')');
      }
      for (ColumnMetadata c : t.clustering) {
        sb.append(", ").append(q(c.name()));
      }
      sb.append(")\n");
    } else {
      sb.setLength(sb.length() - 2);
      sb.append('\n');
    }
    sb.append(") WITH ");
    if (!t.clustering.isEmpty()) {
      sb.append("CLUSTERING ORDER BY (");
      for (int i = 0; i < t.clustering.size(); i++) {
        ColumnMetadata c = t.clustering.get(i);
        sb.append(i == 0 ? "" : ", ").append(q(c.name())).append(c.descending() ? " DESC" : " ASC");
      }
      sb.append(")\n    AND ");
    }
    TableOptions o = t.options;
    sb.append("additional_write_policy = '").append(o.additionalWritePolicy()).append("'\n")
        .append("    AND allow_auto_snapshot = true\n")
        .append("    AND bloom_filter_fp_chance = ").append(o.bloomFilterFpChance()).append('\n')
        .append("    AND caching = ").append(map(o.caching())).append('\n')
        .append("    AND cdc = ").append(o.cdc()).append('\n')
        .append("    AND comment = '").append(o.comment().replace("'", "''")).append("'\n")
        .append("    AND compaction = ").append(map(o.compaction())).append('\n')
        .append("    AND compression = ").append(map(o.compression())).append('\n')
        .append("    AND memtable = 'default'\n")
        .append("    AND crc_check_chance = ").append(o.crcCheckChance()).append('\n')
        .append("    AND default_time_to_live = ").append(o.defaultTimeToLive()).append('\n')
        .append("    AND extensions = {}\n")
        .append("    AND gc_grace_seconds = ").append(o.gcGraceSeconds()).append('\n')
        .append("    AND incremental_backups = true\n")
        .append("    AND max_index_interval = ").append(o.maxIndexInterval()).append('\n')
        .append("    AND memtable_flush_period_in_ms = ").append(o.memtableFlushPeriodInMs()).append('\n')
        .append("    AND min_index_interval = ").append(o.minIndexInterval()).append('\n')
        .append("    AND read_repair = '").append(o.readRepair()).append("'\n")
        .append("    AND speculative_retry = '").append(o.speculativeRetry()).append("';");
    return sb.toString();
  }

  static String type(UdtType u) {
    StringBuilder sb = new StringBuilder("CREATE TYPE " + q(u.keyspace()) + "." + q(u.name()) + " (\n");
    for (int i = 0; i < u.fieldNames().size(); i++) {
      sb.append("    ").append(q(u.fieldNames().get(i))).append(' ').append(Types.toCql(u.fieldTypes().get(i)))
          .append(i + 1 < u.fieldNames().size() ? ",\n" : "\n");
    }
    return sb.append(");").toString();
  }

  static String index(TableMetadata t, IndexMetadata i) {
    return "CREATE INDEX " + q(i.name()) + " ON " + q(t.keyspace) + "." + q(t.name) + " ("
        + i.options().getOrDefault("target", "") + ");";
  }

  private static String q(String n) {
    return Identifiers.quoteIfNeeded(n);
  }

  private static String map(Map<String, String> m) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, String> e : new TreeMap<>(m).entrySet()) {
      sb.append(sb.length() == 1 ? "" : ", ").append('\'').append(e.getKey()).append("': '")
          .append(e.getValue().replace("'", "''")).append('\'');
    }
    return sb.append('}').toString();
  }
}
