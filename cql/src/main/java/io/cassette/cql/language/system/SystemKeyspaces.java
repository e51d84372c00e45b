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
      "CREATE TABLE system.built_views (keyspace_name text, view_name text, status_replicated boolean,"
          + " PRIMARY KEY ((keyspace_name), view_name))",
      "CREATE TABLE system.view_builds_in_progress (keyspace_name text, view_name text, start_token text,"
          + " end_token text, last_token text, keys_built bigint,"
          + " PRIMARY KEY ((keyspace_name), view_name, start_token, end_token))",
  };

  /** system_distributed as Cassandra 5.0 declares it; only view_build_status has rows here. */
  private static final String[] DISTRIBUTED_TABLES = {
      "CREATE TABLE system_distributed.parent_repair_history (parent_id timeuuid PRIMARY KEY,"
          + " columnfamily_names set<text>, exception_message text, exception_stacktrace text,"
          + " finished_at timestamp, keyspace_name text, options map<text, text>, requested_ranges set<text>,"
          + " started_at timestamp, successful_ranges set<text>)",
      "CREATE TABLE system_distributed.partition_denylist (ks_name text, table_name text, key blob,"
          + " PRIMARY KEY ((ks_name, table_name), key))",
      "CREATE TABLE system_distributed.repair_history (keyspace_name text, columnfamily_name text, id timeuuid,"
          + " coordinator inet, coordinator_port int, exception_message text, exception_stacktrace text,"
          + " finished_at timestamp, parent_id timeuuid, participants set<inet>, participants_v2 set<text>,"
          + " range_begin text, range_end text, started_at timestamp, status text,"
          + " PRIMARY KEY ((keyspace_name, columnfamily_name), id))",
      "CREATE TABLE system_distributed.view_build_status (keyspace_name text, view_name text, host_id uuid,"
          + " status text, PRIMARY KEY ((keyspace_name, view_name), host_id))",
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
          + " dclocal_read_repair_chance double,"
          + " default_time_to_live int, extensions frozen<map<text, blob>>, gc_grace_seconds int,"
          + " id uuid, include_all_columns boolean, incremental_backups boolean,"
          + " max_index_interval int, memtable text, memtable_flush_period_in_ms int,"
          + " min_index_interval int, read_repair text, read_repair_chance double, speculative_retry text,"
          + " where_clause text, PRIMARY KEY ((keyspace_name), view_name))",
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

  /**
   * Cassandra 5.0.4's system_views tables: name, comment and definition, column for column as its
   * system_virtual_schema.columns lists them (read from the anchor). {@link SystemTables} fills
   * settings, system_properties, clients and caches; the others answer with no rows.
   */
  private static final String[][] VIEWS_TABLES = {
      {"batch_metrics", "Metrics specific to batch statements",
          "CREATE TABLE system_views.batch_metrics (\"max\" bigint, \"name\" text, \"p50th\" double, \"p999th\" double, \"p99th\" double, PRIMARY KEY ((\"name\")))"},
      {"caches", "system caches",
          "CREATE TABLE system_views.caches (\"capacity_bytes\" bigint, \"entry_count\" int, \"hit_count\" bigint, \"hit_ratio\" double, \"name\" text, \"recent_hit_rate_per_second\" bigint, \"recent_request_rate_per_second\" bigint, \"request_count\" bigint, \"size_bytes\" bigint, PRIMARY KEY ((\"name\")))"},
      {"cidr_filtering_metrics_counts", "Count metrics specific to CIDR filtering",
          "CREATE TABLE system_views.cidr_filtering_metrics_counts (\"name\" text, \"value\" bigint, PRIMARY KEY ((\"name\")))"},
      {"cidr_filtering_metrics_latencies", "Latency metrics specific to CIDR filtering",
          "CREATE TABLE system_views.cidr_filtering_metrics_latencies (\"max\" double, \"name\" text, \"p50th\" double, \"p95th\" double, \"p999th\" double, \"p99th\" double, PRIMARY KEY ((\"name\")))"},
      {"clients", "currently connected clients",
          "CREATE TABLE system_views.clients (\"address\" inet, \"client_options\" frozen<map<text, text>>, \"connection_stage\" text, \"driver_name\" text, \"driver_version\" text, \"hostname\" text, \"keyspace_name\" text, \"port\" int, \"protocol_version\" int, \"request_count\" bigint, \"ssl_cipher_suite\" text, \"ssl_enabled\" boolean, \"ssl_protocol\" text, \"username\" text, PRIMARY KEY ((\"address\"), \"port\"))"},
      {"coordinator_read_latency", "",
          "CREATE TABLE system_views.coordinator_read_latency (\"count\" bigint, \"keyspace_name\" text, \"max_ms\" double, \"p50th_ms\" double, \"p99th_ms\" double, \"per_second\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"coordinator_scan_latency", "",
          "CREATE TABLE system_views.coordinator_scan_latency (\"count\" bigint, \"keyspace_name\" text, \"max_ms\" double, \"p50th_ms\" double, \"p99th_ms\" double, \"per_second\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"coordinator_write_latency", "",
          "CREATE TABLE system_views.coordinator_write_latency (\"count\" bigint, \"keyspace_name\" text, \"max_ms\" double, \"p50th_ms\" double, \"p99th_ms\" double, \"per_second\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"cql_metrics", "Metrics specific to CQL prepared statement caching",
          "CREATE TABLE system_views.cql_metrics (\"name\" text, \"value\" double, PRIMARY KEY ((\"name\")))"},
      {"credentials_cache_keys", "keys in the credentials cache",
          "CREATE TABLE system_views.credentials_cache_keys (\"role\" text, PRIMARY KEY ((\"role\")))"},
      {"disk_usage", "",
          "CREATE TABLE system_views.disk_usage (\"keyspace_name\" text, \"mebibytes\" bigint, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"gossip_info", "lists the gossip information for the cluster",
          "CREATE TABLE system_views.gossip_info (\"address\" inet, \"dc\" text, \"dc_version\" int, \"disk_usage\" text, \"disk_usage_version\" int, \"generation\" int, \"heartbeat\" int, \"host_id\" text, \"host_id_version\" int, \"hostname\" text, \"index_status\" text, \"index_status_version\" int, \"internal_address_and_port\" text, \"internal_address_and_port_version\" int, \"internal_ip\" text, \"internal_ip_version\" int, \"load\" text, \"load_version\" int, \"native_address_and_port\" text, \"native_address_and_port_version\" int, \"net_version\" text, \"net_version_version\" int, \"port\" int, \"rack\" text, \"rack_version\" int, \"release_version\" text, \"release_version_version\" int, \"removal_coordinator\" text, \"removal_coordinator_version\" int, \"rpc_address\" text, \"rpc_address_version\" int, \"rpc_ready\" text, \"rpc_ready_version\" int, \"schema\" text, \"schema_version\" int, \"severity\" text, \"severity_version\" int, \"sstable_versions\" text, \"sstable_versions_version\" int, \"status\" text, \"status_version\" int, \"status_with_port\" text, \"status_with_port_version\" int, \"tokens_version\" int, \"x1\" text, \"x10\" text, \"x10_version\" int, \"x1_version\" int, \"x2\" text, \"x2_version\" int, \"x3\" text, \"x3_version\" int, \"x4\" text, \"x4_version\" int, \"x5\" text, \"x5_version\" int, \"x6\" text, \"x6_version\" int, \"x7\" text, \"x7_version\" int, \"x8\" text, \"x8_version\" int, \"x9\" text, \"x9_version\" int, \"x_11_padding\" text, \"x_11_padding_version\" int, PRIMARY KEY ((\"address\"), \"port\"))"},
      {"internode_inbound", "",
          "CREATE TABLE system_views.internode_inbound (\"address\" inet, \"corrupt_frames_recovered\" bigint, \"corrupt_frames_unrecovered\" bigint, \"dc\" text, \"error_bytes\" bigint, \"error_count\" bigint, \"expired_bytes\" bigint, \"expired_count\" bigint, \"port\" int, \"processed_bytes\" bigint, \"processed_count\" bigint, \"rack\" text, \"received_bytes\" bigint, \"received_count\" bigint, \"scheduled_bytes\" bigint, \"scheduled_count\" bigint, \"throttled_count\" bigint, \"throttled_nanos\" bigint, \"using_bytes\" bigint, \"using_reserve_bytes\" bigint, PRIMARY KEY ((\"address\", \"port\"), \"dc\", \"rack\"))"},
      {"internode_outbound", "",
          "CREATE TABLE system_views.internode_outbound (\"active_connections\" bigint, \"address\" inet, \"connection_attempts\" bigint, \"dc\" text, \"error_bytes\" bigint, \"error_count\" bigint, \"expired_bytes\" bigint, \"expired_count\" bigint, \"overload_bytes\" bigint, \"overload_count\" bigint, \"pending_bytes\" bigint, \"pending_count\" bigint, \"port\" int, \"rack\" text, \"sent_bytes\" bigint, \"sent_count\" bigint, \"successful_connection_attempts\" bigint, \"using_bytes\" bigint, \"using_reserve_bytes\" bigint, PRIMARY KEY ((\"address\", \"port\"), \"dc\", \"rack\"))"},
      {"jmx_permissions_cache_keys", "keys in the JMX permissions cache",
          "CREATE TABLE system_views.jmx_permissions_cache_keys (\"role\" text, PRIMARY KEY ((\"role\")))"},
      {"local_read_latency", "",
          "CREATE TABLE system_views.local_read_latency (\"count\" bigint, \"keyspace_name\" text, \"max_ms\" double, \"p50th_ms\" double, \"p99th_ms\" double, \"per_second\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"local_scan_latency", "",
          "CREATE TABLE system_views.local_scan_latency (\"count\" bigint, \"keyspace_name\" text, \"max_ms\" double, \"p50th_ms\" double, \"p99th_ms\" double, \"per_second\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"local_write_latency", "",
          "CREATE TABLE system_views.local_write_latency (\"count\" bigint, \"keyspace_name\" text, \"max_ms\" double, \"p50th_ms\" double, \"p99th_ms\" double, \"per_second\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"max_partition_size", "",
          "CREATE TABLE system_views.max_partition_size (\"keyspace_name\" text, \"mebibytes\" bigint, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"max_sstable_duration", "",
          "CREATE TABLE system_views.max_sstable_duration (\"keyspace_name\" text, \"max_sstable_duration\" bigint, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"max_sstable_size", "",
          "CREATE TABLE system_views.max_sstable_size (\"keyspace_name\" text, \"mebibytes\" bigint, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"network_permissions_cache_keys", "keys in the network permissions cache",
          "CREATE TABLE system_views.network_permissions_cache_keys (\"role\" text, PRIMARY KEY ((\"role\")))"},
      {"pending_hints", "Pending hints that this node has for other nodes",
          "CREATE TABLE system_views.pending_hints (\"address\" inet, \"dc\" text, \"files\" int, \"host_id\" uuid, \"newest\" timestamp, \"oldest\" timestamp, \"port\" int, \"rack\" text, \"status\" text, PRIMARY KEY ((\"host_id\")))"},
      {"permissions_cache_keys", "keys in the permissions cache",
          "CREATE TABLE system_views.permissions_cache_keys (\"resource\" text, \"role\" text, PRIMARY KEY ((\"role\", \"resource\")))"},
      {"queries", "Lists currently running queries",
          "CREATE TABLE system_views.queries (\"queued_micros\" bigint, \"running_micros\" bigint, \"task\" text, \"thread_id\" text, PRIMARY KEY ((\"thread_id\")))"},
      {"repair_jobs", "Repair job",
          "CREATE TABLE system_views.repair_jobs (\"completed\" boolean, \"duration_millis\" bigint, \"failure_cause\" text, \"id\" uuid, \"keyspace_name\" text, \"last_updated_at\" timestamp, \"participants\" frozen<list<text>>, \"ranges\" frozen<list<text>>, \"repair_id\" timeuuid, \"session_id\" timeuuid, \"state_failure_timestamp\" timestamp, \"state_init_timestamp\" timestamp, \"state_skipped_timestamp\" timestamp, \"state_snapshot_complete_timestamp\" timestamp, \"state_snapshot_start_timestamp\" timestamp, \"state_start_timestamp\" timestamp, \"state_stream_start_timestamp\" timestamp, \"state_success_timestamp\" timestamp, \"state_validation_complete_timestamp\" timestamp, \"state_validation_start_timestamp\" timestamp, \"status\" text, \"success_message\" text, \"table_name\" text, PRIMARY KEY ((\"id\")))"},
      {"repair_participates", "Repair participate summary",
          "CREATE TABLE system_views.repair_participates (\"completed\" boolean, \"duration_millis\" bigint, \"failure_cause\" text, \"global\" boolean, \"id\" timeuuid, \"incremental\" boolean, \"initiator\" text, \"last_updated_at\" timestamp, \"preview_kind\" text, \"ranges\" frozen<list<text>>, \"repaired_at\" timestamp, \"state_failure_timestamp\" timestamp, \"state_init_timestamp\" timestamp, \"state_skipped_timestamp\" timestamp, \"state_success_timestamp\" timestamp, \"success_message\" text, \"tables\" frozen<set<text>>, \"validations\" frozen<set<uuid>>, PRIMARY KEY ((\"id\")))"},
      {"repair_sessions", "Repair session",
          "CREATE TABLE system_views.repair_sessions (\"completed\" boolean, \"duration_millis\" bigint, \"failure_cause\" text, \"id\" timeuuid, \"jobs\" frozen<set<uuid>>, \"keyspace_name\" text, \"last_updated_at\" timestamp, \"participants\" frozen<list<text>>, \"ranges\" frozen<list<text>>, \"repair_id\" timeuuid, \"state_failure_timestamp\" timestamp, \"state_init_timestamp\" timestamp, \"state_jobs_start_timestamp\" timestamp, \"state_skipped_timestamp\" timestamp, \"state_start_timestamp\" timestamp, \"state_success_timestamp\" timestamp, \"status\" text, \"success_message\" text, \"table_names\" frozen<list<text>>, PRIMARY KEY ((\"id\")))"},
      {"repair_validations", "Repair validation",
          "CREATE TABLE system_views.repair_validations (\"bytes_read\" bigint, \"completed\" boolean, \"duration_millis\" bigint, \"estimated_partitions\" bigint, \"estimated_total_bytes\" bigint, \"failure_cause\" text, \"id\" uuid, \"initiator\" text, \"keyspace_name\" text, \"last_updated_at\" timestamp, \"partitions_processed\" bigint, \"progress_percentage\" float, \"ranges\" frozen<list<text>>, \"repair_id\" timeuuid, \"session_id\" timeuuid, \"state_accept_timestamp\" timestamp, \"state_failure_timestamp\" timestamp, \"state_init_timestamp\" timestamp, \"state_sending_trees_timestamp\" timestamp, \"state_skipped_timestamp\" timestamp, \"state_start_timestamp\" timestamp, \"state_success_timestamp\" timestamp, \"status\" text, \"success_message\" text, \"table_name\" text, PRIMARY KEY ((\"id\")))"},
      {"repairs", "Repair summary",
          "CREATE TABLE system_views.repairs (\"command_id\" int, \"completed\" boolean, \"duration_millis\" bigint, \"failure_cause\" text, \"id\" timeuuid, \"keyspace_name\" text, \"last_updated_at\" timestamp, \"options_column_families\" frozen<set<text>>, \"options_data_centers\" frozen<set<text>>, \"options_force_repair\" boolean, \"options_hosts\" frozen<set<text>>, \"options_ignore_unreplicated_keyspaces\" boolean, \"options_incremental\" boolean, \"options_job_threads\" int, \"options_optimise_streams\" boolean, \"options_parallelism\" text, \"options_preview_kind\" text, \"options_primary_range\" boolean, \"options_pull_repair\" boolean, \"options_ranges\" frozen<set<text>>, \"options_subrange_repair\" boolean, \"options_trace\" boolean, \"participants\" frozen<list<text>>, \"ranges\" frozen<list<frozen<list<text>>>>, \"sessions\" frozen<set<timeuuid>>, \"state_failure_timestamp\" timestamp, \"state_init_timestamp\" timestamp, \"state_prepare_complete_timestamp\" timestamp, \"state_prepare_start_timestamp\" timestamp, \"state_repair_complete_timestamp\" timestamp, \"state_repair_start_timestamp\" timestamp, \"state_setup_timestamp\" timestamp, \"state_skipped_timestamp\" timestamp, \"state_start_timestamp\" timestamp, \"state_success_timestamp\" timestamp, \"status\" text, \"success_message\" text, \"table_names\" frozen<list<text>>, \"type\" text, \"unfiltered_ranges\" frozen<list<frozen<list<text>>>>, PRIMARY KEY ((\"id\")))"},
      {"roles_cache_keys", "keys in the roles cache",
          "CREATE TABLE system_views.roles_cache_keys (\"role\" text, PRIMARY KEY ((\"role\")))"},
      {"rows_per_read", "",
          "CREATE TABLE system_views.rows_per_read (\"count\" bigint, \"keyspace_name\" text, \"max\" double, \"p50th\" double, \"p99th\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
      {"sai_column_indexes", "Storage-attached column index metadata",
          "CREATE TABLE system_views.sai_column_indexes (\"analyzer\" text, \"column_name\" text, \"index_name\" text, \"is_building\" boolean, \"is_queryable\" boolean, \"is_string\" boolean, \"keyspace_name\" text, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\"), \"index_name\"))"},
      {"sai_sstable_index_segments", "SSTable index segment metadata",
          "CREATE TABLE system_views.sai_sstable_index_segments (\"cell_count\" bigint, \"column_name\" text, \"component_metadata\" frozen<map<text, frozen<map<text, text>>>>, \"end_token\" text, \"index_name\" text, \"keyspace_name\" text, \"max_sstable_row_id\" bigint, \"max_term\" text, \"min_sstable_row_id\" bigint, \"min_term\" text, \"segment_row_id_offset\" bigint, \"sstable_name\" text, \"start_token\" text, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\"), \"index_name\", \"sstable_name\", \"segment_row_id_offset\"))"},
      {"sai_sstable_indexes", "SSTable index metadata",
          "CREATE TABLE system_views.sai_sstable_indexes (\"cell_count\" bigint, \"column_name\" text, \"end_token\" text, \"format_version\" text, \"index_name\" text, \"keyspace_name\" text, \"max_row_id\" bigint, \"min_row_id\" bigint, \"per_column_disk_size\" bigint, \"per_table_disk_size\" bigint, \"sstable_name\" text, \"start_token\" text, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\"), \"index_name\", \"sstable_name\"))"},
      {"settings", "current settings",
          "CREATE TABLE system_views.settings (\"name\" text, \"value\" text, PRIMARY KEY ((\"name\")))"},
      {"snapshots", "available snapshots",
          "CREATE TABLE system_views.snapshots (\"created_at\" timestamp, \"ephemeral\" boolean, \"expires_at\" timestamp, \"keyspace_name\" text, \"name\" text, \"size_on_disk\" bigint, \"table_name\" text, \"true_size\" bigint, PRIMARY KEY ((\"name\"), \"keyspace_name\", \"table_name\"))"},
      {"sstable_tasks", "current sstable tasks",
          "CREATE TABLE system_views.sstable_tasks (\"completion_ratio\" double, \"keyspace_name\" text, \"kind\" text, \"progress\" bigint, \"sstables\" int, \"table_name\" text, \"target_directory\" text, \"task_id\" timeuuid, \"total\" bigint, \"unit\" text, PRIMARY KEY ((\"keyspace_name\"), \"table_name\", \"task_id\"))"},
      {"streaming", "",
          "CREATE TABLE system_views.streaming (\"bytes_received\" bigint, \"bytes_sent\" bigint, \"bytes_to_receive\" bigint, \"bytes_to_send\" bigint, \"duration_millis\" bigint, \"failure_cause\" text, \"files_received\" bigint, \"files_sent\" bigint, \"files_to_receive\" bigint, \"files_to_send\" bigint, \"follower\" boolean, \"id\" timeuuid, \"last_updated_at\" timestamp, \"operation\" text, \"peers\" frozen<list<text>>, \"progress_percentage\" float, \"status\" text, \"status_failure_timestamp\" timestamp, \"status_init_timestamp\" timestamp, \"status_start_timestamp\" timestamp, \"status_success_timestamp\" timestamp, \"success_message\" text, PRIMARY KEY ((\"id\")))"},
      {"system_logs", "Cassandra logs",
          "CREATE TABLE system_views.system_logs (\"level\" text, \"logger\" text, \"message\" text, \"order_in_millisecond\" int, \"timestamp\" timestamp, PRIMARY KEY ((\"timestamp\"), \"order_in_millisecond\"))"},
      {"system_properties", "Cassandra relevant system properties",
          "CREATE TABLE system_views.system_properties (\"name\" text, \"value\" text, PRIMARY KEY ((\"name\")))"},
      {"thread_pools", "",
          "CREATE TABLE system_views.thread_pools (\"active_tasks\" int, \"active_tasks_limit\" int, \"blocked_tasks\" bigint, \"blocked_tasks_all_time\" bigint, \"completed_tasks\" bigint, \"name\" text, \"pending_tasks\" int, PRIMARY KEY ((\"name\")))"},
      {"tombstones_per_read", "",
          "CREATE TABLE system_views.tombstones_per_read (\"count\" bigint, \"keyspace_name\" text, \"max\" double, \"p50th\" double, \"p99th\" double, \"table_name\" text, PRIMARY KEY ((\"keyspace_name\", \"table_name\")))"},
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
    String[] viewDdl = new String[VIEWS_TABLES.length];
    Map<String, String> viewComments = new LinkedHashMap<>();
    for (int i = 0; i < VIEWS_TABLES.length; i++) {
      viewDdl[i] = VIEWS_TABLES[i][2];
      viewComments.put(VIEWS_TABLES[i][0], VIEWS_TABLES[i][1]);
    }
    m.put(VIEWS, keyspace(VIEWS, local, viewDdl, true, viewComments));
    m.put(AUTH, new KeyspaceMetadata(AUTH, simple("1"), true, Map.of(), Map.of(), false));
    m.put(DISTRIBUTED, keyspace(DISTRIBUTED, simple("3"), DISTRIBUTED_TABLES, false));
    m.put(TRACES, keyspace(TRACES, simple("2"), TRACES_TABLES, false));
    return m;
  }

  private static Map<String, String> simple(String rf) {
    return Map.of("class", "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", rf);
  }

  private static KeyspaceMetadata keyspace(String name, Map<String, String> replication,
                                           String[] ddl, boolean virtual) {
    return keyspace(name, replication, ddl, virtual, name.equals(TRACES) ? TRACES_COMMENTS : Map.of());
  }

  private static KeyspaceMetadata keyspace(String name, Map<String, String> replication,
                                           String[] ddl, boolean virtual, Map<String, String> comments) {
    Map<String, TableMetadata> tables = new LinkedHashMap<>();
    for (String d : ddl) {
      Statement.CreateTable ct = (Statement.CreateTable) Parser.parseStored(d);
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
      if (comments.containsKey(table)) {
        TableOptions o = opts;
        opts = new TableOptions(comments.get(table), o.bloomFilterFpChance(), o.caching(), o.compaction(),
            o.compression(), o.crcCheckChance(), o.defaultTimeToLive(), name.equals(TRACES) ? 0 : o.gcGraceSeconds(),
            o.maxIndexInterval(),
            o.minIndexInterval(), o.memtableFlushPeriodInMs(), o.speculativeRetry(), o.additionalWritePolicy(),
            o.readRepair(), o.cdc(), o.extensions());
      }
      tables.put(table, new TableMetadata(name, table, id, cols, opts, Map.of(), true));
    }
    return new KeyspaceMetadata(name, replication, true, tables, Map.of(), virtual);
  }
}
