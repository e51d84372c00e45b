package io.cassette.cluster.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's internode messaging: a Netty server on {@code listen_address:storage_port} and
 * outbound connections to peers, with request/response matching, per-verb expiry,
 * back-pressure and the {@link MessageFilters} fault-injection hook.
 *
 * <pre>
 * MessagingService ms = new MessagingService(MessagingConfig.builder(addr).clusterName("c").build());
 * ms.registerHandler(Verb.READ_REQ, m -> ms.respond(m, read(m.payload())));
 * ms.start();
 * ms.sendWithCallback(peer, Message.out(Verb.READ_REQ, bytes)).thenAccept(rsp -> ...);
 * ms.stop();
 * </pre>
 *
 * <p>Threads: {@code socketThreads} Netty event loops (sockets and timers) and up to
 * {@code handlerThreads} handler threads that exit when idle. Verb handlers and every future
 * returned by {@link #sendWithCallback} run/complete on a handler thread (except failures
 * detected at send time, which complete before the call returns): do not block in them for long.
 * {@link #sendWithQuickCallback} completes answers on the event loop instead.
 * PING_REQ and ECHO_REQ are answered on the event loop, so a busy node still shows it is alive.
 *
 * <p>Thread-safe. {@link #start()} once; {@link #stop()} is final.
 */
public final class MessagingService {
  /** server_encryption_options (null: plain text). */
  private volatile InternodeEncryption encryption;
  private static final Logger log = LoggerFactory.getLogger(MessagingService.class);
  /** The messaging version this build speaks. */
  public static final int CURRENT_VERSION = 1;
  /** The oldest version this build still accepts. */
  public static final int MIN_VERSION = 1;

  private final MessagingConfig config;
  private final int version;
  private final int minVersion;
  private final InternodeMetrics metrics;
  private final EventLoopGroup group;
  private final boolean ownsGroup;
  private final ThreadPoolExecutor handlerExecutor;
  private final ByteReserve globalReserve;
  private final Map<InetSocketAddress, Peer> peers = new ConcurrentHashMap<>();
  private final Map<Long, Callback> callbacks = new ConcurrentHashMap<>();
  private final Map<Verb, VerbHandler> handlers = new ConcurrentHashMap<>();
  /** Accepted connections, closed at stop (a shared event loop group would keep them open). */
  private final java.util.Set<Channel> inbound = ConcurrentHashMap.newKeySet();
  private final AtomicLong nextId = new AtomicLong();
  private volatile MessageFilters filters = new MessageFilters();
  private volatile InetSocketAddress address;
  private volatile Channel serverChannel;
  private volatile boolean stopped;

  public MessagingService(MessagingConfig config) {
    this(config, CURRENT_VERSION, MIN_VERSION);
    String faults = System.getProperty("cassette.test_fault.message_filter");
    if (faults != null && !faults.isBlank()) {
      filters.addSpec(faults); // the fault lab's message faults (never set in production)
    }
  }

  /** With other messaging versions: tests of version refusal. */
  MessagingService(MessagingConfig config, int version, int minVersion) {
    this.config = config;
    this.version = version;
    this.minVersion = minVersion;
    this.metrics = new InternodeMetrics(config.metrics());
    this.address = config.address();
    this.ownsGroup = config.eventLoopGroup() == null;
    this.group = ownsGroup ? new NioEventLoopGroup(config.socketThreads(),
        new DefaultThreadFactory("cassette-internode-" + config.listenAddress().getHostAddress(), true))
        : config.eventLoopGroup();
    this.handlerExecutor = new ThreadPoolExecutor(config.handlerThreads(), config.handlerThreads(),
        30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        new DefaultThreadFactory("cassette-internode-handler-" + config.listenAddress().getHostAddress(), true));
    this.handlerExecutor.allowCoreThreadTimeOut(true);
    this.globalReserve = new ByteReserve(config.sendQueueGlobalCapacity());
    metrics.pendingBytesGauge(() -> globalReserve.used());
    handlers.put(Verb.PING_REQ, m -> respond(m, new byte[0]));
    handlers.put(Verb.ECHO_REQ, m -> respond(m, new byte[0]));
  }

  /**
   * Binds {@code listen_address:storage_port}. Throws {@link IllegalStateException} naming the
   * address when it cannot (port in use, address not local).
   */
  /**
   * Encrypts connections as {@code server_encryption_options} says; null (the default) is
   * plain text. Set before {@link #start()}.
   */
  public MessagingService encryption(InternodeEncryption encryption) {
    this.encryption = encryption;
    return this;
  }

  /** The internode TLS settings, or null. */
  public InternodeEncryption encryption() {
    return encryption;
  }

  public MessagingService start() {
    ServerBootstrap b = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            inbound.add(ch);
            ch.closeFuture().addListener(f -> inbound.remove(ch));
            if (stopped) ch.close();
            InternodeEncryption tls = encryption;
            if (tls != null) tls.accept(ch);
            ch.pipeline().addLast("handshake", new InboundHandshakeHandler(MessagingService.this));
          }
        });
    try {
      serverChannel = b.bind(config.listenAddress(), config.storagePort()).sync().channel();
    } catch (Exception e) {
      stopQuietly();
      throw new IllegalStateException("cannot listen for internode messages on "
          + config.listenAddress().getHostAddress() + ":" + config.storagePort() + " (storage_port): " + e, e);
    }
    address = (InetSocketAddress) serverChannel.localAddress();
    log.info("Internode messaging listening on {} (cluster '{}', messaging version {})",
        address, config.clusterName(), version);
    return this;
  }

  /** Closes the server and every connection; pending requests fail with {@link MessagingStoppedException}. */
  public void stop() {
    if (stopped) return;
    stopped = true;
    if (serverChannel != null) serverChannel.close().awaitUninterruptibly();
    for (Channel ch : inbound) ch.close();
    for (Peer p : peers.values()) p.close();
    for (Long id : callbacks.keySet()) failCallback(id, new MessagingStoppedException(address));
    stopQuietly();
    log.info("Internode messaging on {} stopped", address);
  }

  private void stopQuietly() {
    if (ownsGroup) group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    handlerExecutor.shutdown();
  }

  /** This node's address as peers know it (with the bound port). */
  public InetSocketAddress address() {
    return address;
  }

  public MessagingConfig config() {
    return config;
  }

  /** The event loops, for timers that must not cost a thread (the failure detector's). */
  public ScheduledExecutorService scheduler() {
    return group;
  }

  /** Where verb handlers and response futures run. */
  public ExecutorService handlerExecutor() {
    return handlerExecutor;
  }

  /** Registers (or replaces) the handler for a verb. */
  public void registerHandler(Verb verb, VerbHandler handler) {
    handlers.put(verb, handler);
  }

  /** The filters in force; empty (off) unless a test adds rules. */
  public MessageFilters filters() {
    return filters;
  }

  /** Shares one filter set among the nodes of an in-JVM ring. */
  public void useFilters(MessageFilters shared) {
    this.filters = shared;
  }

  /** The peer at this address on our storage port. */
  public InetSocketAddress peer(InetAddress address) {
    return new InetSocketAddress(address, this.address.getPort());
  }

  /**
   * Sends a request and returns its answer: the response message, or an exceptional completion
   * with {@link RequestTimeoutException} (no answer within the verb's timeout or the message's
   * own), {@link RequestFailureException} (FAILURE_RSP), {@link OverloadedException} (not queued:
   * back-pressure), {@link HandshakeRefusedException} or {@link MessagingStoppedException}.
   */
  public CompletableFuture<Message> sendWithCallback(InetSocketAddress peer, Message message) {
    return sendWithCallback(peer, message, false);
  }

  /**
   * As {@link #sendWithCallback(InetSocketAddress, Message)}, but an answer (response or
   * FAILURE_RSP) completes the future on the event loop that read it, without the hop to a
   * handler thread: one thread wake-up less per answer, which on a board's single core is most
   * of an answer's cost. Timeouts and send failures still complete on a handler thread.
   * Requires: whatever depends on the future is quick and never blocks (the write path's
   * acknowledgement counting); anything else uses the ordinary method.
   */
  public CompletableFuture<Message> sendWithQuickCallback(InetSocketAddress peer, Message message) {
    return sendWithCallback(peer, message, true);
  }

  private CompletableFuture<Message> sendWithCallback(InetSocketAddress peer, Message message, boolean quick) {
    CompletableFuture<Message> future = new CompletableFuture<>();
    if (message.verb().responseVerb() == null) {
      future.completeExceptionally(new IllegalArgumentException(message.verb() + " has no response verb; use send()"));
      return future;
    }
    long id = nextId.incrementAndGet();
    int expiry = expiryMillis(message);
    Message out = message.stamped(id, Message.FLAG_EXPECTS_RESPONSE, config.epoch().getAsLong(),
        System.currentTimeMillis(), expiry);
    Callback cb = new Callback(peer, message.verb(), future, quick);
    callbacks.put(id, cb);
    cb.timer = group.schedule(() -> {
      if (callbacks.remove(id, cb)) {
        metrics.timeout();
        completeOnHandlerThread(() -> future.completeExceptionally(new RequestTimeoutException(peer, cb.verb, expiry)));
      }
    }, expiry, TimeUnit.MILLISECONDS);
    try {
      route(peer, out, id);
    } catch (MessagingException | IllegalArgumentException e) {
      if (callbacks.remove(id, cb)) {
        cb.timer.cancel(false);
        future.completeExceptionally(e);
      }
    }
    return future;
  }

  /**
   * Sends a one-way message (or an answer built elsewhere). Throws {@link OverloadedException} or
   * {@link HandshakeRefusedException} when it cannot be queued; delivery is not confirmed.
   */
  public void send(InetSocketAddress peer, Message message) {
    Message out = message.stamped(nextId.incrementAndGet(), 0, config.epoch().getAsLong(),
        System.currentTimeMillis(), expiryMillis(message));
    route(peer, out, 0);
  }

  /** Answers a request with its verb's response carrying {@code payload}. */
  public void respond(Message request, byte[] payload) {
    Verb rv = request.verb().responseVerb();
    if (rv == null) throw new IllegalArgumentException(request.verb() + " expects no response");
    answer(request, Message.out(rv, payload), Message.FLAG_RESPONSE);
  }

  /** Answers a request with FAILURE_RSP: the requester's future fails with this reason. */
  public void respondFailure(Message request, RequestFailureReason reason, String detail) {
    answer(request, Message.out(Verb.FAILURE_RSP, FailurePayload.encode(reason, detail)),
        Message.FLAG_RESPONSE | Message.FLAG_FAILURE);
  }

  private void answer(Message request, Message response, int flags) {
    if (!request.hasFlag(Message.FLAG_EXPECTS_RESPONSE) || request.from() == null) return;
    Message out = response.stamped(request.id(), flags, config.epoch().getAsLong(),
        System.currentTimeMillis(), request.expiresInMillis() > 0 ? request.expiresInMillis()
            : (int) config.timeouts().millis(request.verb()));
    try {
      route(request.from(), out, 0);
    } catch (MessagingException e) {
      log.debug("Could not answer {}: {}", request, e.getMessage());
    }
  }

  private int expiryMillis(Message m) {
    return m.expiresInMillis() > 0 ? m.expiresInMillis() : (int) config.timeouts().millis(m.verb());
  }

  /** Applies the filters, then queues on the right connection. */
  private void route(InetSocketAddress peer, Message m, long callbackId) {
    if (stopped) throw new MessagingStoppedException(peer);
    int size = MessageSerializer.bodySize(m);
    if (size > config.maxMessageSize()) {
      throw new IllegalArgumentException("message size: " + size + " (expected: <= " + config.maxMessageSize()
          + ", internode_max_message_size)");
    }
    MessageFilters f = filters;
    if (!f.isEmpty()) {
      MessageFilters.Rule rule = f.match(address.getAddress(), peer.getAddress(), m.verb());
      if (rule != null) {
        switch (rule.kind) {
          case DROP -> {
            metrics.droppedFilter();
            return;
          }
          case DUPLICATE -> {
            enqueue(peer, m, callbackId);
            enqueue(peer, m, 0);
            return;
          }
          case DELAY, REORDER -> {
            group.schedule(() -> {
              try {
                enqueue(peer, m, callbackId);
              } catch (MessagingException e) {
                if (callbackId != 0) failCallback(callbackId, e);
              }
            }, rule.delayMillis(), TimeUnit.MILLISECONDS);
            return;
          }
          default -> throw new AssertionError(rule.kind);
        }
      }
    }
    enqueue(peer, m, callbackId);
  }

  private void enqueue(InetSocketAddress peer, Message m, long callbackId) {
    if (stopped) throw new MessagingStoppedException(peer); // e.g. a filter's delayed message
    ConnectionType type = MessageSerializer.OVERHEAD_BYTES + m.payload().length >= config.largeMessageThreshold()
        ? ConnectionType.LARGE : m.verb().connectionType();
    try {
      peerState(peer).connection(type).enqueue(m, callbackId);
    } catch (OverloadedException e) {
      metrics.droppedOverload();
      throw e;
    }
  }

  private Peer peerState(InetSocketAddress peer) {
    Peer p = peers.get(peer);
    if (p != null) return p;
    return peers.computeIfAbsent(peer, Peer::new);
  }

  /** Messages waiting to be written to this peer (all its connections). */
  public int queuedMessages(InetSocketAddress peer) {
    Peer p = peers.get(peer);
    if (p == null) return 0;
    int n = 0;
    for (OutboundConnection c : p.connections.values()) n += c.queuedMessages();
    return n;
  }

  /** Why the peer last refused our handshake, while that refusal holds. */
  public Optional<HandshakeRefusedException> lastRefusal(InetSocketAddress peer) {
    Peer p = peers.get(peer);
    if (p == null) return Optional.empty();
    for (OutboundConnection c : p.connections.values()) {
      if (c.lastRefusal() != null) return Optional.of(c.lastRefusal());
    }
    return Optional.empty();
  }

  /** Counters for tests and reports: sent, received, corrupt frames, overloads, timeouts. */
  public Stats stats() {
    return new Stats(metrics.sentCount(), metrics.receivedCount(), metrics.corruptFrameCount(),
        metrics.overloadCount(), metrics.timeoutCount());
  }

  public record Stats(long sent, long received, long corruptFrames, long overloaded, long timeouts) {}

  // --- package-private: used by connections and handlers ---

  InternodeMetrics metrics() {
    return metrics;
  }

  int messagingVersion() {
    return version;
  }

  int minMessagingVersion() {
    return minVersion;
  }

  /** Checks a peer's ACCEPT; null when fine, else why we refuse it. */
  String checkAccept(Handshake.Accept a) {
    if (!a.clusterName().equals(config.clusterName())) {
      return "peer's cluster name '" + a.clusterName() + "' differs from ours '" + config.clusterName() + "'";
    }
    if (a.version() < minVersion || a.version() > version) {
      return "peer chose messaging version " + a.version() + ", we speak " + minVersion + ".." + version;
    }
    return null;
  }

  void failCallback(long id, MessagingException e) {
    Callback cb = callbacks.remove(id);
    if (cb == null) return;
    if (cb.timer != null) cb.timer.cancel(false);
    completeOnHandlerThread(() -> cb.future.completeExceptionally(e));
  }

  /** Futures complete on handler threads, never on an event loop; in the caller's thread once stopped. */
  private void completeOnHandlerThread(Runnable completion) {
    try {
      handlerExecutor.execute(completion);
    } catch (java.util.concurrent.RejectedExecutionException stopped) {
      completion.run();
    }
  }

  /** A decoded message from a peer; {@code done} gives its inbound bytes back. */
  void deliver(Message m, Runnable done) {
    if (m.hasFlag(Message.FLAG_RESPONSE)) {
      Callback cb = callbacks.get(m.id());
      if (cb != null && cb.quick) {
        try {
          onResponse(m); // on the event loop: the caller promised quick dependents
        } finally {
          done.run();
        }
        return;
      }
      execute(() -> {
        try {
          onResponse(m);
        } finally {
          done.run();
        }
      }, done);
      return;
    }
    VerbHandler handler = handlers.get(m.verb());
    if (m.verb() == Verb.PING_REQ || m.verb() == Verb.ECHO_REQ) {
      run(m, handler, done); // on the event loop: liveness must not queue behind work
      return;
    }
    execute(() -> run(m, handler, done), done);
  }

  private void execute(Runnable task, Runnable done) {
    try {
      handlerExecutor.execute(task);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      done.run(); // stopping
    }
  }

  private void run(Message m, VerbHandler handler, Runnable done) {
    try {
      if (m.isExpired(System.nanoTime())) {
        metrics.droppedExpired();
        return;
      }
      if (handler == null) {
        log.debug("No handler for {} from {}", m.verb(), m.from());
        respondFailure(m, RequestFailureReason.UNKNOWN_VERB, "no handler for " + m.verb());
        return;
      }
      handler.handle(m);
    } catch (Throwable t) {
      log.warn("Handler for {} from {} failed", m.verb(), m.from(), t);
      respondFailure(m, RequestFailureReason.UNKNOWN, t.toString());
    } finally {
      done.run();
    }
  }

  private void onResponse(Message m) {
    Callback cb = callbacks.get(m.id());
    if (cb == null || !cb.peer.getAddress().equals(m.from().getAddress())) {
      metrics.droppedLateResponse(); // timed out already, or a duplicate
      return;
    }
    if (!callbacks.remove(m.id(), cb)) {
      metrics.droppedLateResponse();
      return;
    }
    cb.timer.cancel(false);
    if (m.isFailure()) {
      cb.future.completeExceptionally(new RequestFailureException(cb.peer, cb.verb, m.failureReason(),
          FailurePayload.detail(m.payload())));
    } else {
      cb.future.complete(m);
    }
  }

  /** A request waiting for its answer. */
  private static final class Callback {
    final InetSocketAddress peer;
    final Verb verb;
    final CompletableFuture<Message> future;
    /** Answers complete the future on the event loop ({@link #sendWithQuickCallback}). */
    final boolean quick;
    volatile ScheduledFuture<?> timer;

    Callback(InetSocketAddress peer, Verb verb, CompletableFuture<Message> future, boolean quick) {
      this.peer = peer;
      this.verb = verb;
      this.future = future;
      this.quick = quick;
    }
  }

  /** One peer: its byte reserve and up to one connection per type, all on one event loop. */
  private final class Peer {
    final InetSocketAddress address;
    final ByteReserve reserve = new ByteReserve(config.sendQueueEndpointCapacity());
    final io.netty.channel.EventLoop eventLoop = group.next();
    final Map<ConnectionType, OutboundConnection> connections = new ConcurrentHashMap<>();

    Peer(InetSocketAddress address) {
      this.address = address;
    }

    OutboundConnection connection(ConnectionType type) {
      OutboundConnection c = connections.get(type);
      if (c != null) return c;
      return connections.computeIfAbsent(type,
          t -> new OutboundConnection(MessagingService.this, address, t, reserve, globalReserve, eventLoop));
    }

    void close() {
      for (OutboundConnection c : connections.values()) c.close();
    }
  }
}
