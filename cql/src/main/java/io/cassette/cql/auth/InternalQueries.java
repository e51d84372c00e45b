package io.cassette.cql.auth;

import io.cassette.cql.Consistency;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * How the auth code reads and writes {@code system_auth}: CQL run by the node itself through
 * the coordinator (so a ring replicates the rows with system_auth's replication), without
 * permission checks. Implemented by the CQL language.
 */
public interface InternalQueries {
  /** Runs {@code cql} with positional {@code values}; the rows of a SELECT, else empty. */
  List<List<ByteBuffer>> execute(String cql, Consistency consistency, List<ByteBuffer> values);
}
