package io.cassette.cql.transport;

/**
 * What one client, and all of them together, may make the CQL door hold in memory, with
 * Cassandra's names; defaults derive from the heap so that a 64 MiB node survives every limit
 * reached at once. A request's bytes live about three times while it executes (its frame, the
 * cell built from it, its commit-log record), beside the memtables' quarter of the heap.
 *
 * @param maxMessageBytes             {@code native_transport_max_message_size}: largest v5
 *                                    envelope body; larger ones are skipped and answered INVALID
 * @param maxValueBytes               {@code max_value_size}: largest bound value; larger ones are
 *                                    answered INVALID
 * @param maxRequestDataInFlight      {@code native_transport_max_request_data_in_flight}: bytes of
 *                                    requests being received, waiting or executing, node-wide
 * @param maxRequestDataInFlightPerIp {@code native_transport_max_request_data_in_flight_per_ip}
 * @param throwOnOverload             {@code native_transport_throw_on_overload}: over the in-flight
 *                                    limits answer OVERLOADED instead of pausing the connection
 * @param maxConnections              {@code native_transport_max_concurrent_connections}; -1 = none
 * @param maxConnectionsPerIp         {@code native_transport_max_concurrent_connections_per_ip}; -1 = none
 * @see #maxPendingOutputBytes()
 */
public record CqlLimits(int maxMessageBytes, int maxValueBytes, long maxRequestDataInFlight,
                        long maxRequestDataInFlightPerIp, boolean throwOnOverload, int maxConnections,
                        int maxConnectionsPerIp) {
  /** Cassandra 5.0's max_value_size and the cap of our derived one. */
  public static final int CASSANDRA_MAX_VALUE_BYTES = 256 << 20;
  /** Cassandra's max_mutation_size default (half a 32 MiB commit-log segment) caps the message size. */
  public static final int MAX_DERIVED_MESSAGE_BYTES = 16 << 20;
  /**
   * Share of the heap one request (and one value) may take. Measured at 64 MiB: values of
   * heap/16 (4 MiB) survive ten sequential and eight concurrent writes most runs but not all,
   * since a large cell lives in a request (frame, cell, commit-log record), a memtable, a flush
   * and a compaction at once; heap/32 leaves the margin.
   */
  static final int MESSAGE_HEAP_DIVISOR = 32;
  /** Cassandra: a tenth of the heap for all requests in flight, a fortieth per client address. */
  static final int IN_FLIGHT_HEAP_DIVISOR = 10;
  static final int IN_FLIGHT_PER_IP_HEAP_DIVISOR = 40;
  /**
   * Heap bytes counted per open connection (channel, pipeline, handlers, buffers of an idle
   * driver connection are ~10 KB; three times that leaves room for its requests' objects).
   */
  static final int HEAP_BYTES_PER_CONNECTION = 32 * 1024;
  /** Never refuse the first few connections, whatever the heap. */
  static final int MIN_CONNECTIONS = 64;

  public CqlLimits {
    if (maxMessageBytes < 1024 || maxValueBytes < 1) {
      throw new IllegalArgumentException("native_transport_max_message_size must be >= 1 KiB and max_value_size"
          + " >= 1 byte: " + maxMessageBytes + ", " + maxValueBytes);
    }
    if (maxRequestDataInFlight < 1 || maxRequestDataInFlightPerIp < 1) {
      throw new IllegalArgumentException("native_transport_max_request_data_in_flight(_per_ip) must be > 0");
    }
    if (maxConnections == 0 || maxConnections < -1 || maxConnectionsPerIp == 0 || maxConnectionsPerIp < -1) {
      throw new IllegalArgumentException("native_transport_max_concurrent_connections(_per_ip) must be > 0 or -1"
          + " (unlimited): " + maxConnections + ", " + maxConnectionsPerIp);
    }
  }

  /**
   * Answers queued for one client and not read by it, past which the connection is closed (no
   * Cassandra key: Cassandra keeps them; Redis closes such a client, client-output-buffer-limit).
   * Two largest messages, at least 1 MiB.
   */
  public long maxPendingOutputBytes() {
    return Math.max(1 << 20, 2L * maxMessageBytes);
  }

  /** The defaults for a heap of {@code heapBytes} (Runtime.maxMemory()). */
  public static CqlLimits forHeap(long heapBytes) {
    int message = (int) Math.min(MAX_DERIVED_MESSAGE_BYTES, Math.max(64 * 1024, heapBytes / MESSAGE_HEAP_DIVISOR));
    int value = (int) Math.min(CASSANDRA_MAX_VALUE_BYTES, Math.max(1024, heapBytes / MESSAGE_HEAP_DIVISOR));
    long inFlight = Math.max(64 * 1024, heapBytes / IN_FLIGHT_HEAP_DIVISOR);
    long perIp = Math.max(64 * 1024, heapBytes / IN_FLIGHT_PER_IP_HEAP_DIVISOR);
    int connections = (int) Math.min(Integer.MAX_VALUE, Math.max(MIN_CONNECTIONS,
        heapBytes / HEAP_BYTES_PER_CONNECTION));
    return new CqlLimits(message, value, inFlight, perIp, false, connections, -1);
  }

  /** The default native_transport_max_frame_size: Cassandra's 16 MiB, less on a small heap. */
  public static int defaultMaxFrameBytes(long heapBytes) {
    return (int) Math.min(CqlServerOptions.DEFAULT_MAX_FRAME_BYTES, Math.max(64 * 1024,
        heapBytes / MESSAGE_HEAP_DIVISOR));
  }

  public CqlLimits withConnections(int max, int maxPerIp) {
    return new CqlLimits(maxMessageBytes, maxValueBytes, maxRequestDataInFlight, maxRequestDataInFlightPerIp,
        throwOnOverload, max, maxPerIp);
  }

  public CqlLimits withInFlight(long max, long maxPerIp, boolean throwOnOverload) {
    return new CqlLimits(maxMessageBytes, maxValueBytes, max, maxPerIp, throwOnOverload, maxConnections,
        maxConnectionsPerIp);
  }

  public CqlLimits withSizes(int maxMessage, int maxValue) {
    return new CqlLimits(maxMessage, maxValue, maxRequestDataInFlight, maxRequestDataInFlightPerIp,
        throwOnOverload, maxConnections, maxConnectionsPerIp);
  }
}
