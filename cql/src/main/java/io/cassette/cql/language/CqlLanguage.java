package io.cassette.cql.language;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.cql.BatchStatement;
import io.cassette.cql.ClientState;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Consistency;
import io.cassette.cql.ReplicaException;
import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.QueryHandler;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import io.cassette.cql.ResultMetadataId;
import io.cassette.cql.auth.AccessControl;
import io.cassette.cql.auth.AuthSettings;
import io.cassette.cql.auth.AuthStatementParser;
import io.cassette.cql.auth.PreparedAuthStatement;
import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.parser.StatementLimits;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.language.statements.BatchExecution;
import io.cassette.cql.language.statements.Executable;
import io.cassette.cql.language.statements.MicrosClock;
import io.cassette.cql.language.statements.ModificationStatement;
import io.cassette.cql.language.statements.QueryContext;
import io.cassette.cql.language.statements.SelectStatement;
import io.cassette.cql.language.statements.Services;
import io.cassette.cql.language.statements.StatementCompiler;
import io.cassette.cql.language.statements.ResultSizeLimits;
import io.cassette.cql.language.statements.TombstoneThresholds;
import io.cassette.cql.language.system.TraceStore;
import io.cassette.cql.TraceSession;
import io.cassette.cql.Tracing;
import io.cassette.storage.StorageException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CQL language of Cassette: parses, compiles and executes statements through the
 * coordinator with Cassandra 5.0's semantics, messages and error codes. Thread-safe.
 *
 * <p>Prepared statements are kept by id (MD5 of keyspace + query text, as Cassandra) in a
 * bounded cache that evicts the least recently used (CLOCK, see PreparedCache); each remembers
 * the schema epoch it was compiled against and is recompiled transparently after a schema change.
 */
public final class CqlLanguage implements QueryHandler {
  private static final Logger LOG = LoggerFactory.getLogger(CqlLanguage.class);
  /** Cassandra's RequestFailureReason.UNKNOWN, the reason code of a local storage failure. */
  private static final int FAILURE_REASON_UNKNOWN = 0;
  /** What each statement of a BATCH message costs of the request's token bound besides its text. */
  static final int TOKENS_PER_BATCH_STATEMENT = 8;
  /** Prepared statements kept; beyond this one not executed lately is evicted (PreparedCache). */
  public static final int MAX_PREPARED = 10_000;
  /**
   * Heap the prepared statements may take (estimated, see {@link PreparedCache}): a sixteenth
   * of the heap, at least 1 MiB. Cassandra's prepared_statements_cache_size is max(10 MiB,
   * heap/256), more than a 64 MiB heap can give.
   */
  public static final long MAX_PREPARED_BYTES = Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 16);

  /** @param resultMetadataId the result columns' id when the client prepared it (what a v4 client has cached) */
  private record Prepared(String query, String keyspace, Statement parsed, Executable compiled, long epoch,
                          byte[] resultMetadataId) {}

  private final Services services;
  private final StatementCompiler compiler;
  /** Who may do what; AllowAll until {@link #configureAuth} (role statements then need a login). */
  private volatile AccessControl access;
  /** The state of the node's own queries on system_auth: no user, so no permission check. */
  private static final ClientState INTERNAL = new ClientState(null);
  private final PreparedCache<Prepared> prepared = new PreparedCache<>(MAX_PREPARED, MAX_PREPARED_BYTES);

  /** prepared_statements_cache_size: the prepared cache's bound in estimated bytes (default heap/16). */
  public void preparedStatementsCacheSize(long bytes) {
    prepared.maxWeight(bytes);
  }

  /**
   * How many bytes a SELECT may collect: a page ends early at {@code limits.pageBytes()}, an unpaged
   * answer past {@code limits.failBytes()} fails (READ_FAILURE, READ_SIZE). The default follows the
   * default native_transport_max_frame_size of this heap.
   */
  public void resultSizeLimits(ResultSizeLimits limits) {
    services.resultSize().set(limits);
  }

  /**
   * This node's bounds on a client's statements ({@link StatementLimits}): tokens of one request
   * ({@code cql_max_statement_tokens}), elements of one collection write
   * ({@code items_per_collection_fail_threshold}), nesting of terms, selectors, types and JSON
   * ({@code cql_max_nesting_depth}). Per node: another node in the same JVM keeps its own.
   */
  public void statementLimits(StatementLimits limits) {
    services.statementLimits().set(limits);
  }

  /**
   * {@code user_defined_functions_enabled} (CREATE FUNCTION refused when false, as Cassandra 5.0's
   * default) and {@code user_defined_functions_fail_timeout} (a call running longer fails).
   */
  public void userDefinedFunctions(io.cassette.cql.language.functions.UserFunctions.Settings settings) {
    services.userFunctions().set(settings);
  }

  /**
   * {@code dynamic_data_masking_enabled}: MASKED WITH refused when false (Cassandra 5.0's default);
   * masks already declared apply either way.
   */
  public void dynamicDataMasking(boolean enabled) {
    services.masking().enabled(enabled);
  }

  /**
   * {@code materialized_views_enabled}: CREATE MATERIALIZED VIEW refused when false (Cassandra
   * 5.0's default); views already defined are kept in step either way.
   */
  public void materializedViews(boolean enabled) {
    services.materializedViews().set(enabled);
  }

  private StatementLimits limits() {
    return services.statementLimits().get();
  }

  /** The language over {@code coordinator}, through which every read, write and schema change goes. */
  public CqlLanguage(Coordinator coordinator, NodeInfo node) {
    this(coordinator, node, TombstoneThresholds.DEFAULTS);
  }

  /** @param tombstones tombstone_warn_threshold and tombstone_failure_threshold */
  public CqlLanguage(Coordinator coordinator, NodeInfo node, TombstoneThresholds tombstones) {
    this(new SchemaManager(coordinator), node, tombstones);
  }

  /**
   * Over a schema manager made earlier (a ring node makes it before it serves peers' writes, so
   * the materialized views those writes must update are known from the first one).
   */
  public CqlLanguage(SchemaManager schema, NodeInfo node, TombstoneThresholds tombstones) {
    Coordinator coordinator = schema.coordinator();
    this.services = new Services(schema, coordinator, new MicrosClock(), node, new TraceStore(node), tombstones,
        new java.util.concurrent.atomic.AtomicReference<>(ResultSizeLimits.forFrame(
            io.cassette.cql.transport.CqlLimits.defaultMaxFrameBytes(Runtime.getRuntime().maxMemory()))),
        new java.util.concurrent.atomic.AtomicReference<>(StatementLimits.DEFAULTS),
        new java.util.concurrent.atomic.AtomicReference<>(io.cassette.cql.language.functions.UserFunctions.Settings.DEFAULTS),
        new io.cassette.cql.language.statements.DataMasking(), new java.util.concurrent.atomic.AtomicBoolean());
    this.compiler = new StatementCompiler(services);
    this.access = new AccessControl(AuthSettings.allowAll(), schema, this::internal, node);
    services.masking().permissions(new io.cassette.cql.language.statements.DataMasking.Permissions() {
      public boolean unmask(ClientState state, io.cassette.cql.language.schema.TableMetadata t) {
        return access.hasTablePermission(state, io.cassette.cql.auth.Permission.UNMASK, t.keyspace, t.name);
      }

      public boolean selectMasked(ClientState state, io.cassette.cql.language.schema.TableMetadata t) {
        return access.hasTablePermission(state, io.cassette.cql.auth.Permission.SELECT_MASKED, t.keyspace, t.name);
      }
    });
  }

  /**
   * Turns authentication and authorization on as {@code settings} say: creates system_auth's
   * tables and the default superuser on first start. Returns the access control, whose
   * {@link AccessControl#authenticator()} the CQL transport must use.
   */
  public AccessControl configureAuth(AuthSettings settings) {
    AccessControl a = new AccessControl(settings, services.schema(), this::internal, services.node());
    a.setup();
    access = a;
    return a;
  }

  public AccessControl access() {
    return access;
  }

  /** A query of the node's own (system_auth), unchecked; the rows of a SELECT, unpaged. */
  private List<List<ByteBuffer>> internal(String cql, Consistency consistency, List<ByteBuffer> values) {
    QueryOptions o = new QueryOptions(consistency, values, null, false, -1, null, Consistency.SERIAL,
        Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
    Result r = query(cql, o, INTERNAL);
    return r instanceof Result.Rows rows ? rows.rows() : List.of();
  }

  @Override
  public UUID traced(TraceSession session) {
    return services.traces().add(session);
  }

  /** The schema, for tools and tests. */
  public SchemaManager schema() {
    return services.schema();
  }

  @Override
  public Result query(String query, QueryOptions options, ClientState state) {
    String[] writeType = {null};
    return guard(options, writeType, () -> {
      Tracing.trace("Parsing " + query);
      String ks = options.keyspace() != null ? options.keyspace() : state.keyspace();
      if (AuthStatementParser.isAuthStatement(query)) {
        io.cassette.cql.auth.AuthStatement a = AuthStatementParser.parse(query, limits());
        if (!options.values().isEmpty()) { // these statements have no markers
          throw Errors.invalid("Invalid amount of bind variables");
        }
        return access.execute(a, state, ks);
      }
      Statement s = Parser.parse(query, limits());
      Tracing.trace("Preparing statement");
      Executable e = compiler.compile(s, ks);
      access.check(state, s, ks);
      writeType[0] = writeTypeOf(e);
      List<ByteBuffer> values = orderValues(e, options);
      checkCount(e, values);
      Result r = e.execute(new QueryContext(options, state, services, values));
      access.afterSchemaChange(state, r);
      return r;
    });
  }

  @Override
  public Result.Prepared prepare(String query, String keyspace, ClientState state) {
    return guard(null, new String[1], () -> {
      String ks = keyspace != null ? keyspace : state.keyspace();
      // A role statement is kept unparsed-for-data (parsed null): it checks its own permissions.
      Statement s = AuthStatementParser.isAuthStatement(query) ? null : Parser.parse(query, limits());
      Executable e = s == null ? new PreparedAuthStatement(AuthStatementParser.parse(query, limits()), ks, this::access)
          : compiler.compile(s, ks);
      byte[] id = md5((ks == null ? "" : ks) + query);
      prepared.put(id, new Prepared(query, ks, s, e, services.schema().current().epoch(),
          ResultMetadataId.compute(e.resultColumns())), PreparedCache.weightOf(query.length()));
      return describe(id, e);
    });
  }

  private static Result.Prepared describe(byte[] id, Executable e) {
    List<ColumnSpec> results = e.resultColumns();
    return new Result.Prepared(id, ResultMetadataId.compute(results), e.variables(),
        e.partitionKeyIndexes(), results);
  }

  @Override
  public Result execute(byte[] id, byte[] resultMetadataId, QueryOptions options, ClientState state) {
    Executable e = null; // known once the access check passed: what a storage failure is reported as
    try {
      Prepared p = lookupPrepared(id);
      access.check(state, p.parsed(), p.keyspace());
      e = p.compiled();
      Result r = e.execute(bind(id, e, options, state));
      access.afterSchemaChange(state, r);
      return r;
    } catch (RuntimeException | StackOverflowError x) {
      throw failure(x, options, e == null ? null : writeTypeOf(e));
    }
  }

  /**
   * A plain write's answer completes from the replicas' acknowledgements (see QueryHandler).
   * Every EXECUTE comes here: no lambda, array or second future per request on the way, only for
   * an answer that is still to come.
   */
  @Override
  public java.util.concurrent.CompletableFuture<Result> executeAsync(byte[] id, byte[] resultMetadataId,
                                                                     QueryOptions options, ClientState state) {
    Executable e = null;
    QueryContext ctx;
    Result r;
    try {
      // one lookup per EXECUTE (lock-free): the entry lookup returns is the one checked
      Prepared p = lookupPrepared(id);
      access.check(state, p.parsed(), p.keyspace());
      e = p.compiled();
      ctx = bind(id, e, options, state);
      ctx.answerLater();
      r = e.execute(ctx);
      access.afterSchemaChange(state, r);
    } catch (RuntimeException | StackOverflowError x) {
      throw failure(x, options, e == null ? null : writeTypeOf(e));
    }
    java.util.concurrent.CompletableFuture<Result> answer = ctx.pendingResult();
    if (answer != null) {
      // A SELECT whose reads complete from the replicas' answers: a read timeout is its failure.
      return answer.handle((result, failure) -> {
        if (failure == null) {
          return result;
        }
        throw failure(cause(failure), options, null);
      });
    }
    java.util.concurrent.CompletableFuture<Void> pending = ctx.pending();
    if (pending == null || (pending.isDone() && !pending.isCompletedExceptionally())) {
      return java.util.concurrent.CompletableFuture.completedFuture(r);
    }
    return pending.handle((v, failure) -> {
      if (failure == null) {
        return r;
      }
      throw failure(cause(failure), options, "SIMPLE");
    });
  }

  /** What a future's failure carries: its cause when the future wrapped it. */
  private static Throwable cause(Throwable failure) {
    return failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
  }

  /** The context of a prepared statement's execution with {@code options}' values, checked against its markers. */
  private QueryContext bind(byte[] id, Executable e, QueryOptions options, ClientState state) {
    List<ByteBuffer> values = orderValues(e, options);
    checkCount(e, values);
    traceExecute(id, e, values);
    return new QueryContext(options, state, services, values);
  }

  /** Cassandra's parameters of a traced EXECUTE: the statement's text and each bound value. */
  private void traceExecute(byte[] id, Executable e, List<ByteBuffer> values) {
    TraceSession trace = Tracing.current();
    if (trace == null) {
      return;
    }
    Prepared p = prepared.get(id);
    if (p != null) {
      trace.parameter("query", p.query());
    }
    List<ColumnSpec> vars = e.variables();
    for (int i = 0; i < vars.size() && i < values.size(); i++) {
      ByteBuffer v = values.get(i);
      String text = v == null ? "null" : v == QueryOptions.UNSET ? "unset"
          : io.cassette.cql.language.types.TextForms.toText(vars.get(i).type(), bytes(v));
      trace.parameter("bound_var_" + i + "_" + vars.get(i).name(), text);
    }
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Override
  public byte[] preparedResultMetadataId(byte[] id) {
    Prepared p = prepared.get(id);
    return p == null ? null : p.resultMetadataId();
  }

  /** Permission check of a prepared statement, on every EXECUTE as Cassandra (call after {@link #lookup}). */
  private void checkPrepared(ClientState state, byte[] id) {
    Prepared p = prepared.get(id);
    if (p == null) { // evicted since lookup: the driver prepares it again
      throw new CqlException.Unprepared(id, "Prepared query with ID " + hex(id) + " not found");
    }
    access.check(state, p.parsed(), p.keyspace());
  }

  /** The compiled form of a prepared id, recompiled if the schema changed since. */
  private Executable lookup(byte[] id) {
    return lookupPrepared(id).compiled();
  }

  /** The prepared entry of an id, its statement recompiled if the schema changed since. */
  private Prepared lookupPrepared(byte[] id) {
    Prepared p = prepared.get(id);
    if (p == null) {
      throw new CqlException.Unprepared(id, "Prepared query with ID " + hex(id)
          + " not found (either the query was not prepared on this host (maybe the host has been"
          + " restarted?) or you have prepared too many queries and it has been evicted from the"
          + " internal cache)");
    }
    long epoch = services.schema().current().epoch();
    if (p.epoch() != epoch && p.parsed() != null) {
      Executable e;
      try {
        e = compiler.compile(p.parsed(), p.keyspace());
      } catch (CqlException ex) {
        prepared.remove(id);
        throw new CqlException.Unprepared(id, "Prepared query with ID " + hex(id) + " not found");
      }
      p = new Prepared(p.query(), p.keyspace(), p.parsed(), e, epoch, p.resultMetadataId());
      prepared.put(id, p, PreparedCache.weightOf(p.query().length()));
    }
    return p;
  }

  @Override
  public Result batch(int type, List<BatchStatement> statements, QueryOptions options, ClientState state) {
    String[] writeType = {type == 1 ? "UNLOGGED_BATCH" : type == 2 ? "COUNTER" : "BATCH"};
    return guard(options, writeType, () -> {
      if (type < 0 || type > 2) {
        throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Invalid BATCH message type " + type);
      }
      String ks = options.keyspace() != null ? options.keyspace() : state.keyspace();
      List<ModificationStatement> compiled = new ArrayList<>();
      List<QueryContext> ctxs = new ArrayList<>();
      // The statements of one request share the parser's token bound; each also costs a few
      // (its compiled form and context), prepared ones included.
      StatementLimits limits = limits();
      int[] tokensLeft = {limits.maxTokens()};
      for (BatchStatement b : statements) {
        tokensLeft[0] -= TOKENS_PER_BATCH_STATEMENT;
        if (tokensLeft[0] < 0) {
          throw Errors.invalid("Batch too large: more than " + limits.maxTokens()
              + " tokens in one request on this node (" + statements.size() + " statements); split it");
        }
        Executable e;
        if (b.preparedId() != null) {
          e = lookup(b.preparedId());
          checkPrepared(state, b.preparedId());
        } else {
          Statement s = Parser.parse(b.query(), tokensLeft, limits);
          if (!(s instanceof Statement.Insert || s instanceof Statement.Update || s instanceof Statement.Delete)) {
            throw Errors.invalid("Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
          }
          e = compiler.compile(s, ks);
          access.check(state, s, ks);
        }
        if (!(e instanceof ModificationStatement m)) {
          throw Errors.invalid("Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
        }
        checkCount(e, b.values());
        compiled.add(m);
        QueryOptions per = new QueryOptions(options.consistency(), b.values(), null, true, -1, null,
            options.serialConsistency(), options.defaultTimestamp(), options.keyspace(),
            options.nowInSeconds(), options.protocolVersion());
        ctxs.add(new QueryContext(per, state, services, b.values()));
      }
      QueryContext batchCtx = new QueryContext(options, state, services, List.of());
      long ts = batchCtx.timestamp();
      List<QueryContext> shared = new ArrayList<>();
      for (int i = 0; i < ctxs.size(); i++) {
        QueryOptions o = ctxs.get(i).options;
        QueryOptions withTs = new QueryOptions(o.consistency(), o.values(), null, true, -1, null,
            o.serialConsistency(), ts, o.keyspace(), o.nowInSeconds(), o.protocolVersion());
        shared.add(new QueryContext(withTs, state, services, statements.get(i).values()));
      }
      validateBatch(type, compiled);
      return BatchExecution.run(type, compiled, shared, ts, batchCtx);
    });
  }

  private static void validateBatch(int type, List<ModificationStatement> compiled) {
    BatchExecution.validate(type, compiled, false);
  }

  @Override
  public void onSchemaChange(Consumer<Result.SchemaChange> listener) {
    services.schema().addListener(listener);
  }

  /** Orders named values (QUERY with names) by marker; positional values pass through. */
  private static List<ByteBuffer> orderValues(Executable e, QueryOptions options) {
    if (options.names() == null) {
      return options.values();
    }
    List<ColumnSpec> vars = e.variables();
    List<ByteBuffer> out = new ArrayList<>(vars.size());
    for (ColumnSpec v : vars) {
      int i = options.names().indexOf(v.name());
      if (i < 0) {
        throw Errors.invalid("No value has been provided for bind variable " + v.name());
      }
      out.add(options.values().get(i));
    }
    return out;
  }

  private static void checkCount(Executable e, List<ByteBuffer> values) {
    int expected = e.variables().size();
    if (values.size() != expected) {
      throw Errors.invalid("There were " + expected + " markers(?) in CQL but " + values.size()
          + " bound variables");
    }
  }

  private interface Body<T> {
    T run();
  }

  /** Cassandra's write type of a single statement, or null for a read. */
  private static String writeTypeOf(Executable e) {
    if (e instanceof SelectStatement) {
      return null;
    }
    return "SIMPLE";
  }

  /**
   * Maps storage and unexpected failures to the errors Cassandra sends: a storage failure (disk
   * full, I/O error) is this replica failing the write (WRITE_FAILURE) or the read (READ_FAILURE).
   * The storage message names files, so it goes to the node's log only; so does any unexpected
   * exception, whose client message never carries Java class names.
   *
   * @param options   the request's options (for its consistency level), or null (PREPARE)
   * @param writeType set by {@code body} once it knows: the write type, or null for a read
   */
  private <T> T guard(QueryOptions options, String[] writeType, Body<T> body) {
    try {
      return body.run();
    } catch (RuntimeException | StackOverflowError e) {
      throw failure(e, options, writeType[0]);
    }
  }

  /**
   * What {@link #guard} throws for {@code t} (returned, for the caller to throw).
   *
   * @param writeType the write type, or null for a read (or when not known yet)
   */
  private RuntimeException failure(Throwable t, QueryOptions options, String writeType) {
    try {
      throw t;
    } catch (CqlException e) {
      return e;
    } catch (CoordinatorException.Unavailable e) {
      return new CqlException.Unavailable(Consistency.fromCode(e.consistency.code), e.required, e.alive,
          e.getMessage());
    } catch (CoordinatorException.Invalid e) {
      return Errors.invalid(e.getMessage());
    } catch (CoordinatorException.UnknownTable e) {
      return Errors.invalid(e.getMessage());
    } catch (io.cassette.coordinator.metadata.MetadataUnavailableException e) {
      // The ring's metadata service has no quorum: DDL fails, reads and writes go on.
      return new CqlException(ErrorCode.SERVER_ERROR, e.getMessage());
    } catch (CoordinatorException.Timeout e) {
      Consistency cl = Consistency.fromCode(e.consistency.code);
      if (e.writeType == null) {
        return new io.cassette.cql.ReplicaException.ReadTimeout(cl, e.received, e.blockFor, e.dataPresent, e.getMessage());
      }
      return new io.cassette.cql.ReplicaException.WriteTimeout(cl, e.received, e.blockFor, e.writeType, 0,
          e.getMessage());
    } catch (CoordinatorException.Failure e) {
      // A replica answered with a failure (the ring): Cassandra's READ_FAILURE / WRITE_FAILURE.
      Consistency cl = Consistency.fromCode(e.consistency.code);
      if (e.writeType == null) {
        return new ReplicaException.ReadFailure(cl, e.received, e.blockFor, e.failures, false, e.getMessage());
      }
      return new ReplicaException.WriteFailure(cl, e.received, e.blockFor, e.failures, e.writeType, e.getMessage());
    } catch (StorageException e) {
      LOG.warn("Storage failure executing a CQL request: {}", e.getMessage(), e);
      Consistency cl = options == null ? Consistency.ONE : options.consistency();
      Map<InetAddress, Integer> failures = Map.of(services.node().listenAddress(), FAILURE_REASON_UNKNOWN);
      String message = "Operation failed - received 0 responses and 1 failures: UNKNOWN from /"
          + services.node().listenAddress().getHostAddress();
      if (writeType == null && options != null) {
        return new ReplicaException.ReadFailure(cl, 0, 1, failures, false, message);
      }
      return new ReplicaException.WriteFailure(cl, 0, 1, failures,
          writeType == null ? "SIMPLE" : writeType, message);
    } catch (RuntimeException | StackOverflowError e) {
      if (e instanceof StackOverflowError) {
        // The parser bounds nesting, so this is a path it does not cover: a client error all the same.
        LOG.warn("Statement too deeply nested for the thread stack; add the case to the parser's nesting bound", e);
        return Errors.invalid("Statement too deeply nested to be processed");
      }
      LOG.error("Unexpected error executing a CQL request", e);
      return new CqlException(ErrorCode.SERVER_ERROR, "Unexpected error while executing the request; "
          + "the node's log has the details");
    } catch (Throwable e) { // a future's checked exception or Error: unexpected, as before
      return failure(new IllegalStateException(e), options, writeType);
    }
  }

  static byte[] md5(String s) {
    try {
      return MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
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
