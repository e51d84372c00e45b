package io.cassette.cql.transport;

import io.cassette.cql.ClientState;
import io.cassette.cql.QueryHandler;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.TraceSession;
import io.cassette.cql.Tracing;
import io.cassette.cql.transport.frame.Envelope;
import io.cassette.cql.transport.messages.Request;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens and closes the trace of one request, as Cassandra's message handlers do: when the
 * client set the TRACING flag, or when sampling ({@code nodetool settraceprobability}) picks
 * it. The request text and parameters are Cassandra's ("Execute CQL3 query", consistency_level,
 * page_size, query, serial_consistency_level); the language adds the rest while executing.
 */
final class RequestTracing {
  private static final Logger LOG = LoggerFactory.getLogger(RequestTracing.class);

  private RequestTracing() {}

  /** Starts tracing {@code request} on this thread when asked or sampled; returns the session or null. */
  static TraceSession begin(Envelope envelope, Request request, ClientState state) {
    boolean asked = (envelope.flags() & Envelope.FLAG_TRACING) != 0;
    String description;
    QueryOptions options = null;
    if (request instanceof Request.Query q) {
      description = "Execute CQL3 query";
      options = q.options();
    } else if (request instanceof Request.Execute e) {
      description = "Execute CQL3 prepared query";
      options = e.options();
    } else if (request instanceof Request.Batch b) {
      description = "Execute batch of CQL3 queries";
      options = b.options();
    } else if (request instanceof Request.Prepare) {
      description = "Preparing CQL3 query";
    } else {
      return null;
    }
    if (!asked && !Tracing.sample()) {
      return null;
    }
    var remote = state.remoteAddress();
    TraceSession session = new TraceSession(remote == null ? null : remote.getAddress(), "QUERY", description, asked);
    if (request instanceof Request.Query q) {
      session.parameter("query", q.query());
    } else if (request instanceof Request.Prepare p) {
      session.parameter("query", p.query());
    }
    if (options != null) {
      if (options.pageSize() > 0) {
        session.parameter("page_size", Integer.toString(options.pageSize()));
      }
      session.parameter("consistency_level", options.consistency().name());
      session.parameter("serial_consistency_level", options.serialConsistency().name());
    }
    Tracing.attach(session);
    return session;
  }

  /** Detaches and stores {@code session} (may be null); returns the id to send, or null. */
  static UUID end(TraceSession session, QueryHandler handler) {
    if (session == null) {
      return null;
    }
    Tracing.attach(null);
    session.finish();
    UUID id;
    try {
      id = handler.traced(session);
    } catch (RuntimeException e) {
      // Tracing never fails the request it traces.
      LOG.warn("Could not store a trace", e);
      return null;
    }
    return session.requestedByClient() ? id : null;
  }
}
