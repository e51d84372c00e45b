package io.cassette.cql;

import java.util.List;
import java.util.function.Consumer;

/**
 * What the native-protocol transport asks of the CQL language: the contract between
 * {@code io.cassette.cql.transport} and {@code io.cassette.cql.language}. Implementations are
 * thread-safe; each call may block (storage I/O) and runs off the event loop. Errors are
 * thrown as {@link CqlException} with the code Cassandra uses for the same situation.
 */
public interface QueryHandler {

  Result query(String query, QueryOptions options, ClientState state);

  /** Prepares {@code query}; {@code keyspace} is the per-query keyspace (v5) or null. */
  Result.Prepared prepare(String query, String keyspace, ClientState state);

  /**
   * Executes a prepared statement. Throws {@link CqlException.Unprepared} when {@code id} is
   * unknown, or (v5) when {@code resultMetadataId} no longer matches the table.
   */
  Result execute(byte[] id, byte[] resultMetadataId, QueryOptions options, ClientState state);

  /**
   * As {@link #execute}, but a plain write may answer later: the future completes when the
   * replicas have acknowledged it (on the ring, from the messaging callbacks), so the calling
   * thread is free meanwhile. Errors known at once are thrown; later ones complete the future
   * exceptionally with a {@link CqlException}. Default: {@link #execute}, answered at once.
   */
  default java.util.concurrent.CompletableFuture<Result> executeAsync(byte[] id, byte[] resultMetadataId,
                                                                      QueryOptions options, ClientState state) {
    return java.util.concurrent.CompletableFuture.completedFuture(execute(id, resultMetadataId, options, state));
  }

  /** @param type 0 LOGGED, 1 UNLOGGED, 2 COUNTER */
  Result batch(int type, List<BatchStatement> statements, QueryOptions options, ClientState state);

  /** Called after every schema change, for EVENT pushes to registered connections. */
  void onSchemaChange(Consumer<Result.SchemaChange> listener);

  /**
   * The result metadata id of prepared statement {@code id} as it was when prepared, or null
   * when unknown. Before v5 the client cannot say which metadata it has cached: as Cassandra,
   * the transport then skips the metadata in EXECUTE answers only while the columns still
   * match this id (an ALTER TABLE under a prepared SELECT * sends the new columns).
   */
  default byte[] preparedResultMetadataId(byte[] id) {
    return null;
  }

  /**
   * Keeps a finished trace (system_traces) and returns its session id, which the transport
   * sends to a client that asked for tracing; null when this handler keeps no traces.
   */
  default java.util.UUID traced(TraceSession session) {
    return null;
  }
}
