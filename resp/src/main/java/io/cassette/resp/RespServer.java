package io.cassette.resp;

import io.cassette.cluster.net.MessagingService;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.ring.RingCoordinator;
import io.cassette.resp.ring.RedisRing;
import io.cassette.metrics.NodeMetrics;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.config.OutputLimits;
import io.cassette.resp.config.RedisConfig;
import io.cassette.resp.keyspace.Keyspace;
import io.cassette.resp.keyspace.RedisReplication;
import io.cassette.resp.protocol.RequestBudget;
import io.cassette.resp.protocol.RespDecoder;
import io.cassette.resp.protocol.RespLimits;
import io.cassette.resp.server.ActiveExpiry;
import io.cassette.resp.server.CommandDispatcher;
import io.cassette.resp.server.ConnectionHandler;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis front door: a Netty RESP2/RESP3 server over TCP (and optionally a Unix domain
 * socket, pure Java NIO) whose commands run on one thread against the coordinator: by
 * default the single I/O event loop itself (Redis's model, no hand-off per request), or a
 * command thread of its own next to several I/O threads
 * ({@link RespServerOptions#commandsOnEventLoop()} false).
 *
 * <pre>
 *  socket ─► RespDecoder ─► ConnectionHandler ─► CommandDispatcher (command thread) ─► Keyspace ─► Coordinator
 *         ◄──────────────── replies written by Reply into pooled buffers ◄──────────────┘
 * </pre>
 *
 * Lifecycle: construct, {@link #start()}, {@link #close()}. Thread-safe for those calls.
 */
public final class RespServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RespServer.class);
  /** Writes queue up to this many bytes per client before reading from it pauses. */
  static final int WRITE_HIGH_WATER_BYTES = 1 << 20;
  static final int WRITE_LOW_WATER_BYTES = 256 << 10;
  /** How often clients' output limits are checked besides when they run commands. */
  static final long OUTPUT_CHECK_MILLIS = 1000;
  /** Share of the heap all clients' pub/sub subscriptions may take (4 MiB at 64 MiB). */
  static final int SUBSCRIPTIONS_HEAP_DIVISOR = 16;

  private final RespServerOptions options;
  private final Coordinator coordinator;
  private final RedisConfig config = new RedisConfig();
  private final AtomicLong clientIds = new AtomicLong();
  private final List<Channel> listeners = new ArrayList<>();
  private volatile Consumer<String> appendfsyncListener = mode -> { };
  /** Runs every command: the single I/O event loop, or a thread of its own. */
  private ScheduledExecutorService commandThread;
  private EventLoopGroup bossGroup;
  private EventLoopGroup workerGroup;
  private ServerContext server;

  /** What every command shares (for tests that lower a node-wide bound); null before start. */
  public ServerContext context() {
    return server;
  }
  private CommandDispatcher dispatcher;
  /** Decoder limits; replaced by CONFIG SET proto-max-bulk-len, read by every decoder. */
  private volatile RespLimits limits;
  private RequestBudget requestBudget;

  private final NodeMetrics metrics;
  private MessagingService messaging;
  private ConsistencyLevel consistency = Keyspace.defaultConsistency();
  /** resp_replication_factor; 0 = not set (the keyspace is created with 1, an existing one kept). */
  private int replicationFactor;
  /** TLS (tls-port): the acceptor, its port, and whether the plain port listens too. */
  private io.cassette.tls.TlsAcceptor tls;
  private int tlsPort;
  private boolean plainPort = true;
  private volatile InetSocketAddress tlsAddress;
  /** Redis's aclfile: users are read from it at start and written to it on every change. */
  private java.nio.file.Path aclFile;
  /** Where FUNCTION LOAD's libraries persist (null: in memory only). */
  private java.nio.file.Path functionsFile;

  /** A server reporting to the running node's metrics ({@link NodeMetrics#global()}). */
  public RespServer(RespServerOptions options, Coordinator coordinator) {
    this(options, coordinator, NodeMetrics.global());
  }

  /** A server reporting to {@code metrics} (tests pass their own). */
  public RespServer(RespServerOptions options, Coordinator coordinator, NodeMetrics metrics) {
    this.options = options;
    this.coordinator = coordinator;
    this.metrics = metrics;
  }

  /**
   * Called with "always", "everysec" or "no" when a client runs CONFIG SET appendfsync; the
   * launcher maps it to the engine's commit-log mode. Set before {@link #start()}.
   */
  public void onAppendfsyncChange(Consumer<String> listener) {
    this.appendfsyncListener = listener;
  }

  /**
   * On a ring ({@code coordinator} is a {@link RingCoordinator}): runs each key's commands on
   * the node executing that key, reached through {@code messaging} (see
   * {@link io.cassette.resp.ring.RedisRing}). Set before {@link #start()}.
   */
  public void ring(MessagingService messaging) {
    this.messaging = messaging;
  }

  /**
   * On a ring: the {@code redis} keyspace's replication factor ({@code resp_replication_factor},
   * see {@link RedisReplication}), created or changed through the metadata log as the door
   * opens. Set before {@link #start()}; not set, the keyspace keeps what it has (1 when new).
   */
  public void replicationFactor(int rf) {
    RedisReplication.simple(rf); // refuses 0 and below
    this.replicationFactor = rf;
  }

  /** The level of every read and write ({@code resp_consistency}). Set before {@link #start()}. */
  public void consistency(ConsistencyLevel level) {
    this.consistency = level;
  }

  /**
   * Also listens for TLS clients on {@code port} (Redis's tls-port; 0 = ephemeral) with
   * {@code acceptor}'s context; with {@code plainPort} false the plain TCP port is not opened
   * (Redis's {@code port 0}). Set before {@link #start()}.
   */
  public RespServer tls(io.cassette.tls.TlsAcceptor acceptor, int port, boolean plainPort) {
    this.tls = acceptor;
    this.tlsPort = port;
    this.plainPort = plainPort;
    return this;
  }

  /** The bound TLS address once started, or null without TLS. */
  public InetSocketAddress tlsAddress() {
    return tlsAddress;
  }

  /** Redis's aclfile: read at start when present, written on every ACL change. Before {@link #start()}. */
  public RespServer aclFile(java.nio.file.Path file) {
    this.aclFile = file;
    return this;
  }

  /** Where function libraries persist across restarts (FUNCTION LOAD...). Before {@link #start()}. */
  public RespServer functionsFile(java.nio.file.Path file) {
    this.functionsFile = file;
    return this;
  }

  /** The initial appendfsync shown by CONFIG GET (the launcher's commit-log mode). */
  public void initialAppendfsync(String mode) {
    config.init("appendfsync", mode);
  }

  /**
   * Opens (or creates) the Redis tables, binds the TCP port (and Unix socket) and starts
   * serving. Returns the bound TCP address (the real port when {@code options.port()} is 0).
   */
  public synchronized InetSocketAddress start() {
    if (server != null) {
      throw new IllegalStateException("RespServer already started");
    }
    bossGroup = new NioEventLoopGroup(1, new DefaultThreadFactory("resp-accept", true));
    if (options.commandsOnEventLoop()) {
      // Redis's model: one thread reads, runs commands and writes; no hand-off per request.
      workerGroup = new NioEventLoopGroup(1, new DefaultThreadFactory("resp-io", true));
      commandThread = workerGroup.next();
    } else {
      workerGroup = new NioEventLoopGroup(Math.max(1, options.ioThreads()),
          new DefaultThreadFactory("resp-io", true));
      ScheduledThreadPoolExecutor own = new ScheduledThreadPoolExecutor(1,
          new DefaultThreadFactory("resp-commands", true));
      own.setRemoveOnCancelPolicy(true);
      commandThread = own;
    }
    Keyspace keyspace;
    try {
      // On a ring with RedisRing each key is written by one node only: caching stays safe.
      boolean keysWrittenHere = coordinator.seesAllWrites()
          || (messaging != null && coordinator instanceof RingCoordinator);
      int rf = replicationFactor;
      keyspace = commandThread.submit(() -> {
        if (rf > 0) {
          Keyspace.applyReplication(coordinator, rf);
        }
        return new Keyspace(coordinator, Runtime.getRuntime().maxMemory() / Keyspace.CACHE_HEAP_DIVISOR, consistency,
            keysWrittenHere);
      }).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException("interrupted while opening Redis tables", e);
    } catch (ExecutionException e) {
      close();
      throw new IllegalStateException("cannot open Redis tables: " + e.getCause(), e.getCause());
    }
    config.init("port", Integer.toString(options.port()));
    config.init("bind", options.host());
    config.init("requirepass", options.requirePass() == null ? "" : options.requirePass());
    config.init("protected-mode", options.protectedMode() ? "yes" : "no");
    config.init("proto-max-bulk-len", Long.toString(options.maxBulkLength()));
    config.init("maxclients", Integer.toString(options.maxClients()));
    limits = options.limits();
    requestBudget = new RequestBudget(options.requestBudgetBytes());
    OutputLimits outputs = outputLimits();
    config.init("client-output-buffer-limit", outputs.configValue());
    config.applier("client-output-buffer-limit", value -> {
      outputs.set(value);
      return outputs.configValue();
    });
    config.init("io-threads", Integer.toString(options.ioThreads()));
    if (options.unixSocket() != null) {
      config.init("unixsocket", options.unixSocket().toString());
      config.init("unixsocketperm", Integer.toOctalString(options.unixSocketPerm()));
    }
    config.init("slowlog-log-slower-than", Long.toString(metrics.respSlowLog().slowerThanMicros()));
    config.init("slowlog-max-len", Integer.toString(metrics.respSlowLog().maxLen()));
    config.init("latency-monitor-threshold",
        Long.toString(metrics.latencyMonitor().thresholdMillis()));
    config.onSet((name, value) -> {
      switch (name) {
        case "appendfsync" -> appendfsyncListener.accept(value.toLowerCase());
        case "slowlog-log-slower-than" -> metrics.respSlowLog().setSlowerThanMicros(Long.parseLong(value));
        case "slowlog-max-len" -> metrics.respSlowLog().setMaxLen(Integer.parseInt(value));
        case "latency-monitor-threshold" ->
            metrics.latencyMonitor().setThresholdMillis(Long.parseLong(value));
        case "maxclients" -> server.maxClients = Long.parseLong(value);
        case "requirepass" -> server.acl.requirePass(value);
        case "proto-max-bulk-len" -> {
          long bulk = Long.parseLong(config.get("proto-max-bulk-len"));
          RespLimits old = limits;
          limits = new RespLimits(bulk, old.maxMultibulkLength(), old.maxInlineLength());
          server.maxStringLength = bulk;
        }
        default -> { }
      }
    });
    server = new ServerContext(keyspace, CommandTable.standard(), config, commandThread,
        options.pubsubOutputLimitBytes(), metrics, requestBudget);
    server.outputs = outputs;
    if (aclFile != null) {
      try {
        server.acl.useFile(aclFile);
      } catch (IOException e) {
        close();
        throw new IllegalStateException("cannot load the ACL file " + aclFile + ": " + e.getMessage(), e);
      }
      config.init("aclfile", aclFile.toString());
      if (options.requirePass() != null && !options.requirePass().isEmpty()) {
        server.acl.requirePass(options.requirePass()); // requirepass wins over the file's default user
      }
    }
    server.maxClients = options.maxClients();
    server.maxStringLength = options.maxBulkLength();
    server.pubsub.maxBytes(Math.max(1L << 20,
        Runtime.getRuntime().maxMemory() / SUBSCRIPTIONS_HEAP_DIVISOR));
    // WATCHed keys: the same share as subscriptions, each a key and its bookkeeping
    server.watches.maxBytes(Math.max(1L << 20,
        Runtime.getRuntime().maxMemory() / SUBSCRIPTIONS_HEAP_DIVISOR));
    dispatcher = new CommandDispatcher(server, commandThread);
    server.runner = dispatcher;
    try {
      ServerContext ctx = server;
      server.scripts = commandThread.submit(
          () -> new io.cassette.resp.script.ScriptEngine(ctx, functionsFile)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException("interrupted while loading functions", e);
    } catch (ExecutionException e) {
      close();
      throw new IllegalStateException("cannot load functions: " + e.getCause().getMessage(),
          e.getCause());
    }
    if (messaging != null && coordinator instanceof RingCoordinator rc) {
      RedisRing ring = new RedisRing(messaging, rc::ring, coordinator.metadata(),
          functionsFile == null ? null : functionsFile.resolveSibling("redis-leases"));
      rc.fenceGuard(ring.fenceGuard()); // this node, as a replica, refuses writes of executors that lost their lease
      ring.start(server);
      keyspace.router(ring);
      server.ring = ring;
    }
    commandThread.scheduleWithFixedDelay(new ActiveExpiry(server), ActiveExpiry.PERIOD_MILLIS,
        ActiveExpiry.PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    commandThread.scheduleWithFixedDelay(dispatcher::checkOutputLimits, OUTPUT_CHECK_MILLIS,
        OUTPUT_CHECK_MILLIS, TimeUnit.MILLISECONDS);

    try {
      InetSocketAddress bound = null;
      if (plainPort) {
        Channel tcp = bootstrap(NioServerSocketChannel.class, true, null)
            .bind(options.host(), options.port()).sync().channel();
        listeners.add(tcp);
        bound = (InetSocketAddress) tcp.localAddress();
        server.tcpPort = bound.getPort();
        config.init("port", Integer.toString(bound.getPort()));
      } else {
        config.init("port", "0");
      }
      if (tls != null) {
        Channel secure = bootstrap(NioServerSocketChannel.class, true, tls)
            .bind(options.host(), tlsPort).sync().channel();
        listeners.add(secure);
        tlsAddress = (InetSocketAddress) secure.localAddress();
        config.init("tls-port", Integer.toString(tlsAddress.getPort()));
        if (bound == null) {
          bound = tlsAddress;
          server.tcpPort = bound.getPort();
        }
        LOG.info("Redis protocol over TLS listening on {}:{}", options.host(), tlsAddress.getPort());
      }
      if (options.unixSocket() != null) {
        Files.deleteIfExists(options.unixSocket());
        Channel unix = bootstrap(NioServerDomainSocketChannel.class, false, null)
            .bind(UnixDomainSocketAddress.of(options.unixSocket())).sync().channel();
        listeners.add(unix);
        if (options.unixSocketPerm() != 0) {
          Files.setPosixFilePermissions(options.unixSocket(), permissions(options.unixSocketPerm()));
        }
      }
      if (plainPort) {
        LOG.info("Redis protocol listening on {}:{}{}", options.host(), bound.getPort(),
            options.unixSocket() == null ? "" : " and " + options.unixSocket());
      }
      warnIfOpen();
      return bound;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException("interrupted while binding", e);
    } catch (IOException | RuntimeException e) {
      close();
      throw new IllegalStateException("cannot listen for Redis clients on " + options.host() + ":"
          + options.port() + ": " + e, e);
    }
  }

  /**
   * Anyone who reaches a non-loopback address may use the door when the default user needs no
   * password: say so once at start (protected mode still refuses non-loopback clients while
   * it is on, as Redis's does).
   */
  private void warnIfOpen() {
    String warning = openDoorWarning(options.host(), server.requiresPassword(),
        "yes".equals(config.get("protected-mode")));
    if (warning != null) {
      LOG.warn(warning);
    }
  }

  /** The start-up warning for a door on {@code host}, or null when there is nothing to say. */
  static String openDoorWarning(String host, boolean needsPassword, boolean protectedMode) {
    if (needsPassword) {
      return null;
    }
    try {
      if (java.net.InetAddress.getByName(host).isLoopbackAddress()) {
        return null;
      }
    } catch (java.net.UnknownHostException e) {
      LOG.debug("cannot resolve {}: {}", host, e.toString());
    }
    return "WARNING: the Redis door listens on " + host + " (not loopback) and the default user "
        + "has no password: " + (protectedMode
            ? "protected mode refuses clients from other hosts until one is set"
            : "protected mode is off, so ANY client that can reach it may read and change data")
        + ". Set requirepass (or ACL SETUSER default on >password) before exposing it.";
  }

  private ServerBootstrap bootstrap(Class<? extends io.netty.channel.ServerChannel> type,
                                    boolean tcp, io.cassette.tls.TlsAcceptor secure) {
    ServerBootstrap b = new ServerBootstrap().group(bossGroup, workerGroup).channel(type)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
            new WriteBufferWaterMark(WRITE_LOW_WATER_BYTES, WRITE_HIGH_WATER_BYTES))
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            if (secure != null) {
              secure.addTo(ch);
            }
            boolean authenticated = !server.requiresPassword();
            RespDecoder decoder = new RespDecoder(() -> limits, requestBudget, authenticated);
            ch.pipeline().addLast("resp-decoder", decoder);
            ch.pipeline().addLast("resp-connection", new ConnectionHandler(server, dispatcher,
                clientIds, options.protectedMode(), decoder));
          }
        });
    if (tcp) {
      b.option(ChannelOption.SO_REUSEADDR, true).childOption(ChannelOption.TCP_NODELAY, true);
    }
    return b;
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE,
        PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE,
        PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
    for (int i = 0; i < order.length; i++) {
      if ((mode & (1 << i)) != 0) {
        set.add(order[i]);
      }
    }
    return set;
  }

  /**
   * client-output-buffer-limit from the direct memory replies wait in; pub/sub's hard limit
   * is {@link RespServerOptions#pubsubOutputLimitBytes()}.
   */
  private OutputLimits outputLimits() {
    OutputLimits d = OutputLimits.forDirectMemory(PlatformDependent.maxDirectMemory());
    long pubsub = options.pubsubOutputLimitBytes();
    OutputLimits limits = new OutputLimits(clientsMemoryBytes > 0 ? clientsMemoryBytes : d.nodeBudget, d.normal(),
        new OutputLimits.Limit(pubsub, Math.min(8L << 20, pubsub / 4), 60));
    if (configuredOutputLimits != null) {
      try {
        limits.set(configuredOutputLimits);
      } catch (io.cassette.resp.command.RedisException e) {
        throw new IllegalArgumentException("client_output_buffer_limit '" + configuredOutputLimits + "': "
            + e.getMessage(), e);
      }
    }
    return limits;
  }

  /** client-output-buffer-limit from the node's configuration (Redis's format); null: derived. */
  private String configuredOutputLimits;
  /** maxmemory-clients: the node's bound on all clients' unsent replies; 0: direct memory / 4. */
  private long clientsMemoryBytes;

  /**
   * Redis's client-output-buffer-limit as redis.conf writes it ("normal 16mb 4mb 60 pubsub ...");
   * the classes it names replace the derived ones. Before {@link #start()}.
   */
  public RespServer clientOutputBufferLimit(String value) {
    this.configuredOutputLimits = value;
    outputLimits(); // refuses a bad value now
    return this;
  }

  /**
   * Redis 7's maxmemory-clients (bytes): while all clients' unsent replies exceed it, the ones
   * holding the most are closed (OutputLimits.nodeBudget). Before {@link #start()}.
   */
  public RespServer maxmemoryClients(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("maxmemory_clients must be > 0: " + bytes);
    }
    this.clientsMemoryBytes = bytes;
    return this;
  }

  /** client-output-buffer-limit as this server started with it (CONFIG SET format). */
  public String defaultOutputLimits() {
    return outputLimits().configValue();
  }

  /** Request bytes in flight on this door now (tests, status). */
  public long requestBytesInFlight() {
    RequestBudget b = requestBudget;
    return b == null ? 0 : b.used();
  }

  /** Replaces the bound on the heap all WATCHed keys take (tests, embedders); after start. */
  public void watchLimitBytes(long bytes) {
    server.watches.maxBytes(bytes);
  }

  /** Replaces the bound on the heap all subscriptions take (tests, embedders); after start. */
  public void subscriptionLimitBytes(long bytes) {
    server.pubsub.maxBytes(bytes);
  }

  /** Number of connected clients (for the launcher's status and tests). */
  public int connectedClients() {
    ServerContext s = server;
    return s == null ? 0 : s.clients.size();
  }

  /** Stops accepting, closes every connection, stops the command thread. Idempotent. */
  @Override
  public synchronized void close() {
    if (server != null && server.ring != null) {
      server.ring.close();
    }
    for (Channel c : listeners) {
      c.close().awaitUninterruptibly();
    }
    listeners.clear();
    if (server != null) {
      for (Session s : server.clients.values()) {
        s.channel.close();
      }
    }
    if (server != null && server.scripts != null) {
      server.scripts.close();
    }
    if (workerGroup != null) {
      workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
      bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
      workerGroup = null;
      bossGroup = null;
    }
    if (commandThread != null && !options.commandsOnEventLoop()) {
      commandThread.shutdown();
      try {
        if (!commandThread.awaitTermination(5, TimeUnit.SECONDS)) {
          commandThread.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        commandThread.shutdownNow();
      }
    }
    commandThread = null;
    if (options.unixSocket() != null) {
      try {
        Files.deleteIfExists(options.unixSocket());
      } catch (IOException e) {
        LOG.debug("could not remove {}: {}", options.unixSocket(), e.toString());
      }
    }
  }
}
