package io.cassette.cql.language.system;

import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.TableOptions;
import io.cassette.cql.language.schema.TypeResolver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The built-in keyspaces and the definitions of the tables drivers read on connect, column
 * for column as Cassandra 5.0 declares them (the drivers parse these rows into metadata).
 */
public final class SystemKeyspaces {
  public static final String SYSTEM = "system";
  public static final String SCHEMA = "system_schema";
  public static final String VIRTUAL_SCHEMA = "system_virtual_schema";
  public static final String VIEWS = "system_views";
  public static final String AUTH = "system_auth";
  public static final String DISTRIBUTED = "system_distributed";
  public static final String TRACES = "system_traces";
  /** Cassette's private keyspace holding the durable schema. */
  public static final String CASSETTE = "system_cassette";

  private static final String[] SYSTEM_TABLES = {
      "CREATE TABLE system.local (key text PRIMARY KEY, bootstrapped text, broadcast_address inet,"
          + " broadcast_port int, cluster_name text, cql_version text, data_center text,"
          + " gossip_generation int, host_id uuid, listen_address inet, listen_port int,"
          + " native_protocol_version text, partitioner text, rack text, release_version text,"
          + " rpc_address inet, rpc_port int, schema_version uuid, tokens set<text>,"
          + " truncated_at map<uuid, blob>)",
      "CREATE TABLE system.peers (peer inet PRIMARY KEY, data_center text, host_id uuid,"
          + " preferred_ip inet, rack text, release_version text, rpc_address inet,"
          + " schema_version uuid, tokens set<text>)",
      "CREATE TABLE system.peers_v2 (peer inet, peer_port int, data_center text, host_id uuid,"
          + " native_address inet, native_port int, preferred_ip inet, preferred_port int,"
          + " rack text, release_version text, schema_version uuid, tokens set<text>,"
          + " PRIMARY KEY ((peer), peer_port))",
  };

  private static final String[] SCHEMA_TABLES = {
      "CREATE TABLE system_schema.keyspaces (keyspace_name text PRIMARY KEY, durable_writes boolean,"
          + " replication frozen<map<text, text>>)",
      "CREATE TABLE system_schema.tables (keyspace_name text, table_name text,"
          + " additional_write_policy text, allow_auto_snapshot boolean, bloom_filter_fp_chance double,"
          + " caching frozen<map<text, text>>, cdc boolean, comment text,"
          + " compaction frozen<map<text, text>>, compression frozen<map<text, text>>,"
          + " crc_check_chance double, dclocal_read_repair_chance double, default_time_to_live int,"
          + " extensions frozen<map<text, blob>>,"
          + " flags frozen<set<text>>, gc_grace_seconds int, id uuid, incremental_backups boolean,"
          + " max_index_interval int, memtable text, memtable_flush_period_in_ms int,"
          + " min_index_interval int, read_repair text, read_repair_chance double, speculative_retry text,"
          + " PRIMARY KEY ((keyspace_name), table_name))",
      "CREATE TABLE system_schema.columns (keyspace_name text, table_name text, column_name text,"
          + " clustering_order text, column_name_bytes blob, kind text, position int, type text,"
          + " PRIMARY KEY ((keyspace_name), table_name, column_name))",
      "CREATE TABLE system_schema.column_masks (keyspace_name text, table_name text,"
          + " column_name text, function_argument_nulls frozen<list<boolean>>,"
          + " function_argument_types frozen<list<text>>, function_argument_values frozen<list<text>>,"
          + " function_keyspace text, function_name text,"
          + " PRIMARY KEY ((keyspace_name), table_name, column_name))",
      "CREATE TABLE system_schema.dropped_columns (keyspace_name text, table_name text,"
          + " column_name text, dropped_time timestamp, kind text, type text,"
          + " PRIMARY KEY ((keyspace_name), table_name, column_name))",
      "CREATE TABLE system_schema.triggers (keyspace_name text, table_name text, trigger_name text,"
          + " options frozen<map<text, text>>, PRIMARY KEY ((keyspace_name), table_name, trigger_name))",
      "CREATE TABLE system_schema.views (keyspace_name text, view_name text,"
          + " additional_write_policy text, allow_auto_snapshot boolean, base_table_id uuid,"
          + " base_table_name text, bloom_filter_fp_chance double, caching frozen<map<text, text>>,"
          + " cdc boolean, comment text, compaction frozen<map<text, text>>,"
          + " compression frozen<map<text, text>>, crc_check_chance double,"
          + " default_time_to_live int, extensions frozen<map<text, blob>>, gc_grace_seconds int,"
          + " id uuid, include_all_columns boolean, incremental_backups boolean,"
          + " max_index_interval int, memtable text, memtable_flush_period_in_ms int,"
          + " min_index_interval int, read_repair text, speculative_retry text, where_clause text,"
          + " PRIMARY KEY ((keyspace_name), view_name))",
      "CREATE TABLE system_schema.types (keyspace_name text, type_name text,"
          + " field_names frozen<list<text>>, field_types frozen<list<text>>,"
          + " PRIMARY KEY ((keyspace_name), type_name))",
      "CREATE TABLE system_schema.functions (keyspace_name text, function_name text,"
          + " argument_types frozen<list<text>>, argument_names frozen<list<text>>, body text,"
          + " called_on_null_input boolean, language text, return_type text,"
          + " PRIMARY KEY ((keyspace_name), function_name, argument_types))",
      "CREATE TABLE system_schema.aggregates (keyspace_name text, aggregate_name text,"
          + " argument_types frozen<list<text>>, final_func text, initcond text, return_type text,"
          + " state_func text, state_type text,"
          + " PRIMARY KEY ((keyspace_name), aggregate_name, argument_types))",
      "CREATE TABLE system_schema.indexes (keyspace_name text, table_name text, index_name text,"
          + " kind text, options frozen<map<text, text>>,"
          + " PRIMARY KEY ((keyspace_name), table_name, index_name))",
  };

  /** Cassandra 5.0's trace tables (served from memory by {@link TraceStore}); comments and gc_grace as there. */
  private static final String[] TRACES_TABLES = {
      "CREATE TABLE system_traces.sessions (session_id uuid PRIMARY KEY, client inet, command text,"
          + " coordinator inet, coordinator_port int, duration int, parameters map<text, text>,"
          + " request text, started_at timestamp)",
      "CREATE TABLE system_traces.events (session_id uuid, event_id timeuuid, activity text,"
          + " source inet, source_elapsed int, source_port int, thread text,"
          + " PRIMARY KEY ((session_id), event_id))",
  };
  private static final Map<String, String> TRACES_COMMENTS = Map.of(
      "sessions", "tracing sessions", "events", "tracing events");

  private static final String[] VIRTUAL_SCHEMA_TABLES = {
      "CREATE TABLE system_virtual_schema.keyspaces (keyspace_name text PRIMARY KEY)",
      "CREATE TABLE system_virtual_schema.tables (keyspace_name text, table_name text, comment text,"
          + " PRIMARY KEY ((keyspace_name), table_name))",
      "CREATE TABLE system_virtual_schema.columns (keyspace_name text, table_name text,"
          + " column_name text, clustering_order text, column_name_bytes blob, kind text,"
          + " position int, type text, PRIMARY KEY ((keyspace_name), table_name, column_name))",
  };

  private SystemKeyspaces() {}

  public static boolean isSystem(String keyspace) {
    return keyspace.equals(SYSTEM) || keyspace.equals(SCHEMA) || keyspace.equals(VIRTUAL_SCHEMA)
        || keyspace.equals(VIEWS) || keyspace.equals(CASSETTE);
  }

  /** True for keyspaces users may not modify (Cassandra answers UNAUTHORIZED). */
  public static boolean isReadOnly(String keyspace) {
    return isSystem(keyspace);
  }

  /** The built-in keyspaces of every snapshot. */
  public static Map<String, KeyspaceMetadata> builtIn() {
    Map<String, KeyspaceMetadata> m = new LinkedHashMap<>();
    Map<String, String> local = Map.of("class", "org.apache.cassandra.locator.LocalStrategy");
    m.put(SYSTEM, keyspace(SYSTEM, local, SYSTEM_TABLES, false));
    m.put(SCHEMA, keyspace(SCHEMA, local, SCHEMA_TABLES, false));
    m.put(VIRTUAL_SCHEMA, keyspace(VIRTUAL_SCHEMA, local, VIRTUAL_SCHEMA_TABLES, true));
    m.put(AUTH, new KeyspaceMetadata(AUTH, simple("1"), true, Map.of(), Map.of(), false));
    m.put(DISTRIBUTED, new KeyspaceMetadata(DISTRIBUTED, simple("3"), true, Map.of(), Map.of(), false));
    m.put(TRACES, keyspace(TRACES, simple("2"), TRACES_TABLES, false));
    return m;
  }

  private static Map<String, String> simple(String rf) {
    return Map.of("class", "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", rf);
  }

  private static KeyspaceMetadata keyspace(String name, Map<String, String> replication,
                                           String[] ddl, boolean virtual) {
    Map<String, TableMetadata> tables = new LinkedHashMap<>();
    for (String d : ddl) {
      Statement.CreateTable ct = (Statement.CreateTable) Parser.parse(d);
      List<ColumnMetadata> cols = new ArrayList<>();
      int ck = 0;
      for (Statement.ColumnDef c : ct.columns()) {
        ColumnMetadata.Kind kind = ColumnMetadata.Kind.REGULAR;
        int pos = -1;
        if (ct.partitionKey().contains(c.name())) {
          kind = ColumnMetadata.Kind.PARTITION_KEY;
          pos = ct.partitionKey().indexOf(c.name());
        } else if (ct.clusteringKey().contains(c.name())) {
          kind = ColumnMetadata.Kind.CLUSTERING;
          pos = ct.clusteringKey().indexOf(c.name());
        }
        cols.add(new ColumnMetadata(c.name(), TypeResolver.resolve(c.type(), null), kind, pos, false));
        ck++;
      }
      String table = ct.name().name();
      UUID id = UUID.nameUUIDFromBytes((name + "." + table).getBytes(StandardCharsets.UTF_8));
      TableOptions opts = TableOptions.defaults();
      if (name.equals(TRACES)) {
        TableOptions o = opts;
        opts = new TableOptions(TRACES_COMMENTS.get(table), o.bloomFilterFpChance(), o.caching(), o.compaction(),
            o.compression(), o.crcCheckChance(), o.defaultTimeToLive(), 0, o.maxIndexInterval(),
            o.minIndexInterval(), o.memtableFlushPeriodInMs(), o.speculativeRetry(), o.additionalWritePolicy(),
            o.readRepair(), o.cdc(), o.extensions());
      }
      tables.put(table, new TableMetadata(name, table, id, cols, opts, Map.of(), true));
    }
    return new KeyspaceMetadata(name, replication, true, tables, Map.of(), virtual);
  }
}
