package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.language.types.Identifiers;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * CQL text that recreates a keyspace: the durable form of the schema (parsed again on start)
 * and what DESCRIBE would print.
 */
public final class SchemaDdl {
  private SchemaDdl() {}

  public static List<String> keyspace(KeyspaceMetadata ks) {
    List<String> out = new ArrayList<>();
    out.add("CREATE KEYSPACE " + q(ks.name()) + " WITH replication = " + map(ks.replication())
        + " AND durable_writes = " + ks.durableWrites());
    for (UdtType t : ks.types().values()) {
      out.add(type(t));
    }
    // functions before tables: a column may be masked with one of them (MASKED WITH ks.f())
    for (UserFunction f : ks.functions()) {
      out.add(function(f));
    }
    for (UserAggregate a : ks.aggregates()) {
      out.add(aggregate(a));
    }
    for (TableMetadata t : ks.tables().values()) {
      out.add(table(t));
      for (IndexMetadata i : t.indexes.values()) {
        out.add(index(t, i));
      }
    }
    return out;
  }

  public static String function(UserFunction f) {
    StringBuilder sb = new StringBuilder("CREATE FUNCTION " + q(f.keyspace()) + "." + q(f.name()) + "(");
    for (int i = 0; i < f.argumentTypes().size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(q(f.argumentNames().get(i))).append(' ')
          .append(Types.toCql(f.argumentTypes().get(i)));
    }
    return sb.append(") ").append(f.calledOnNullInput() ? "CALLED" : "RETURNS NULL").append(" ON NULL INPUT RETURNS ")
        .append(Types.toCql(f.returnType())).append(" LANGUAGE ").append(f.language()).append(" AS '")
        .append(f.body().replace("'", "''")).append('\'').toString();
  }

  public static String aggregate(UserAggregate a) {
    StringBuilder sb = new StringBuilder("CREATE AGGREGATE " + q(a.keyspace()) + "." + q(a.name()) + "(")
        .append(String.join(", ", a.argumentTypeNames())).append(") SFUNC ").append(q(a.stateFunction()))
        .append(" STYPE ").append(Types.toCql(a.stateType()));
    if (a.finalFunction() != null) {
      sb.append(" FINALFUNC ").append(q(a.finalFunction()));
    }
    if (a.initcond() != null) {
      sb.append(" INITCOND ").append(io.cassette.cql.language.types.TextForms.toCqlLiteral(a.stateType(), a.initcond()));
    }
    return sb.toString();
  }

  public static String type(UdtType t) {
    StringBuilder sb = new StringBuilder("CREATE TYPE " + q(t.keyspace()) + "." + q(t.name()) + " (");
    for (int i = 0; i < t.fieldNames().size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(q(t.fieldNames().get(i))).append(' ')
          .append(Types.toCql(t.fieldTypes().get(i)));
    }
    return sb.append(')').toString();
  }

  public static String table(TableMetadata t) {
    StringBuilder sb = new StringBuilder("CREATE TABLE " + q(t.keyspace) + "." + q(t.name) + " (");
    for (ColumnMetadata c : t.columns) {
      sb.append(q(c.name())).append(' ').append(Types.toCql(c.type()));
      if (c.isStatic()) {
        sb.append(" static");
      }
      ColumnMask mask = t.mask(c.name());
      if (mask != null) {
        sb.append(" MASKED WITH ").append(mask.toCql());
      }
      sb.append(", ");
    }
    sb.append("PRIMARY KEY ((");
    for (int i = 0; i < t.partitionKey.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(q(t.partitionKey.get(i).name()));
    }
    sb.append(')');
    for (ColumnMetadata c : t.clustering) {
      sb.append(", ").append(q(c.name()));
    }
    sb.append(")) WITH id = '").append(t.id).append('\'');
    if (!t.clustering.isEmpty()) {
      sb.append(" AND CLUSTERING ORDER BY (");
      for (int i = 0; i < t.clustering.size(); i++) {
        ColumnMetadata c = t.clustering.get(i);
        sb.append(i == 0 ? "" : ", ").append(q(c.name())).append(c.descending() ? " DESC" : " ASC");
      }
      sb.append(')');
    }
    TableOptions o = t.options;
    sb.append(" AND additional_write_policy = '").append(o.additionalWritePolicy()).append('\'')
        .append(" AND bloom_filter_fp_chance = ").append(o.bloomFilterFpChance())
        .append(" AND caching = ").append(map(o.caching()))
        .append(" AND cdc = ").append(o.cdc())
        .append(" AND comment = '").append(o.comment().replace("'", "''")).append('\'')
        .append(" AND compaction = ").append(map(o.compaction()))
        .append(" AND compression = ").append(map(o.compression()))
        .append(" AND crc_check_chance = ").append(o.crcCheckChance())
        .append(" AND default_time_to_live = ").append(o.defaultTimeToLive())
        .append(" AND extensions = ").append(map(o.extensions()))
        .append(" AND gc_grace_seconds = ").append(o.gcGraceSeconds())
        .append(" AND max_index_interval = ").append(o.maxIndexInterval())
        .append(" AND memtable_flush_period_in_ms = ").append(o.memtableFlushPeriodInMs())
        .append(" AND min_index_interval = ").append(o.minIndexInterval())
        .append(" AND read_repair = '").append(o.readRepair()).append('\'')
        .append(" AND speculative_retry = '").append(o.speculativeRetry()).append('\'');
    if (t.view != null) {
      // Cassette-internal option, only in the durable form: what makes the table a view.
      sb.append(" AND ").append(SchemaBuilder.VIEW_OPTION).append(" = {'base': '")
          .append(t.view.baseTable().replace("'", "''")).append("', 'base_id': '").append(t.view.baseTableId())
          .append("', 'include_all': '").append(t.view.includeAllColumns()).append("', 'where': '")
          .append(t.view.whereClause().replace("'", "''")).append("'}");
    }
    if (!t.dropped.isEmpty()) {
      // Cassette-internal option, only in the durable form: name -> "<µs>:<type>".
      sb.append(" AND ").append(SchemaBuilder.DROPPED_OPTION).append(" = {");
      boolean first = true;
      for (Map.Entry<String, TableMetadata.DroppedColumn> e : new java.util.TreeMap<>(t.dropped).entrySet()) {
        sb.append(first ? "" : ", ").append('\'').append(e.getKey().replace("'", "''")).append("': '")
            .append(e.getValue().droppedAtMicros()).append(':').append(Types.toCql(e.getValue().type())
                .replace("'", "''")).append('\'');
        first = false;
      }
      sb.append('}');
    }
    return sb.toString();
  }

  public static String index(TableMetadata t, IndexMetadata i) {
    String target = i.options().getOrDefault("target", "");
    String custom = i.options().get("class_name");
    return "CREATE " + (custom != null ? "CUSTOM " : "") + "INDEX " + q(i.name()) + " ON "
        + q(t.keyspace) + "." + q(t.name) + " (" + target + ")"
        + (custom != null ? " USING '" + custom + "'" : "");
  }

  static String q(String name) {
    return Identifiers.quoteIfNeeded(name);
  }

  static String map(Map<String, String> m) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, String> e : m.entrySet()) {
      sb.append(first ? "" : ", ").append('\'').append(e.getKey().replace("'", "''")).append("': '")
          .append(e.getValue().replace("'", "''")).append('\'');
      first = false;
    }
    return sb.append('}').toString();
  }
}
