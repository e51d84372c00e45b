package io.cassette.cql.transport.messages;

import io.cassette.cql.BatchStatement;
import io.cassette.cql.QueryOptions;
import java.util.List;
import java.util.Map;

/** The decoded bodies of the request messages a client may send. */
public sealed interface Request {
  record Startup(Map<String, String> options) implements Request {}

  record Options() implements Request {}

  record Query(String query, QueryOptions options) implements Request {}

  /** @param keyspace per-query keyspace (v5), or null */
  record Prepare(String query, String keyspace) implements Request {}

  /** @param resultMetadataId the id the client knows (v5), or null */
  record Execute(byte[] id, byte[] resultMetadataId, QueryOptions options) implements Request {}

  /** @param type 0 LOGGED, 1 UNLOGGED, 2 COUNTER */
  record Batch(int type, List<BatchStatement> statements, QueryOptions options) implements Request {}

  record Register(List<String> eventTypes) implements Request {}

  record AuthResponse(byte[] token) implements Request {}
}
