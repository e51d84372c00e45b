package io.cassette.resp;

import io.cassette.resp.protocol.RespLimits;
import java.nio.file.Path;

/**
 * How the Redis front door listens and what it enforces.
 *
 * @param host                   address to bind, e.g. "127.0.0.1"
 * @param port                   TCP port; 0 binds an ephemeral port (tests), see
 *                               {@link RespServer#start()}; the launcher treats
 *                               {@code resp_port: 0} as "disabled" and does not start us
 * @param requirePass            password for AUTH, or null/empty for none
 * @param unixSocket             also listen on this Unix domain socket, or null
 * @param unixSocketPerm         permission bits of the socket file (e.g. 0700 octal), 0 = umask
 * @param ioThreads              Netty event-loop threads for socket I/O (commands run on one
 *                               separate command thread)
 * @param maxBulkLength          longest argument (Redis proto-max-bulk-len)
 * @param maxMultibulkLength     most arguments per command
 * @param protectedMode          refuse non-loopback clients when no password is set
 * @param pubsubOutputLimitBytes unsent bytes after which a subscriber is disconnected
 * @param commandsOnEventLoop    run commands on the one I/O thread, as Redis does (default:
 *                               fastest on 1-2 cores, no cross-thread hand-off per request);
 *                               false runs them on a command thread of their own beside
 *                               {@code ioThreads} I/O threads (storage calls then never
 *                               delay socket I/O). Either way one thread runs all commands,
 *                               which is what makes each command and EXEC atomic.
 * @param requestBudgetBytes     request bytes all clients together may have in flight
 *                               (received, not yet executed); see {@code RequestBudget}
 * @param maxClients             connections beyond this many are refused (Redis maxclients)
 */
public record RespServerOptions(String host, int port, String requirePass, Path unixSocket,
                                int unixSocketPerm, int ioThreads, long maxBulkLength,
                                int maxMultibulkLength, boolean protectedMode,
                                long pubsubOutputLimitBytes, boolean commandsOnEventLoop,
                                long requestBudgetBytes, int maxClients) {
  /** Redis's pub/sub hard limit (client-output-buffer-limit pubsub 32mb). */
  public static final long REDIS_PUBSUB_LIMIT = 32L << 20;
  /** Redis's default maxclients. */
  public static final int REDIS_MAX_CLIENTS = 10000;

  /** Loopback on Redis's port, no password, limits sized from this JVM's heap. */
  public static RespServerOptions defaults() {
    long heap = Runtime.getRuntime().maxMemory();
    RespLimits limits = RespLimits.forHeap(heap);
    return new RespServerOptions("127.0.0.1", 6379, null, null, 0, 1, limits.maxBulkLength(),
        limits.maxMultibulkLength(), true, Math.min(REDIS_PUBSUB_LIMIT, heap / 16), true,
        RespLimits.requestBudgetForHeap(heap), REDIS_MAX_CLIENTS);
  }

  /** Defaults on 127.0.0.1 with an ephemeral port (tests). */
  public static RespServerOptions ephemeral() {
    return defaults().withPort(0);
  }

  public RespServerOptions withPort(int newPort) {
    return new RespServerOptions(host, newPort, requirePass, unixSocket, unixSocketPerm, ioThreads,
        maxBulkLength, maxMultibulkLength, protectedMode, pubsubOutputLimitBytes, commandsOnEventLoop,
        requestBudgetBytes, maxClients);
  }

  public RespServerOptions withHost(String newHost) {
    return new RespServerOptions(newHost, port, requirePass, unixSocket, unixSocketPerm, ioThreads,
        maxBulkLength, maxMultibulkLength, protectedMode, pubsubOutputLimitBytes, commandsOnEventLoop,
        requestBudgetBytes, maxClients);
  }

  public RespServerOptions withRequirePass(String password) {
    return new RespServerOptions(host, port, password, unixSocket, unixSocketPerm, ioThreads,
        maxBulkLength, maxMultibulkLength, protectedMode, pubsubOutputLimitBytes, commandsOnEventLoop,
        requestBudgetBytes, maxClients);
  }

  public RespServerOptions withUnixSocket(Path path, int perm) {
    return new RespServerOptions(host, port, requirePass, path, perm, ioThreads, maxBulkLength,
        maxMultibulkLength, protectedMode, pubsubOutputLimitBytes, commandsOnEventLoop,
        requestBudgetBytes, maxClients);
  }

  public RespServerOptions withLimits(long bulk, int multibulk) {
    return new RespServerOptions(host, port, requirePass, unixSocket, unixSocketPerm, ioThreads,
        bulk, multibulk, protectedMode, pubsubOutputLimitBytes, commandsOnEventLoop,
        requestBudgetBytes, maxClients);
  }

  public RespServerOptions withPubsubOutputLimit(long bytes) {
    return new RespServerOptions(host, port, requirePass, unixSocket, unixSocketPerm, ioThreads,
        maxBulkLength, maxMultibulkLength, protectedMode, bytes, commandsOnEventLoop,
        requestBudgetBytes, maxClients);
  }

  /** Commands on a thread of their own beside {@code threads} I/O threads. */
  public RespServerOptions withCommandThread(int threads) {
    return new RespServerOptions(host, port, requirePass, unixSocket, unixSocketPerm, threads,
        maxBulkLength, maxMultibulkLength, protectedMode, pubsubOutputLimitBytes, false,
        requestBudgetBytes, maxClients);
  }

  public RespServerOptions withRequestBudget(long bytes) {
    return new RespServerOptions(host, port, requirePass, unixSocket, unixSocketPerm, ioThreads,
        maxBulkLength, maxMultibulkLength, protectedMode, pubsubOutputLimitBytes,
        commandsOnEventLoop, bytes, maxClients);
  }

  public RespServerOptions withMaxClients(int clients) {
    return new RespServerOptions(host, port, requirePass, unixSocket, unixSocketPerm, ioThreads,
        maxBulkLength, maxMultibulkLength, protectedMode, pubsubOutputLimitBytes,
        commandsOnEventLoop, requestBudgetBytes, clients);
  }

  public RespLimits limits() {
    return new RespLimits(maxBulkLength, maxMultibulkLength, RespLimits.REDIS_MAX_INLINE);
  }
}
