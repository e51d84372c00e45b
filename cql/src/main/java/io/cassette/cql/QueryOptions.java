package io.cassette.cql;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The [query_parameters] of QUERY, EXECUTE and BATCH, decoded. Absent optional fields take
 * the values noted; {@code values} holds {@code null} for a bound NULL and {@link #UNSET}
 * for an unset value (v4+).
 *
 * @param names             bound-variable names when the client sent named values, else null
 * @param pageSize          rows per page; {@code <= 0} when not paging
 * @param pagingState       opaque state from a previous page, or null
 * @param serialConsistency SERIAL unless the client said LOCAL_SERIAL
 * @param defaultTimestamp  client-side timestamp in µs, or {@link Long#MIN_VALUE}
 * @param keyspace          per-query keyspace (v5), or null
 * @param nowInSeconds      per-query "now" (v5), or {@link Integer#MIN_VALUE}
 */
public record QueryOptions(Consistency consistency, List<ByteBuffer> values, List<String> names,
                           boolean skipMetadata, int pageSize, ByteBuffer pagingState,
                           Consistency serialConsistency, long defaultTimestamp,
                           String keyspace, int nowInSeconds, int protocolVersion) {

  /** The marker for an unset bound value; compare by identity. */
  public static final ByteBuffer UNSET = ByteBuffer.allocate(0).asReadOnlyBuffer();

  public static QueryOptions defaults(int protocolVersion) {
    return new QueryOptions(Consistency.ONE, List.of(), null, false, -1, null,
        Consistency.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE, protocolVersion);
  }
}
