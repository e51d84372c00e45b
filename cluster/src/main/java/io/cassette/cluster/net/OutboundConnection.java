package io.cassette.cluster.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One way to one peer for one {@link ConnectionType}: a bounded queue of messages, the socket,
 * and the reconnect loop. Senders on any thread call {@link #enqueue}, which takes byte permits
 * from the peer's and the node's {@link ByteReserve} or refuses with {@link OverloadedException};
 * everything else happens on this connection's event loop.
 *
 * <p>States: IDLE (no socket; connects when a message arrives) → CONNECTING (TCP connect and
 * handshake) → CONNECTED, or → BACKOFF after a failure (retry after {@link Backoff}'s delay while
 * messages wait). A refused handshake fails the queued messages with the reason, and new sends
 * fail at once with it until the next retry. Queued messages survive reconnects; those past
 * their expiry are dropped on the way out.
 *
 * <p>Permits are given back when a message leaves the queue for the socket; the socket's own
 * buffer is bounded by a write-buffer water mark, and the queue is not drained while the
 * channel is unwritable, so a slow peer costs at most the reserve plus the water mark.
 */
final class OutboundConnection {
  private static final Logger log = LoggerFactory.getLogger(OutboundConnection.class);
  /** Netty's outbound buffer per connection: writing pauses above HIGH, resumes below LOW. */
  static final int WATER_MARK_LOW = 32 * 1024;
  static final int WATER_MARK_HIGH = 64 * 1024;
  /**
   * What a queued message costs beyond its payload, charged to the byte budgets so they bound
   * heap rather than wire bytes: Message (~64 B), payload array header (16), queue entry (~40),
   * queue node (~24), rounded up. On the wire the same message costs 35 bytes plus payload.
   */
  static final int QUEUED_MESSAGE_OVERHEAD_BYTES = 160;

  private enum State { IDLE, CONNECTING, CONNECTED, BACKOFF, CLOSED }

  /** A queued message; {@code callbackId} is 0 for one-way messages and answers. */
  private record Pending(Message message, int bytes, long deadlineNanos, long callbackId) {}

  private final MessagingService service;
  private final InetSocketAddress peer;
  private final ConnectionType type;
  private final ByteReserve endpointReserve;
  private final ByteReserve globalReserve;
  private final EventLoop eventLoop;
  private final Backoff backoff;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicBoolean drainScheduled = new AtomicBoolean();

  // Event-loop state.
  private State state = State.IDLE;
  private Channel channel;
  private FrameWriter writer;
  private int attempt;
  private boolean loggedUnreachable;
  /** Set while a refusal holds: sends fail fast with it until this nano time. */
  private volatile HandshakeRefusedException refusal;
  private volatile long refusedUntilNanos;

  OutboundConnection(MessagingService service, InetSocketAddress peer, ConnectionType type,
      ByteReserve endpointReserve, ByteReserve globalReserve, EventLoop eventLoop) {
    this.service = service;
    this.peer = peer;
    this.type = type;
    this.endpointReserve = endpointReserve;
    this.globalReserve = globalReserve;
    this.eventLoop = eventLoop;
    MessagingConfig c = service.config();
    this.backoff = new Backoff(c.reconnectInitialDelay(), c.reconnectMaxDelay());
  }

  /**
   * Queues a stamped message. Throws {@link OverloadedException} when a limit is reached and
   * {@link HandshakeRefusedException} while the peer refuses us; nothing is queued then.
   */
  void enqueue(Message m, long callbackId) {
    HandshakeRefusedException r = refusal;
    if (r != null && System.nanoTime() - refusedUntilNanos < 0) {
      throw new HandshakeRefusedException(peer, r.refusal(), r.getMessage());
    }
    int bytes = QUEUED_MESSAGE_OVERHEAD_BYTES + m.payload().length;
    MessagingConfig c = service.config();
    if (queued.incrementAndGet() > c.maxQueuedMessages()) {
      queued.decrementAndGet();
      throw new OverloadedException(peer, c.maxQueuedMessages() + " messages queued for " + peer + " (" + type + ")");
    }
    if (!endpointReserve.tryReserve(bytes)) {
      queued.decrementAndGet();
      throw new OverloadedException(peer, endpointReserve.used() + " bytes queued for " + peer
          + ", +" + bytes + " > " + endpointReserve.limit()
          + " (internode_application_send_queue_reserve_endpoint_capacity)");
    }
    if (!globalReserve.tryReserve(bytes)) {
      endpointReserve.release(bytes);
      queued.decrementAndGet();
      throw new OverloadedException(peer, globalReserve.used() + " bytes queued for all peers, +" + bytes
          + " > " + globalReserve.limit() + " (internode_application_send_queue_reserve_global_capacity)");
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(m.expiresInMillis());
    queue.add(new Pending(m, bytes, deadline, callbackId));
    scheduleDrain();
  }

  int queuedMessages() {
    return queued.get();
  }

  boolean isConnected() {
    return channel != null && channel.isActive();
  }

  HandshakeRefusedException lastRefusal() {
    return refusal;
  }

  private void scheduleDrain() {
    if (drainScheduled.compareAndSet(false, true)) eventLoop.execute(this::drain);
  }

  private void drain() {
    drainScheduled.set(false);
    switch (state) {
      case CLOSED -> failAll(new MessagingStoppedException(peer));
      case IDLE -> connect();
      case CONNECTED -> writeQueued();
      default -> { } // CONNECTING or BACKOFF: the state change will drain
    }
  }

  private void writeQueued() {
    Channel ch = channel;
    long now = System.nanoTime();
    int written = 0;
    Pending p;
    while (ch.isWritable() && (p = poll()) != null) {
      if (now - p.deadlineNanos > 0) {
        service.metrics().droppedExpired();
        continue; // its callback, if any, times out on its own
      }
      writer.write(p.message);
      service.metrics().sent();
      if (++written % 64 == 0) {
        writer.flush();
        ch.flush();
      }
    }
    writer.flush();
    ch.flush();
  }

  private Pending poll() {
    Pending p = queue.poll();
    if (p != null) release(p);
    return p;
  }

  private void release(Pending p) {
    queued.decrementAndGet();
    endpointReserve.release(p.bytes);
    globalReserve.release(p.bytes);
  }

  private void connect() {
    if (queue.isEmpty()) return;
    state = State.CONNECTING;
    MessagingConfig c = service.config();
    Bootstrap b = new Bootstrap()
        .group(eventLoop)
        .channel(NioSocketChannel.class)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) c.connectTimeout().toMillis())
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(WATER_MARK_LOW, WATER_MARK_HIGH))
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            InternodeEncryption tls = service.encryption();
            if (tls != null) tls.connect(ch, peer);
            ch.pipeline().addLast("handshake", new HandshakeInitiator());
          }
        });
    // Bind our own listen address so the peer sees the connection come from it (127.0.0.2 ...).
    ChannelFuture f = b.connect(peer, new InetSocketAddress(service.address().getAddress(), 0));
    f.addListener((ChannelFuture done) -> {
      if (!done.isSuccess()) onConnectFailed(done.cause());
    });
    Channel ch = f.channel();
    // The handshake must finish within the connect timeout too.
    ScheduledFuture<?> timeout = eventLoop.schedule(() -> {
      if (state == State.CONNECTING && channel == null && ch.isActive()) {
        log.warn("Internode handshake with {} ({}) got no answer in {} ms; closing", peer, type, c.connectTimeout().toMillis());
        ch.close();
      }
    }, c.connectTimeout().toMillis() * 2, TimeUnit.MILLISECONDS);
    ch.closeFuture().addListener(x -> timeout.cancel(false));
  }

  private void onConnectFailed(Throwable cause) {
    if (state == State.CLOSED) return;
    String why = cause == null ? "closed" : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    if (!loggedUnreachable) {
      log.info("Cannot connect to {} ({}): {}; retrying with backoff", peer, type, why);
      loggedUnreachable = true;
    } else {
      log.debug("Cannot connect to {} ({}): {}", peer, type, why);
    }
    retryLater(backoff.delayMillis(attempt++));
  }

  private void retryLater(long delayMillis) {
    state = State.BACKOFF;
    eventLoop.schedule(() -> {
      if (state != State.BACKOFF) return;
      state = State.IDLE;
      pruneExpired();
      connect();
    }, delayMillis, TimeUnit.MILLISECONDS);
  }

  /** Drops queued messages past their expiry (while the peer is unreachable). */
  private void pruneExpired() {
    long now = System.nanoTime();
    for (Pending p : queue) {
      if (now - p.deadlineNanos > 0 && queue.remove(p)) {
        release(p);
        service.metrics().droppedExpired();
      }
    }
  }

  private void onAccepted(Channel ch, Handshake.Accept accept) {
    if (state == State.CLOSED) {
      ch.close();
      return;
    }
    state = State.CONNECTED;
    channel = ch;
    attempt = 0;
    refusal = null;
    if (loggedUnreachable) log.info("Reconnected to {} ({})", peer, type);
    else log.debug("Connected to {} ({}, version {}, host id {}, epoch {})", peer, type, accept.version(), accept.hostId(), accept.epoch());
    loggedUnreachable = false;
    service.metrics().connected();
    writer = new FrameWriter(ch.alloc(), service.config().maxFramePayload(), buf -> ch.write(buf, ch.voidPromise()));
    ch.closeFuture().addListener(x -> eventLoop.execute(() -> onClosed(ch)));
    writeQueued();
  }

  private void onRefused(Handshake.Refusal why, String detail) {
    HandshakeRefusedException e = new HandshakeRefusedException(peer, why, detail);
    log.warn("Internode connection to {} ({}) refused: {}: {}", peer, type, why, detail);
    service.metrics().refusedHandshake();
    long holdMillis = service.config().reconnectMaxDelay().toMillis();
    refusedUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(holdMillis);
    refusal = e;
    failAll(e);
    retryLater(holdMillis);
  }

  private void onClosed(Channel ch) {
    if (channel != ch) return;
    channel = null;
    if (writer != null) writer.discard();
    writer = null;
    if (state == State.CLOSED) return;
    log.debug("Connection to {} ({}) closed", peer, type);
    state = State.IDLE;
    if (!queue.isEmpty()) retryLater(backoff.delayMillis(attempt++));
  }

  private void failAll(MessagingException e) {
    Pending p;
    while ((p = poll()) != null) {
      if (p.callbackId != 0) service.failCallback(p.callbackId, e);
    }
  }

  /** Stops for good: closes the socket and fails what is queued. */
  void close() {
    eventLoop.execute(() -> {
      state = State.CLOSED;
      if (channel != null) channel.close();
      failAll(new MessagingStoppedException(peer));
    });
  }

  /** Sends HELLO when the socket connects and waits for ACCEPT or REJECT. */
  private final class HandshakeInitiator extends ByteToMessageDecoder {
    private boolean done;

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
      MessagingService s = service;
      Handshake.Hello hello = new Handshake.Hello(s.messagingVersion(), s.minMessagingVersion(), type,
          s.config().epoch().getAsLong(), s.config().hostId(), s.address(), s.config().clusterName());
      ctx.writeAndFlush(Handshake.encode(ctx.alloc(), hello));
      super.channelActive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      if (done) {
        in.skipBytes(in.readableBytes());
        return;
      }
      Object answer;
      try {
        answer = Handshake.decode(in);
      } catch (Handshake.BadHandshakeException e) {
        done = true;
        log.warn("Bad handshake answer from {} ({}): {}; closing", peer, type, e.getMessage());
        ctx.close();
        return;
      }
      if (answer == null) return;
      done = true;
      if (answer instanceof Handshake.Reject r) {
        ctx.close();
        onRefused(r.refusal(), r.reason() + " (peer speaks messaging versions " + r.minVersion() + ".." + r.maxVersion() + ")");
      } else if (answer instanceof Handshake.Accept a) {
        String problem = service.checkAccept(a);
        if (problem != null) {
          ctx.close();
          onRefused(a.clusterName().equals(service.config().clusterName()) ? Handshake.Refusal.VERSION
              : Handshake.Refusal.CLUSTER_NAME, problem);
          return;
        }
        ctx.pipeline().replace(this, "outbound", new OutboundHandler());
        onAccepted(ctx.channel(), a);
      } else {
        ctx.close();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      log.debug("Handshake with {} ({}) failed: {}", peer, type, cause.toString());
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      if (!done) eventLoop.execute(() -> {
        if (state == State.CONNECTING) onConnectFailed(null);
      });
      super.channelInactive(ctx);
    }
  }

  /** After the handshake: resumes draining when the socket drains; logs socket errors. */
  private final class OutboundHandler extends ChannelInboundHandlerAdapter {
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable()) scheduleDrain();
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      io.netty.util.ReferenceCountUtil.release(msg); // one-way connection: the peer sends nothing
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      log.debug("Connection to {} ({}) failed: {}", peer, type, cause.toString());
      ctx.close();
    }
  }
}
