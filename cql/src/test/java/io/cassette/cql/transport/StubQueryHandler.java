package io.cassette.cql.transport;

import io.cassette.cql.BatchStatement;
import io.cassette.cql.ClientState;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlException;
import io.cassette.cql.CqlType;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.QueryHandler;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import io.cassette.cql.ResultMetadataId;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A test-only QueryHandler, enough for drivers to connect (system.local, peers, empty schema
 * tables) and for transport features to be exercised on one toy table {@code ks.kv (k int
 * PRIMARY KEY, v text)}: INSERT, SELECT one key, SELECT all with paging, BATCH, prepared
 * statements, and a few statements that fail on purpose ("FAIL ...").
 */
final class StubQueryHandler implements QueryHandler {
  static final CqlType INT = new CqlType.NativeType(CqlType.Native.INT);
  static final CqlType TEXT = new CqlType.NativeType(CqlType.Native.TEXT);
  static final CqlType UUID_TYPE = new CqlType.NativeType(CqlType.Native.UUID);
  static final CqlType INET = new CqlType.NativeType(CqlType.Native.INET);
  static final UUID HOST_ID = UUID.fromString("5b8b7e4c-1c3a-4a0e-9a51-0f3d2b7c9e11");
  static final UUID SCHEMA_VERSION = UUID.fromString("e84b6a60-24cf-30ca-9b58-452d92911703");

  final NavigableMap<Integer, String> kv = new ConcurrentSkipListMap<>();
  private final Map<String, String> prepared = new ConcurrentHashMap<>();
  private final List<Consumer<Result.SchemaChange>> listeners = new CopyOnWriteArrayList<>();
  /** Last options seen by query/execute, for tests that check flag decoding. */
  volatile QueryOptions lastOptions;
  /** SLEEP statements running now, and the most ever seen at once. */
  final java.util.concurrent.atomic.AtomicInteger active = new java.util.concurrent.atomic.AtomicInteger();
  final java.util.concurrent.atomic.AtomicInteger maxActive = new java.util.concurrent.atomic.AtomicInteger();

  @Override
  public Result query(String query, QueryOptions options, ClientState state) {
    lastOptions = options;
    return run(query, options.values(), options, state);
  }

  @Override
  public Result.Prepared prepare(String query, String keyspace, ClientState state) {
    byte[] id = md5(query);
    prepared.put(hex(id), query);
    String q = query.toLowerCase(Locale.ROOT);
    List<ColumnSpec> vars = new ArrayList<>();
    List<ColumnSpec> results = List.of();
    int[] pk = new int[0];
    if (q.startsWith("insert into ks.kv")) {
      vars.add(col("k", INT));
      vars.add(col("v", TEXT));
      pk = new int[] {0};
    } else if (q.startsWith("select v from ks.kv where k")) {
      vars.add(col("k", INT));
      pk = new int[] {0};
      results = List.of(col("v", TEXT));
    } else if (q.startsWith("select k, v from ks.kv")) {
      results = List.of(col("k", INT), col("v", TEXT));
    } else if (q.startsWith("select")) {
      results = List.of(new ColumnSpec("system", "local", "key", TEXT));
    }
    return new Result.Prepared(id, ResultMetadataId.compute(results), vars, pk, results);
  }

  @Override
  public Result execute(byte[] id, byte[] resultMetadataId, QueryOptions options, ClientState state) {
    lastOptions = options;
    String query = prepared.get(hex(id));
    if (query == null) {
      throw new CqlException.Unprepared(id, "Prepared query with ID " + hex(id) + " not found");
    }
    return run(query, options.values(), options, state);
  }

  @Override
  public Result batch(int type, List<BatchStatement> statements, QueryOptions options, ClientState state) {
    lastOptions = options;
    for (BatchStatement s : statements) {
      String query = s.query() != null ? s.query() : prepared.get(hex(s.preparedId()));
      if (query == null) {
        throw new CqlException.Unprepared(s.preparedId(), "Prepared query not found");
      }
      run(query, s.values(), options, state);
    }
    return Result.Void.INSTANCE;
  }

  @Override
  public void onSchemaChange(Consumer<Result.SchemaChange> listener) {
    listeners.add(listener);
  }

  private Result run(String query, List<ByteBuffer> values, QueryOptions options, ClientState state) {
    String q = query.trim().toLowerCase(Locale.ROOT);
    if (q.startsWith("select") && q.contains("system.local")) {
      return local();
    }
    if (q.startsWith("select") && q.contains("system.peers")) {
      return new Result.Rows(List.of(new ColumnSpec("system", "peers", "peer", INET)), List.of(), null);
    }
    if (q.startsWith("select") && (q.contains("system_schema.") || q.contains("system_virtual_schema."))) {
      return new Result.Rows(List.of(new ColumnSpec("system_schema", "keyspaces", "keyspace_name", TEXT)),
          List.of(), null);
    }
    if (q.startsWith("use ")) {
      String ks = query.trim().substring(4).replace("\"", "").trim();
      state.setKeyspace(ks);
      return new Result.SetKeyspace(ks);
    }
    if (q.startsWith("create table")) {
      Result.SchemaChange change = new Result.SchemaChange("CREATED", "TABLE", "ks", "t" + kv.size(), List.of());
      listeners.forEach(l -> l.accept(change));
      return change;
    }
    if (q.startsWith("insert into ks.kv")) {
      if (values.size() == 2) {
        kv.put(values.get(0).duplicate().getInt(), StandardCharsets.UTF_8.decode(values.get(1).duplicate()).toString());
      } else {
        // INSERT INTO ks.kv (k, v) VALUES (1, 'one')
        String inside = query.substring(query.lastIndexOf('(') + 1, query.lastIndexOf(')'));
        String[] parts = inside.split(",", 2);
        kv.put(Integer.parseInt(parts[0].trim()), parts[1].trim().replace("'", ""));
      }
      return Result.Void.INSTANCE;
    }
    if (q.startsWith("select v from ks.kv where k")) {
      String v = kv.get(values.get(0).duplicate().getInt());
      List<List<ByteBuffer>> rows = v == null ? List.of() : List.of(List.of(utf8(v)));
      return new Result.Rows(List.of(col("v", TEXT)), rows, null);
    }
    if (q.startsWith("select k, v from ks.kv")) {
      int from = options.pagingState() == null ? Integer.MIN_VALUE : options.pagingState().duplicate().getInt();
      int pageSize = options.pageSize() > 0 ? options.pageSize() : Integer.MAX_VALUE;
      List<List<ByteBuffer>> rows = new ArrayList<>();
      ByteBuffer next = null;
      for (Map.Entry<Integer, String> e : kv.tailMap(from, true).entrySet()) {
        if (rows.size() == pageSize) {
          next = ByteBuffer.allocate(4).putInt(0, e.getKey());
          break;
        }
        rows.add(List.of(ByteBuffer.allocate(4).putInt(0, e.getKey()), utf8(e.getValue())));
      }
      return new Result.Rows(List.of(col("k", INT), col("v", TEXT)), rows, next);
    }
    if (q.startsWith("big ")) {
      // A result of N bytes from a short query (slow-reader tests).
      return new Result.Rows(List.of(col("v", TEXT)), List.of(List.of(ByteBuffer.wrap(
          new byte[Integer.parseInt(q.substring(4).trim())]))), null);
    }
    if (q.startsWith("echo ")) {
      return new Result.Rows(List.of(col("v", TEXT)), List.of(List.of(utf8(query.substring(5)))), null);
    }
    if (q.startsWith("fail syntax")) {
      throw new CqlException(ErrorCode.SYNTAX_ERROR, "line 1:0 no viable alternative at input 'FAIL'");
    }
    if (q.startsWith("fail unavailable")) {
      throw new CqlException.Unavailable(io.cassette.cql.Consistency.QUORUM, 2, 1, "Cannot achieve consistency level QUORUM");
    }
    if (q.startsWith("fail exists")) {
      throw new CqlException.AlreadyExists("ks", "kv", "Cannot add already existing table \"kv\" to keyspace \"ks\"");
    }
    if (q.startsWith("fail crash")) {
      throw new IllegalStateException("boom");
    }
    if (q.startsWith("warn")) {
      io.cassette.cql.ClientWarnings.add("careful");
      return Result.Void.INSTANCE;
    }
    if (q.startsWith("sleep")) {
      int now = active.incrementAndGet();
      maxActive.accumulateAndGet(now, Math::max);
      try {
        Thread.sleep(Long.parseLong(q.substring(6).trim()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        active.decrementAndGet();
      }
      return Result.Void.INSTANCE;
    }
    throw new CqlException(ErrorCode.INVALID, "unconfigured statement in stub: " + query);
  }

  private static ColumnSpec col(String name, CqlType type) {
    return new ColumnSpec("ks", "kv", name, type);
  }

  private static Result.Rows local() {
    String[][] cols = {
        {"key", "text"}, {"bootstrapped", "text"}, {"broadcast_address", "inet"}, {"cluster_name", "text"},
        {"cql_version", "text"}, {"data_center", "text"}, {"host_id", "uuid"}, {"listen_address", "inet"},
        {"native_protocol_version", "text"}, {"partitioner", "text"}, {"rack", "text"},
        {"release_version", "text"}, {"rpc_address", "inet"}, {"schema_version", "uuid"}, {"tokens", "set"}};
    List<ColumnSpec> specs = new ArrayList<>();
    for (String[] c : cols) {
      CqlType type = switch (c[1]) {
        case "inet" -> INET;
        case "uuid" -> UUID_TYPE;
        case "set" -> new CqlType.SetType(TEXT, false);
        default -> TEXT;
      };
      specs.add(new ColumnSpec("system", "local", c[0], type));
    }
    ByteBuffer loopback = ByteBuffer.wrap(InetAddress.getLoopbackAddress().getAddress());
    ByteBuffer tokens = ByteBuffer.allocate(4 + 4 + 1);
    tokens.putInt(1).putInt(1).put((byte) '0').flip();
    List<ByteBuffer> row = List.of(utf8("local"), utf8("COMPLETED"), loopback, utf8("Test Cluster"), utf8("3.4.7"),
        utf8("datacenter1"), uuid(HOST_ID), loopback, utf8("5"), utf8("org.apache.cassandra.dht.Murmur3Partitioner"),
        utf8("rack1"), utf8("5.0.4"), loopback, uuid(SCHEMA_VERSION), tokens);
    return new Result.Rows(specs, List.of(row), null);
  }

  static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private static ByteBuffer uuid(UUID u) {
    return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).flip();
  }

  private static byte[] md5(String s) {
    try {
      return MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x", x));
    }
    return sb.toString();
  }
}
