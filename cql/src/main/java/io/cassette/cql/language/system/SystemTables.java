package io.cassette.cql.language.system;

import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.IndexMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.TableOptions;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Computes the rows of the virtual system tables from the schema snapshot and the node. */
public final class SystemTables {
  /** The CQL spec version Cassandra 5.0 reports. */
  public static final String CQL_VERSION = "3.4.7";
  public static final String NATIVE_PROTOCOL_VERSION = "5";
  public static final String PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner";

  private SystemTables() {}

  public static List<Map<String, byte[]>> rows(TableMetadata t, Schema schema, NodeInfo node) {
    String id = t.keyspace + "." + t.name;
    return switch (id) {
      case "system.local" -> List.of(local(schema, node));
      case "system.peers" -> peers(schema, node, false);
      case "system.peers_v2" -> peers(schema, node, true);
      case "system.built_views" -> builtViews(schema);
      case "system_distributed.view_build_status" -> viewBuildStatus(schema, node);
      case "system_schema.keyspaces" -> keyspaces(schema, false);
      case "system_schema.tables" -> tables(schema, false);
      case "system_schema.views" -> tables(schema, true);
      case "system_schema.columns" -> columns(schema, false);
      case "system_schema.types" -> types(schema);
      case "system_schema.functions" -> functions(schema);
      case "system_schema.aggregates" -> aggregates(schema);
      case "system_schema.indexes" -> indexes(schema);
      case "system_schema.dropped_columns" -> droppedColumns(schema);
      case "system_schema.column_masks" -> columnMasks(schema);
      case "system_virtual_schema.keyspaces" -> keyspaces(schema, true);
      case "system_virtual_schema.tables" -> virtualTables(schema);
      case "system_virtual_schema.columns" -> columns(schema, true);
      case "system_views.settings" -> SystemViews.settings(node);
      case "system_views.system_properties" -> SystemViews.systemProperties();
      case "system_views.clients" -> SystemViews.clients(null);
      case "system_views.caches" -> SystemViews.caches();
      default -> List.of();
    };
  }

  private static byte[] text(String s) {
    return s == null ? null : Values.ofText(s);
  }

  private static byte[] textMap(Map<String, String> m) {
    List<byte[]> ks = new ArrayList<>();
    List<byte[]> vs = new ArrayList<>();
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(m).entrySet()) {
      ks.add(text(e.getKey()));
      vs.add(text(e.getValue()));
    }
    return CollectionCodec.packMap(ks, vs);
  }

  private static byte[] textList(List<String> l) {
    List<byte[]> es = new ArrayList<>();
    for (String s : l) {
      es.add(text(s));
    }
    return CollectionCodec.pack(es);
  }

  private static Map<String, byte[]> local(Schema schema, NodeInfo node) {
    Map<String, byte[]> r = new HashMap<>();
    r.put("key", text("local"));
    r.put("bootstrapped", text("COMPLETED"));
    r.put("broadcast_address", Values.ofInet(node.listenAddress()));
    r.put("broadcast_port", Values.ofInt(node.ring().storagePort()));
    r.put("cluster_name", text(node.clusterName()));
    r.put("cql_version", text(CQL_VERSION));
    r.put("data_center", text(node.dataCenter()));
    r.put("gossip_generation", Values.ofInt((int) (System.currentTimeMillis() / 1000)));
    r.put("host_id", Values.ofUuid(node.hostId()));
    r.put("listen_address", Values.ofInet(node.listenAddress()));
    r.put("listen_port", Values.ofInt(node.ring().storagePort()));
    r.put("native_protocol_version", text(NATIVE_PROTOCOL_VERSION));
    r.put("partitioner", text(PARTITIONER));
    r.put("rack", text(node.rack()));
    r.put("release_version", text(node.releaseVersion()));
    r.put("rpc_address", Values.ofInet(node.rpcAddress()));
    r.put("rpc_port", Values.ofInt(node.rpcPort()));
    r.put("schema_version", Values.ofUuid(schema.version()));
    r.put("tokens", tokenSet(node.localTokens()));
    return r;
  }

  /** A set<text> of tokens, sorted as Cassandra sorts set elements (by their bytes). */
  private static byte[] tokenSet(List<Long> tokens) {
    java.util.TreeMap<byte[], byte[]> sorted = new java.util.TreeMap<>(io.cassette.storage.Bytes::compare);
    for (Long tk : tokens) {
      byte[] t = text(Long.toString(tk));
      sorted.put(t, t);
    }
    return CollectionCodec.pack(new ArrayList<>(sorted.keySet()));
  }

  /**
   * system.peers (v2: with ports) as Cassandra 5.0 fills it: one row per other node, with the
   * schema version it last reported (this node's own while not known), so a driver's schema
   * agreement wait after DDL waits for the nodes that have not applied it yet.
   */
  private static List<Map<String, byte[]>> peers(Schema schema, NodeInfo node, boolean v2) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (io.cassette.cql.language.RingView.Peer p : node.ring().peers()) {
      Map<String, byte[]> r = new HashMap<>();
      r.put("peer", Values.ofInet(p.peer()));
      r.put("data_center", text(p.dataCenter()));
      r.put("host_id", Values.ofUuid(p.hostId()));
      r.put("rack", text(p.rack()));
      r.put("release_version", text(p.releaseVersion()));
      r.put("schema_version", Values.ofUuid(p.schemaVersion() != null ? p.schemaVersion() : schema.version()));
      r.put("tokens", tokenSet(p.tokens()));
      if (v2) {
        r.put("peer_port", Values.ofInt(p.peerPort()));
        r.put("native_address", Values.ofInet(p.nativeAddress()));
        r.put("native_port", Values.ofInt(p.nativePort()));
      } else {
        r.put("rpc_address", Values.ofInet(p.nativeAddress()));
      }
      out.add(r);
    }
    return out;
  }

  /**
   * Every view in the schema is built: CREATE MATERIALIZED VIEW returns only once the coordinator
   * has written the base table's rows to every view replica (Cassandra builds in the background
   * and lists a view in these tables once done), so view_builds_in_progress stays empty.
   */
  private static List<TableMetadata> views(Schema schema) {
    List<TableMetadata> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      for (TableMetadata t : k.tables().values()) {
        if (t.isView()) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** system.built_views: every view, replicated. */
  private static List<Map<String, byte[]>> builtViews(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (TableMetadata t : views(schema)) {
      Map<String, byte[]> r = new HashMap<>();
      r.put("keyspace_name", text(t.keyspace));
      r.put("view_name", text(t.name));
      r.put("status_replicated", Values.ofBoolean(true));
      out.add(r);
    }
    return out;
  }

  /** system_distributed.view_build_status: SUCCESS for every view on this node and each peer. */
  private static List<Map<String, byte[]>> viewBuildStatus(Schema schema, NodeInfo node) {
    List<java.util.UUID> hosts = new ArrayList<>();
    hosts.add(node.hostId());
    for (io.cassette.cql.language.RingView.Peer p : node.ring().peers()) {
      hosts.add(p.hostId());
    }
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (TableMetadata t : views(schema)) {
      for (java.util.UUID h : hosts) {
        Map<String, byte[]> r = new HashMap<>();
        r.put("keyspace_name", text(t.keyspace));
        r.put("view_name", text(t.name));
        r.put("host_id", Values.ofUuid(h));
        r.put("status", text("SUCCESS"));
        out.add(r);
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> keyspaces(Schema schema, boolean virtual) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      if (k.virtual() != virtual || k.name().equals(SystemKeyspaces.CASSETTE)) {
        continue;
      }
      Map<String, byte[]> r = new HashMap<>();
      r.put("keyspace_name", text(k.name()));
      if (!virtual) {
        r.put("durable_writes", Values.ofBoolean(k.durableWrites()));
        r.put("replication", textMap(k.replication()));
      }
      out.add(r);
    }
    return out;
  }

  /** system_schema.tables ({@code views} false) or system_schema.views: the same options, a view's own columns. */
  private static List<Map<String, byte[]>> tables(Schema schema, boolean views) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      if (k.virtual() || k.name().equals(SystemKeyspaces.CASSETTE)) {
        continue;
      }
      for (TableMetadata t : k.tables().values()) {
        if (t.isView() != views) {
          continue;
        }
        TableOptions o = t.options;
        Map<String, byte[]> r = new HashMap<>();
        r.put("keyspace_name", text(t.keyspace));
        if (views) {
          r.put("view_name", text(t.name));
          r.put("base_table_id", Values.ofUuid(t.view.baseTableId()));
          r.put("base_table_name", text(t.view.baseTable()));
          r.put("include_all_columns", Values.ofBoolean(t.view.includeAllColumns()));
          r.put("where_clause", text(t.view.whereClause()));
        } else {
          r.put("table_name", text(t.name));
        }
        r.put("additional_write_policy", text(o.additionalWritePolicy()));
        r.put("allow_auto_snapshot", Values.ofBoolean(true));
        r.put("bloom_filter_fp_chance", Values.ofDouble(o.bloomFilterFpChance()));
        r.put("caching", textMap(o.caching()));
        r.put("cdc", Values.ofBoolean(o.cdc()));
        r.put("comment", text(o.comment()));
        r.put("compaction", textMap(o.compaction()));
        r.put("compression", textMap(o.compression()));
        r.put("crc_check_chance", Values.ofDouble(o.crcCheckChance()));
        r.put("dclocal_read_repair_chance", Values.ofDouble(0.0)); // legacy columns Cassandra 5.0 still fills
        r.put("read_repair_chance", Values.ofDouble(0.0));
        r.put("default_time_to_live", Values.ofInt(o.defaultTimeToLive()));
        r.put("extensions", CollectionCodec.packMap(List.of(), List.of()));
        r.put("flags", t.isCounter ? CollectionCodec.pack(List.of(text("compound"), text("counter")))
            : CollectionCodec.pack(List.of(text("compound"))));
        r.put("gc_grace_seconds", Values.ofInt(o.gcGraceSeconds()));
        r.put("id", Values.ofUuid(t.id));
        r.put("incremental_backups", Values.ofBoolean(true));
        r.put("max_index_interval", Values.ofInt(o.maxIndexInterval()));
        r.put("memtable", text("default"));
        r.put("memtable_flush_period_in_ms", Values.ofInt(o.memtableFlushPeriodInMs()));
        r.put("min_index_interval", Values.ofInt(o.minIndexInterval()));
        r.put("read_repair", text(o.readRepair()));
        r.put("speculative_retry", text(o.speculativeRetry()));
        if (views) { // Cassandra 5.0.4 leaves these null in system_schema.views
          r.remove("allow_auto_snapshot");
          r.remove("cdc");
          r.remove("incremental_backups");
          r.remove("memtable");
          r.remove("flags");
        }
        out.add(r);
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> columns(Schema schema, boolean virtual) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      if (k.virtual() != virtual || k.name().equals(SystemKeyspaces.CASSETTE)) {
        continue;
      }
      for (TableMetadata t : k.tables().values()) {
        for (ColumnMetadata c : t.columns) {
          Map<String, byte[]> r = new HashMap<>();
          r.put("keyspace_name", text(t.keyspace));
          r.put("table_name", text(t.name));
          r.put("column_name", text(c.name()));
          r.put("clustering_order", text(c.kind() == ColumnMetadata.Kind.CLUSTERING
              ? (c.descending() ? "desc" : "asc") : "none"));
          r.put("column_name_bytes", Values.ofText(c.name()));
          r.put("kind", text(c.kind().schemaName));
          r.put("position", Values.ofInt(c.position()));
          r.put("type", text(Types.toCql(c.type())));
          out.add(r);
        }
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> functions(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      for (io.cassette.cql.language.schema.UserFunction f : k.functions()) {
        Map<String, byte[]> r = new HashMap<>();
        r.put("keyspace_name", text(k.name()));
        r.put("function_name", text(f.name()));
        r.put("argument_types", textList(f.argumentTypeNames()));
        r.put("argument_names", textList(f.argumentNames()));
        r.put("body", text(f.body()));
        r.put("called_on_null_input", Values.ofBoolean(f.calledOnNullInput()));
        r.put("language", text(f.language()));
        r.put("return_type", text(Types.toCql(f.returnType())));
        out.add(r);
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> aggregates(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      for (io.cassette.cql.language.schema.UserAggregate a : k.aggregates()) {
        Map<String, byte[]> r = new HashMap<>();
        r.put("keyspace_name", text(k.name()));
        r.put("aggregate_name", text(a.name()));
        r.put("argument_types", textList(a.argumentTypeNames()));
        r.put("final_func", text(a.finalFunction()));
        r.put("initcond", a.initcond() == null ? null
            : text(io.cassette.cql.language.types.TextForms.toCqlLiteral(a.stateType(), a.initcond())));
        r.put("return_type", text(Types.toCql(a.returnType())));
        r.put("state_func", text(a.stateFunction()));
        r.put("state_type", text(Types.toCql(a.stateType())));
        out.add(r);
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> types(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      for (UdtType u : k.types().values()) {
        Map<String, byte[]> r = new HashMap<>();
        r.put("keyspace_name", text(k.name()));
        r.put("type_name", text(u.name()));
        r.put("field_names", textList(u.fieldNames()));
        List<String> ts = new ArrayList<>();
        for (var ft : u.fieldTypes()) {
          ts.add(Types.toCql(ft));
        }
        r.put("field_types", textList(ts));
        out.add(r);
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> indexes(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      for (TableMetadata t : k.tables().values()) {
        for (IndexMetadata i : t.indexes.values()) {
          Map<String, byte[]> r = new HashMap<>();
          r.put("keyspace_name", text(k.name()));
          r.put("table_name", text(t.name));
          r.put("index_name", text(i.name()));
          r.put("kind", text(i.kind()));
          r.put("options", textMap(i.options()));
          out.add(r);
        }
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> droppedColumns(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      for (TableMetadata t : k.tables().values()) {
        for (Map.Entry<String, TableMetadata.DroppedColumn> e : t.dropped.entrySet()) {
          Map<String, byte[]> r = new HashMap<>();
          r.put("keyspace_name", text(k.name()));
          r.put("table_name", text(t.name));
          r.put("column_name", text(e.getKey()));
          r.put("dropped_time", Values.ofLong(e.getValue().droppedAtMicros() / 1000));
          r.put("kind", text("regular"));
          r.put("type", text(Types.toCql(e.getValue().type())));
          out.add(r);
        }
      }
    }
    return out;
  }

  /** One row per masked column: the function and its partial arguments as text (Cassandra's SchemaKeyspace). */
  private static List<Map<String, byte[]>> columnMasks(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      for (TableMetadata t : k.tables().values()) {
        for (Map.Entry<String, io.cassette.cql.language.schema.ColumnMask> e : t.masks.entrySet()) {
          io.cassette.cql.language.schema.ColumnMask m = e.getValue();
          List<byte[]> nulls = new ArrayList<>();
          List<byte[]> types = new ArrayList<>();
          List<byte[]> values = new ArrayList<>();
          for (int i = 0; i < m.arguments().size(); i++) {
            byte[] v = m.arguments().get(i);
            nulls.add(Values.ofBoolean(v == null));
            types.add(text(Types.toCql(m.argumentTypes().get(i))));
            values.add(text(v == null ? "" : io.cassette.cql.language.types.TextForms.toText(m.argumentTypes().get(i), v)));
          }
          Map<String, byte[]> r = new HashMap<>();
          r.put("keyspace_name", text(k.name()));
          r.put("table_name", text(t.name));
          r.put("column_name", text(e.getKey()));
          r.put("function_argument_nulls", io.cassette.cql.language.types.CollectionCodec.pack(nulls));
          r.put("function_argument_types", io.cassette.cql.language.types.CollectionCodec.pack(types));
          r.put("function_argument_values", io.cassette.cql.language.types.CollectionCodec.pack(values));
          r.put("function_keyspace", text(m.functionKeyspace()));
          r.put("function_name", text(m.function()));
          out.add(r);
        }
      }
    }
    return out;
  }

  private static List<Map<String, byte[]>> virtualTables(Schema schema) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (KeyspaceMetadata k : schema.keyspaces().values()) {
      if (!k.virtual()) {
        continue;
      }
      for (TableMetadata t : k.tables().values()) {
        Map<String, byte[]> r = new HashMap<>();
        r.put("keyspace_name", text(k.name()));
        r.put("table_name", text(t.name));
        r.put("comment", text(t.options.comment()));
        out.add(r);
      }
    }
    return out;
  }
}
