package io.cassette.cql.transport;

import io.cassette.cql.QueryHandler;
import io.cassette.cql.transport.frame.FrameDecoder;
import io.cassette.cql.transport.frame.FrameEncoder;
import io.cassette.metrics.NodeMetrics;
import io.cassette.metrics.RequestMetrics;
import io.cassette.metrics.SlowLog;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The CQL native-protocol server (v3, v4, v5): accepts connections and runs each through
 * {@code idle → FrameDecoder → FrameEncoder → CqlConnectionHandler}, with QueryHandler calls
 * on a small worker pool. Pure NIO transport, no native epoll: it runs on any board.
 *
 * <p>Lifecycle: construct, {@link #start()} once, {@link #close()} once. Thread-safety: start
 * and close are not to be called concurrently.
 */
public final class CqlServer implements AutoCloseable {
  /** How long close() lets in-flight requests finish before dropping them. */
  private static final long SHUTDOWN_QUIET_MILLIS = 0;
  private static final long SHUTDOWN_TIMEOUT_MILLIS = 2000;

  private final CqlServerOptions options;
  private final QueryHandler handler;
  private final EventBroadcaster events = new EventBroadcaster();
  private final RequestBytesBudget budget;
  private final ConnectionLimitHandler connectionLimit;
  /** Answers queued to clients and not yet taken, all connections together (direct memory). */
  private UnreadAnswers unreadAnswers =
      UnreadAnswers.forDirectMemory(io.netty.util.internal.PlatformDependent.maxDirectMemory());
  /** The node's CQL instruments: latency and errors per opcode, connections, slow statements. */
  private final RequestMetrics metrics = NodeMetrics.global().requests("cql");
  private final SlowLog slowLog = NodeMetrics.global().cqlSlowLog();
  private EventLoopGroup bossGroup;
  private EventLoopGroup ioGroup;
  private ExecutorService workers;
  private Channel serverChannel;
  /** TLS for client_encryption_options (null: plain text); set before start. */
  private volatile io.cassette.tls.TlsAcceptor tls;

  public CqlServer(CqlServerOptions options, QueryHandler handler) {
    this.options = options;
    this.handler = handler;
    CqlLimits l = options.limits();
    this.budget = new RequestBytesBudget(l.maxRequestDataInFlight(), l.maxRequestDataInFlightPerIp(),
        l.throwOnOverload());
    this.connectionLimit = new ConnectionLimitHandler(l.maxConnections(), l.maxConnectionsPerIp());
  }

  /** With an explicit node-wide limit on the bytes of requests in flight (tests). */
  CqlServer(CqlServerOptions options, QueryHandler handler, long requestBytesBudget) {
    this(options.withLimits(options.limits().withInFlight(requestBytesBudget, requestBytesBudget, false)), handler);
  }

  /** The bounds on request bytes in flight (tests observe what they hold). */
  RequestBytesBudget budget() {
    return budget;
  }

  /** The node-wide bound on unread answers (tests observe it). */
  UnreadAnswers unreadAnswers() {
    return unreadAnswers;
  }

  /**
   * Replaces the node-wide budget of unread answers (native_transport_max_unread_response_data;
   * default direct memory / 8); before {@link #start()}.
   */
  public CqlServer withUnreadAnswersBudget(long bytes) {
    unreadAnswers = new UnreadAnswers(bytes);
    return this;
  }

  /** CQL connections open now (tests). */
  int openConnections() {
    return connectionLimit.openConnections();
  }

  /**
   * Serves TLS (client_encryption_options): every accepted connection gets the acceptor's
   * handler first, before any frame is read. Call before {@link #start()}.
   */
  public CqlServer tls(io.cassette.tls.TlsAcceptor acceptor) {
    this.tls = acceptor;
    return this;
  }

  /** Binds and starts accepting clients; returns the bound address (the real port when 0 was asked). */
  public InetSocketAddress start() {
    if (serverChannel != null) {
      throw new IllegalStateException("CqlServer already started on " + serverChannel.localAddress());
    }
    // The queue is bounded in practice by connections x maxConcurrentRequestsPerConnection:
    // a connection at its limit stops being read.
    ThreadPoolExecutor pool = new ThreadPoolExecutor(options.workerThreads(), options.workerThreads(),
        60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new DefaultThreadFactory("cql-worker", true));
    workers = pool;
    bossGroup = new NioEventLoopGroup(1, new DefaultThreadFactory("cql-accept", true));
    ioGroup = new NioEventLoopGroup(options.ioThreads(), new DefaultThreadFactory("cql-io", true));
    handler.onSchemaChange(events::schemaChanged);
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(bossGroup, ioGroup)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 128)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            java.net.InetAddress client = ch.remoteAddress() == null ? null : ch.remoteAddress().getAddress();
            var admission = budget.forClient(client);
            FrameDecoder decoder = new FrameDecoder(options.maxFrameBytes(), options.limits().maxMessageBytes(),
                admission);
            FrameEncoder encoder = new FrameEncoder();
            ch.pipeline().addLast("connectionLimit", connectionLimit);
            if (tls != null) {
              tls.addTo(ch);
            }
            if (options.idleTimeoutSeconds() > 0) {
              ch.pipeline().addLast("idle", new IdleStateHandler(options.idleTimeoutSeconds(), 0, 0));
            }
            ch.pipeline().addLast("frameDecoder", decoder);
            ch.pipeline().addLast("frameEncoder", encoder);
            ch.pipeline().addLast("connection", new CqlConnectionHandler(handler, workers,
                options.authenticator(), events, decoder, encoder, options.maxConcurrentRequestsPerConnection(),
                metrics, slowLog, admission, options.limits().maxValueBytes(),
                options.limits().maxPendingOutputBytes(), unreadAnswers));
          }
        });
    try {
      serverChannel = bootstrap.bind(options.host(), options.port()).syncUninterruptibly().channel();
    } catch (RuntimeException e) {
      close();
      throw new IllegalStateException("Cannot bind the CQL server to " + options.host() + ":" + options.port()
          + ": " + e.getMessage(), e);
    }
    return (InetSocketAddress) serverChannel.localAddress();
  }

  /**
   * Pushes TOPOLOGY_CHANGE to the connections registered for it (the cluster calls this).
   *
   * @param change NEW_NODE, REMOVED_NODE or MOVED_NODE
   * @param node   the node's native-protocol address
   */
  public void topologyChanged(String change, InetSocketAddress node) {
    events.topologyChanged(change, node);
  }

  /**
   * Pushes STATUS_CHANGE to the connections registered for it (the cluster calls this).
   *
   * @param change UP or DOWN
   */
  public void statusChanged(String change, InetSocketAddress node) {
    events.statusChanged(change, node);
  }

  /** Stops accepting, closes every connection and stops the threads. Idempotent. */
  @Override
  public void close() {
    if (serverChannel != null) {
      serverChannel.close().syncUninterruptibly();
      serverChannel = null;
    }
    if (bossGroup != null) {
      bossGroup.shutdownGracefully(SHUTDOWN_QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }
    if (ioGroup != null) {
      ioGroup.shutdownGracefully(SHUTDOWN_QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
          .syncUninterruptibly();
      ioGroup = null;
    }
    if (workers != null) {
      workers.shutdown();
      try {
        workers.awaitTermination(SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      workers.shutdownNow();
      workers = null;
    }
    bossGroup = null;
  }
}
