package io.cassette.cql.transport;

/**
 * Settings of the CQL native-protocol server.
 *
 * @param host                                 address to bind (e.g. 127.0.0.1)
 * @param port                                 port to bind; 0 picks an ephemeral port (tests)
 * @param maxFrameBytes                        largest frame accepted, header included
 *                                             ({@code native_transport_max_frame_size}); a larger
 *                                             one is skipped and answered with PROTOCOL_ERROR
 * @param maxConcurrentRequestsPerConnection   requests of one connection executing at once; at
 *                                             the limit the server stops reading that socket
 *                                             (back-pressure through TCP) instead of queueing
 * @param ioThreads                            Netty event-loop threads
 * @param workerThreads                        threads running QueryHandler calls
 * @param authenticator                        who may connect
 * @param idleTimeoutSeconds                   a connection silent for this long is closed
 *                                             (clears half-open sockets; drivers send heartbeats
 *                                             every 30 s); 0 disables
 * @param limits                               sizes, requests in flight and connections
 */
public record CqlServerOptions(String host, int port, int maxFrameBytes, int maxConcurrentRequestsPerConnection,
                               int ioThreads, int workerThreads, Authenticator authenticator,
                               int idleTimeoutSeconds, CqlLimits limits) {
  /** Cassandra 5.0's native_transport_max_frame_size. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
  /** Enough for drivers' default 1024 requests per connection plus headroom. */
  public static final int DEFAULT_MAX_CONCURRENT_REQUESTS_PER_CONNECTION = 2048;
  /** Twice the drivers' 30 s heartbeat, plus margin: a live idle driver is never cut. */
  public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 90;

  /** With the limits derived from this JVM's heap. */
  public CqlServerOptions(String host, int port, int maxFrameBytes, int maxConcurrentRequestsPerConnection,
                          int ioThreads, int workerThreads, Authenticator authenticator, int idleTimeoutSeconds) {
    this(host, port, maxFrameBytes, maxConcurrentRequestsPerConnection, ioThreads, workerThreads, authenticator,
        idleTimeoutSeconds, CqlLimits.forHeap(Runtime.getRuntime().maxMemory()));
  }

  public CqlServerOptions {
    if (maxFrameBytes < 1024) {
      throw new IllegalArgumentException("maxFrameBytes: " + maxFrameBytes + " (expected: >= 1024)");
    }
    if (maxConcurrentRequestsPerConnection < 1 || ioThreads < 1 || workerThreads < 1) {
      throw new IllegalArgumentException("maxConcurrentRequestsPerConnection, ioThreads and workerThreads must be >= 1");
    }
    if (limits == null) {
      throw new IllegalArgumentException("limits are required (CqlLimits.forHeap(...))");
    }
    if (authenticator == null) {
      throw new IllegalArgumentException("authenticator is required (AllowAllAuthenticator.INSTANCE for none)");
    }
  }

  /** Defaults sized for a small board: one I/O thread, as many workers as cores (at least 2). */
  public static CqlServerOptions defaults(String host, int port) {
    int cores = Runtime.getRuntime().availableProcessors();
    long heap = Runtime.getRuntime().maxMemory();
    return new CqlServerOptions(host, port, CqlLimits.defaultMaxFrameBytes(heap),
        DEFAULT_MAX_CONCURRENT_REQUESTS_PER_CONNECTION, 1, Math.max(2, cores), AllowAllAuthenticator.INSTANCE,
        DEFAULT_IDLE_TIMEOUT_SECONDS, CqlLimits.forHeap(heap));
  }

  public CqlServerOptions withAuthenticator(Authenticator a) {
    return new CqlServerOptions(host, port, maxFrameBytes, maxConcurrentRequestsPerConnection, ioThreads,
        workerThreads, a, idleTimeoutSeconds, limits);
  }

  public CqlServerOptions withMaxFrameBytes(int bytes) {
    return new CqlServerOptions(host, port, bytes, maxConcurrentRequestsPerConnection, ioThreads,
        workerThreads, authenticator, idleTimeoutSeconds, limits);
  }

  public CqlServerOptions withMaxConcurrentRequestsPerConnection(int n) {
    return new CqlServerOptions(host, port, maxFrameBytes, n, ioThreads, workerThreads, authenticator,
        idleTimeoutSeconds, limits);
  }

  public CqlServerOptions withIdleTimeoutSeconds(int seconds) {
    return new CqlServerOptions(host, port, maxFrameBytes, maxConcurrentRequestsPerConnection, ioThreads,
        workerThreads, authenticator, seconds, limits);
  }

  public CqlServerOptions withLimits(CqlLimits l) {
    return new CqlServerOptions(host, port, maxFrameBytes, maxConcurrentRequestsPerConnection, ioThreads,
        workerThreads, authenticator, idleTimeoutSeconds, l);
  }
}
