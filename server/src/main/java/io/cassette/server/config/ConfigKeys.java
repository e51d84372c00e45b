package io.cassette.server.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key Cassette reads, in the order {@code conf/cassette.yaml} documents them. Cassandra's
 * names where the meaning is the same, so a Cassandra operator finds their way.
 */
public final class ConfigKeys {
  public static final String CLUSTER_NAME = "cluster_name";
  public static final String DATA_DIRECTORY = "data_directory";
  public static final String DATA_FILE_DIRECTORIES = "data_file_directories";
  public static final String COMMITLOG_DIRECTORY = "commitlog_directory";
  public static final String LISTEN_ADDRESS = "listen_address";
  public static final String NATIVE_TRANSPORT_PORT = "native_transport_port";
  public static final String RESP_PORT = "resp_port";
  public static final String HTTP_PORT = "http_port";
  public static final String COMMITLOG_SYNC = "commitlog_sync";
  public static final String COMMITLOG_SYNC_PERIOD = "commitlog_sync_period";
  public static final String COMMITLOG_SEGMENT_SIZE = "commitlog_segment_size";
  public static final String COMPACTION_THROUGHPUT = "compaction_throughput";
  public static final String TOMBSTONE_WARN_THRESHOLD = "tombstone_warn_threshold";
  public static final String TOMBSTONE_FAILURE_THRESHOLD = "tombstone_failure_threshold";
  public static final String CONCURRENT_COMPACTORS = "concurrent_compactors";
  public static final String MEMTABLE_HEAP_SPACE = "memtable_heap_space";
  public static final String NUM_TOKENS = "num_tokens";
  public static final String ALLOCATE_TOKENS_FOR_LOCAL_REPLICATION_FACTOR = "allocate_tokens_for_local_replication_factor";
  public static final String STREAM_THROUGHPUT_OUTBOUND = "stream_throughput_outbound";
  public static final String REPLACE_ADDRESS_FIRST_BOOT = "replace_address_first_boot";
  public static final String NATIVE_TRANSPORT_MAX_FRAME_SIZE = "native_transport_max_frame_size";
  public static final String NATIVE_TRANSPORT_MAX_MESSAGE_SIZE = "native_transport_max_message_size";
  public static final String MAX_VALUE_SIZE = "max_value_size";
  public static final String NATIVE_TRANSPORT_MAX_REQUEST_DATA_IN_FLIGHT = "native_transport_max_request_data_in_flight";
  public static final String NATIVE_TRANSPORT_MAX_REQUEST_DATA_IN_FLIGHT_PER_IP =
      "native_transport_max_request_data_in_flight_per_ip";
  public static final String NATIVE_TRANSPORT_THROW_ON_OVERLOAD = "native_transport_throw_on_overload";
  public static final String NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS = "native_transport_max_concurrent_connections";
  public static final String NATIVE_TRANSPORT_MAX_THREADS = "native_transport_max_threads";
  public static final String NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS_PER_IP =
      "native_transport_max_concurrent_connections_per_ip";
  /** Ours (Cassandra has none): answers queued to all clients and not yet read, see cql/README.md. */
  public static final String NATIVE_TRANSPORT_MAX_UNREAD_RESPONSE_DATA = "native_transport_max_unread_response_data";
  public static final String PREPARED_STATEMENTS_CACHE_SIZE = "prepared_statements_cache_size";
  public static final String USER_DEFINED_FUNCTIONS_ENABLED = "user_defined_functions_enabled";
  public static final String USER_DEFINED_FUNCTIONS_FAIL_TIMEOUT = "user_defined_functions_fail_timeout";
  /** Cassandra 5.0's dynamic data masking: MASKED WITH refused when false. */
  public static final String DYNAMIC_DATA_MASKING_ENABLED = "dynamic_data_masking_enabled";
  public static final String MATERIALIZED_VIEWS_ENABLED = "materialized_views_enabled";
  /** Cassandra's read-size guardrail: an unpaged SELECT collecting more fails (READ_SIZE). */
  public static final String COORDINATOR_READ_SIZE_FAIL_THRESHOLD = "coordinator_read_size_fail_threshold";
  /** Cassandra 5.0's guardrail: elements one collection write may give. */
  public static final String ITEMS_PER_COLLECTION_FAIL_THRESHOLD = "items_per_collection_fail_threshold";
  /** Ours (Cassandra has none): tokens of one CQL request, see cql/README.md. */
  public static final String CQL_MAX_STATEMENT_TOKENS = "cql_max_statement_tokens";
  /** Ours (Cassandra has none): nesting of terms, selectors, types and JSON values. */
  public static final String CQL_MAX_NESTING_DEPTH = "cql_max_nesting_depth";
  public static final String AUTHENTICATOR = "authenticator";
  public static final String AUTHORIZER = "authorizer";
  public static final String ROLE_MANAGER = "role_manager";
  public static final String NETWORK_AUTHORIZER = "network_authorizer";
  public static final String ROLES_VALIDITY = "roles_validity";
  public static final String PERMISSIONS_VALIDITY = "permissions_validity";
  public static final String CREDENTIALS_VALIDITY = "credentials_validity";
  public static final String AUTH_BCRYPT_GENSALT_LOG2_ROUNDS = "auth_bcrypt_gensalt_log2_rounds";
  public static final String AUTH_READ_CONSISTENCY_LEVEL = "auth_read_consistency_level";
  public static final String AUTH_WRITE_CONSISTENCY_LEVEL = "auth_write_consistency_level";
  public static final String AUTH_INITIAL_SUPERUSER_PASSWORD = "auth_initial_superuser_password";
  public static final String ADMIN_HTTP_TOKEN = "admin_http_token";
  public static final String REQUIREPASS = "requirepass";
  public static final String UNIXSOCKET = "unixsocket";
  public static final String UNIXSOCKETPERM = "unixsocketperm";
  public static final String MAXCLIENTS = "maxclients";
  public static final String RESP_CONSISTENCY = "resp_consistency";
  /** Ours: copies of each Redis key on a ring (the {@code redis} keyspace's SimpleStrategy factor). */
  public static final String RESP_REPLICATION_FACTOR = "resp_replication_factor";
  public static final String PROTO_MAX_BULK_LEN = "proto_max_bulk_len";
  /** Ours (Redis hard-codes 1024*1024): arguments of one Redis command. */
  public static final String PROTO_MAX_MULTIBULK_LEN = "proto_max_multibulk_len";
  public static final String CLIENT_OUTPUT_BUFFER_LIMIT = "client_output_buffer_limit";
  public static final String MAXMEMORY_CLIENTS = "maxmemory_clients";
  public static final String SEED_PROVIDER = "seed_provider";
  public static final String STORAGE_PORT = "storage_port";
  public static final String METADATA_PORT = "metadata_port";
  public static final String METADATA_SERVICE_MEMBERS = "metadata_service_members";
  public static final String DC = "dc";
  public static final String RACK = "rack";
  public static final String PHI_CONVICT_THRESHOLD = "phi_convict_threshold";
  public static final String HEARTBEAT_INTERVAL = "heartbeat_interval";
  public static final String BLOCK_FOR_PEERS_TIMEOUT_IN_SECS = "block_for_peers_timeout_in_secs";
  public static final String HINTED_HANDOFF_ENABLED = "hinted_handoff_enabled";
  public static final String MAX_HINT_WINDOW = "max_hint_window";
  public static final String HINTED_HANDOFF_THROTTLE = "hinted_handoff_throttle";
  public static final String MAX_HINTS_DELIVERY_THREADS = "max_hints_delivery_threads";
  public static final String HINTS_DIRECTORY = "hints_directory";
  public static final String HINTS_FLUSH_PERIOD = "hints_flush_period";
  public static final String MAX_HINTS_FILE_SIZE = "max_hints_file_size";
  public static final String MAX_HINTS_SIZE_PER_HOST = "max_hints_size_per_host";
  public static final String BATCHLOG_REPLAY_THROTTLE = "batchlog_replay_throttle";
  public static final String LATENCY_MONITOR_THRESHOLD = "latency_monitor_threshold";
  public static final String SLOWLOG_LOG_SLOWER_THAN = "slowlog_log_slower_than";
  public static final String SLOWLOG_MAX_LEN = "slowlog_max_len";

  /** Cassandra's nested TLS sections; their keys are "section.key" (docs/tls.md). */
  public static final String CLIENT_ENCRYPTION_OPTIONS = "client_encryption_options";
  public static final String SERVER_ENCRYPTION_OPTIONS = "server_encryption_options";
  /** The admin HTTP port's TLS: ours (Cassandra has none), with the same sub-keys. */
  public static final String HTTP_ENCRYPTION_OPTIONS = "http_encryption_options";
  /** Redis's tls-* keys and aclfile, with '_' for '-' as proto_max_bulk_len. */
  public static final String TLS_PORT = "tls_port";
  public static final String TLS_CERT_FILE = "tls_cert_file";
  public static final String TLS_KEY_FILE = "tls_key_file";
  public static final String TLS_KEY_FILE_PASS = "tls_key_file_pass";
  public static final String TLS_CA_CERT_FILE = "tls_ca_cert_file";
  public static final String TLS_AUTH_CLIENTS = "tls_auth_clients";
  public static final String TLS_PROTOCOLS = "tls_protocols";
  public static final String TLS_CIPHERSUITES = "tls_ciphersuites";
  public static final String ACLFILE = "aclfile";

  private static final Map<String, ConfigKey> KEYS = new LinkedHashMap<>();

  static {
    add(new ConfigKey(CLUSTER_NAME, ValueType.STRING, "Test Cluster"));
    add(new ConfigKey(DATA_DIRECTORY, ValueType.STRING, "./data"));
    add(new ConfigKey(DATA_FILE_DIRECTORIES, ValueType.STRING_LIST, null));
    add(new ConfigKey(COMMITLOG_DIRECTORY, ValueType.STRING, null));
    add(new ConfigKey(LISTEN_ADDRESS, ValueType.STRING, "127.0.0.1"));
    add(new ConfigKey(NATIVE_TRANSPORT_PORT, ValueType.PORT, "9042"));
    add(new ConfigKey(RESP_PORT, ValueType.PORT, "6379"));
    add(new ConfigKey(HTTP_PORT, ValueType.PORT, "9180"));
    add(new ConfigKey(COMMITLOG_SYNC, ValueType.ENUM, "periodic", List.of("periodic", "batch", "group")));
    add(new ConfigKey(COMMITLOG_SYNC_PERIOD, ValueType.DURATION, "10000ms"));
    add(new ConfigKey(COMMITLOG_SEGMENT_SIZE, ValueType.DATA_SIZE, "32MiB"));
    add(new ConfigKey(COMPACTION_THROUGHPUT, ValueType.DATA_RATE, "64MiB/s"));
    add(new ConfigKey(CONCURRENT_COMPACTORS, ValueType.INT, null));
    add(new ConfigKey(MEMTABLE_HEAP_SPACE, ValueType.DATA_SIZE, null));
    add(new ConfigKey(NUM_TOKENS, ValueType.INT, "16"));
    add(new ConfigKey(ALLOCATE_TOKENS_FOR_LOCAL_REPLICATION_FACTOR, ValueType.INT, "3"));
    add(new ConfigKey(STREAM_THROUGHPUT_OUTBOUND, ValueType.DATA_RATE, "24MiB/s"));
    add(new ConfigKey(REPLACE_ADDRESS_FIRST_BOOT, ValueType.STRING, null));
    // CQL door limits: unset means derived from the heap (CqlLimits.forHeap).
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_FRAME_SIZE, ValueType.DATA_SIZE, null));
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_MESSAGE_SIZE, ValueType.DATA_SIZE, null));
    add(new ConfigKey(MAX_VALUE_SIZE, ValueType.DATA_SIZE, null));
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_REQUEST_DATA_IN_FLIGHT, ValueType.DATA_SIZE, null));
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_REQUEST_DATA_IN_FLIGHT_PER_IP, ValueType.DATA_SIZE, null));
    add(new ConfigKey(NATIVE_TRANSPORT_THROW_ON_OVERLOAD, ValueType.BOOLEAN, "false"));
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS, ValueType.INT, null));
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_THREADS, ValueType.INT, null));
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS_PER_IP, ValueType.INT, null));
    add(new ConfigKey(NATIVE_TRANSPORT_MAX_UNREAD_RESPONSE_DATA, ValueType.DATA_SIZE, null));
    add(new ConfigKey(PREPARED_STATEMENTS_CACHE_SIZE, ValueType.DATA_SIZE, null));
    // Java user-defined functions and aggregates: off by default, as in Cassandra 5.0.
    add(new ConfigKey(USER_DEFINED_FUNCTIONS_ENABLED, ValueType.BOOLEAN, "false"));
    add(new ConfigKey(USER_DEFINED_FUNCTIONS_FAIL_TIMEOUT, ValueType.DURATION, "1500ms"));
    add(new ConfigKey(DYNAMIC_DATA_MASKING_ENABLED, ValueType.BOOLEAN, "false"));
    // Materialized views: off by default, as in Cassandra 5.0.
    add(new ConfigKey(MATERIALIZED_VIEWS_ENABLED, ValueType.BOOLEAN, "false"));
    add(new ConfigKey(COORDINATOR_READ_SIZE_FAIL_THRESHOLD, ValueType.DATA_SIZE, null));
    add(new ConfigKey(ITEMS_PER_COLLECTION_FAIL_THRESHOLD, ValueType.INT, null));
    add(new ConfigKey(CQL_MAX_STATEMENT_TOKENS, ValueType.INT, null));
    add(new ConfigKey(CQL_MAX_NESTING_DEPTH, ValueType.INT, null));
    add(new ConfigKey(AUTHENTICATOR, ValueType.ENUM, "allowallauthenticator",
        List.of("allowallauthenticator", "passwordauthenticator", "org.apache.cassandra.auth.allowallauthenticator",
            "org.apache.cassandra.auth.passwordauthenticator")));
    add(new ConfigKey(AUTHORIZER, ValueType.ENUM, "allowallauthorizer",
        List.of("allowallauthorizer", "cassandraauthorizer", "org.apache.cassandra.auth.allowallauthorizer",
            "org.apache.cassandra.auth.cassandraauthorizer")));
    add(new ConfigKey(ROLE_MANAGER, ValueType.ENUM, "cassandrarolemanager",
        List.of("cassandrarolemanager", "org.apache.cassandra.auth.cassandrarolemanager")));
    add(new ConfigKey(NETWORK_AUTHORIZER, ValueType.ENUM, "allowallnetworkauthorizer",
        List.of("allowallnetworkauthorizer", "cassandranetworkauthorizer",
            "org.apache.cassandra.auth.allowallnetworkauthorizer", "org.apache.cassandra.auth.cassandranetworkauthorizer")));
    add(new ConfigKey(ROLES_VALIDITY, ValueType.DURATION, "2000ms"));
    add(new ConfigKey(PERMISSIONS_VALIDITY, ValueType.DURATION, "2000ms"));
    add(new ConfigKey(CREDENTIALS_VALIDITY, ValueType.DURATION, "2000ms"));
    add(new ConfigKey(AUTH_BCRYPT_GENSALT_LOG2_ROUNDS, ValueType.INT, "10"));
    add(new ConfigKey(AUTH_READ_CONSISTENCY_LEVEL, ValueType.ENUM, "local_quorum",
        List.of("one", "two", "three", "quorum", "all", "local_quorum", "each_quorum", "local_one")));
    add(new ConfigKey(AUTH_WRITE_CONSISTENCY_LEVEL, ValueType.ENUM, "each_quorum",
        List.of("one", "two", "three", "quorum", "all", "local_quorum", "each_quorum", "local_one")));
    add(new ConfigKey(AUTH_INITIAL_SUPERUSER_PASSWORD, ValueType.STRING, ""));
    add(new ConfigKey(ADMIN_HTTP_TOKEN, ValueType.STRING, ""));
    add(new ConfigKey(REQUIREPASS, ValueType.STRING, ""));
    add(new ConfigKey(UNIXSOCKET, ValueType.STRING, ""));
    add(new ConfigKey(UNIXSOCKETPERM, ValueType.INT, "700"));
    add(new ConfigKey(MAXCLIENTS, ValueType.INT, "10000"));
    // The level of every Redis read and write through the coordinator (see resp/README.md).
    add(new ConfigKey(RESP_CONSISTENCY, ValueType.ENUM, "quorum",
        List.of("one", "two", "three", "quorum", "all", "local_one", "local_quorum")));
    // Unset: the redis keyspace is created with factor 1 and an existing one is left as it is.
    add(new ConfigKey(RESP_REPLICATION_FACTOR, ValueType.INT, null));
    add(new ConfigKey(PROTO_MAX_BULK_LEN, ValueType.DATA_SIZE, null));
    add(new ConfigKey(PROTO_MAX_MULTIBULK_LEN, ValueType.INT, null));
    add(new ConfigKey(CLIENT_OUTPUT_BUFFER_LIMIT, ValueType.STRING, null));
    add(new ConfigKey(MAXMEMORY_CLIENTS, ValueType.DATA_SIZE, null));
    add(new ConfigKey(LATENCY_MONITOR_THRESHOLD, ValueType.DURATION, "100ms"));
    add(new ConfigKey(SLOWLOG_LOG_SLOWER_THAN, ValueType.INT, "10000"));
    add(new ConfigKey(SLOWLOG_MAX_LEN, ValueType.INT, "128"));
    // The ring: seeds (a comma-separated host list, or Cassandra's nested seed_provider form),
    // internode and metadata ports, location, failure detector. No seeds: a single node.
    add(new ConfigKey(SEED_PROVIDER, ValueType.STRING, ""));
    add(new ConfigKey(STORAGE_PORT, ValueType.PORT, "7000"));
    add(new ConfigKey(METADATA_PORT, ValueType.PORT, "7001"));
    add(new ConfigKey(METADATA_SERVICE_MEMBERS, ValueType.STRING_LIST, null));
    add(new ConfigKey(DC, ValueType.STRING, null));
    add(new ConfigKey(RACK, ValueType.STRING, null));
    add(new ConfigKey(PHI_CONVICT_THRESHOLD, ValueType.STRING, "8"));
    add(new ConfigKey(HEARTBEAT_INTERVAL, ValueType.DURATION, "1000ms"));
    add(new ConfigKey(BLOCK_FOR_PEERS_TIMEOUT_IN_SECS, ValueType.INT, "10"));
    // Hinted handoff and the batch log (issue 16), Cassandra's names. hinted_handoff_throttle
    // and batchlog_replay_throttle are per second, as Cassandra's KiB values are.
    add(new ConfigKey(HINTED_HANDOFF_ENABLED, ValueType.BOOLEAN, "true"));
    add(new ConfigKey(MAX_HINT_WINDOW, ValueType.DURATION, "3h"));
    add(new ConfigKey(HINTED_HANDOFF_THROTTLE, ValueType.DATA_SIZE, "1024KiB"));
    add(new ConfigKey(MAX_HINTS_DELIVERY_THREADS, ValueType.INT, "2"));
    add(new ConfigKey(HINTS_DIRECTORY, ValueType.STRING, null));
    add(new ConfigKey(HINTS_FLUSH_PERIOD, ValueType.DURATION, "10000ms"));
    add(new ConfigKey(MAX_HINTS_FILE_SIZE, ValueType.DATA_SIZE, "128MiB"));
    add(new ConfigKey(MAX_HINTS_SIZE_PER_HOST, ValueType.DATA_SIZE, "64MiB"));
    add(new ConfigKey(BATCHLOG_REPLAY_THROTTLE, ValueType.DATA_SIZE, "1024KiB"));
    // Reads: tombstones met beyond these warn the client / fail the read (Cassandra's defaults).
    add(new ConfigKey(TOMBSTONE_WARN_THRESHOLD, ValueType.INT, "1000"));
    add(new ConfigKey(TOMBSTONE_FAILURE_THRESHOLD, ValueType.INT, "100000"));
    // TLS on every door (docs/tls.md) and the Redis door's users.
    for (String section : List.of(CLIENT_ENCRYPTION_OPTIONS, SERVER_ENCRYPTION_OPTIONS, HTTP_ENCRYPTION_OPTIONS)) {
      if (!section.equals(SERVER_ENCRYPTION_OPTIONS)) {
        add(new ConfigKey(section + ".enabled", ValueType.BOOLEAN, "false"));
      }
      add(new ConfigKey(section + ".optional", ValueType.BOOLEAN, "false"));
      add(new ConfigKey(section + ".keystore", ValueType.STRING, null));
      add(new ConfigKey(section + ".keystore_password", ValueType.STRING, null));
      add(new ConfigKey(section + ".truststore", ValueType.STRING, null));
      add(new ConfigKey(section + ".truststore_password", ValueType.STRING, null));
      add(new ConfigKey(section + ".store_type", ValueType.STRING, null));
      add(new ConfigKey(section + ".protocol", ValueType.STRING, null));
      add(new ConfigKey(section + ".accepted_protocols", ValueType.STRING_LIST, null));
      add(new ConfigKey(section + ".cipher_suites", ValueType.STRING_LIST, null));
      add(new ConfigKey(section + ".require_client_auth", ValueType.ENUM, "false",
          List.of("false", "true", "optional")));
      add(new ConfigKey(section + ".require_endpoint_verification", ValueType.BOOLEAN, "false"));
    }
    add(new ConfigKey(SERVER_ENCRYPTION_OPTIONS + ".internode_encryption", ValueType.ENUM, "none",
        List.of("none", "all", "dc")));
    add(new ConfigKey(TLS_PORT, ValueType.PORT, "0"));
    add(new ConfigKey(TLS_CERT_FILE, ValueType.STRING, null));
    add(new ConfigKey(TLS_KEY_FILE, ValueType.STRING, null));
    add(new ConfigKey(TLS_KEY_FILE_PASS, ValueType.STRING, null));
    add(new ConfigKey(TLS_CA_CERT_FILE, ValueType.STRING, null));
    add(new ConfigKey(TLS_AUTH_CLIENTS, ValueType.ENUM, "yes", List.of("yes", "no", "optional")));
    add(new ConfigKey(TLS_PROTOCOLS, ValueType.STRING, null));
    add(new ConfigKey(TLS_CIPHERSUITES, ValueType.STRING, null));
    add(new ConfigKey(ACLFILE, ValueType.STRING, null));
  }

  /** True when {@code name} is a nested section whose keys are "name.key". */
  static boolean isSection(String name) {
    return name.equals(CLIENT_ENCRYPTION_OPTIONS) || name.equals(SERVER_ENCRYPTION_OPTIONS)
        || name.equals(HTTP_ENCRYPTION_OPTIONS);
  }

  private ConfigKeys() {}

  private static void add(ConfigKey key) {
    KEYS.put(key.name(), key);
  }

  static ConfigKey get(String name) {
    return KEYS.get(name);
  }

  static Iterable<ConfigKey> all() {
    return KEYS.values();
  }
}
