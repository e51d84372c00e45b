package io.cassette.cql.transport;

import io.cassette.cql.ClientState;
import io.cassette.cql.ClientWarnings;
import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.QueryHandler;
import io.cassette.cql.Result;
import io.cassette.cql.ResultMetadataId;
import io.cassette.cql.TraceSession;
import io.cassette.cql.transport.compression.BodyCompressor;
import io.cassette.cql.transport.frame.Envelope;
import io.cassette.cql.transport.frame.FrameDecoder;
import io.cassette.cql.transport.frame.FrameEncoder;
import io.cassette.cql.transport.frame.FrameError;
import io.cassette.cql.transport.frame.ProtocolVersions;
import io.cassette.cql.transport.frame.ResponseBodies;
import io.cassette.cql.transport.messages.CqlCodec;
import io.cassette.cql.transport.messages.ErrorEncoder;
import io.cassette.cql.transport.messages.Opcode;
import io.cassette.cql.transport.messages.Request;
import io.cassette.cql.transport.messages.RequestDecoder;
import io.cassette.cql.transport.messages.ResultEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.cassette.metrics.RequestMetrics;
import io.cassette.metrics.SlowLog;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: the STARTUP/authentication state machine, dispatch of requests to
 * the {@link QueryHandler} on worker threads, and back-pressure.
 *
 * <p>Cheap control messages (OPTIONS, STARTUP, REGISTER) are answered on the event loop;
 * QUERY, PREPARE, EXECUTE, BATCH and AUTH_RESPONSE run on the worker executor and are answered
 * in completion order, each with its stream id. When {@code maxInFlight} requests are
 * executing, reading from the socket stops ({@code autoRead=false}) until some finish: the
 * client's TCP window fills up instead of our memory.
 *
 * <p>Thread-safety: the fields without {@code volatile} are event-loop confined.
 */
final class CqlConnectionHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(CqlConnectionHandler.class);

  static final String CQL_VERSION = "3.4.7";
  private static final Map<String, List<String>> SUPPORTED;

  static {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("CQL_VERSION", List.of(CQL_VERSION));
    m.put("COMPRESSION", List.of("lz4", "snappy"));
    m.put("PROTOCOL_VERSIONS", ProtocolVersions.NAMES);
    SUPPORTED = Map.copyOf(m);
  }

  private final QueryHandler handler;
  private final RequestMetrics metrics;
  /** Where the decoder reserved each request's bytes; released here once answered. */
  private final io.cassette.cql.transport.frame.Admission budget;
  private final SlowLog slowLog;
  /** DRIVER_NAME from STARTUP, for the slow log. */
  private volatile String driverName;
  private final Executor executor;
  private final Authenticator authenticator;
  private final EventBroadcaster events;
  private final FrameDecoder decoder;
  private final FrameEncoder encoder;
  private final int maxInFlight;
  /** max_value_size: longer bound values are refused. */
  private final int maxValueBytes;
  /** Answers queued and not yet taken by the client beyond which it is disconnected. */
  private final long maxPendingOutputBytes;
  /** Answers queued and not yet taken, all connections together. */
  private final UnreadAnswers unread;
  /** pump() found the node over its unread-answers budget with answers of ours unsent (event loop only). */
  private boolean pausedForNode;
  /**
   * Bytes of our answers queued and not yet taken by the socket: written on the event loop, read
   * by workers. Not the outbound buffer's count, which Netty lowers only after it has told the
   * write's listeners, so that a pump() from a listener would still see the answer it was told of.
   */
  private volatile long unsentBytes;
  /**
   * Answers of this connection being produced by workers (from the check in process() until the
   * answer is queued): over the node's budget a connection gets one at a time, so the answers
   * of a client that stopped reading cannot pile up from several workers at once.
   */
  private final java.util.concurrent.atomic.AtomicInteger producing = new java.util.concurrent.atomic.AtomicInteger();
  /** This connection as the node's unread answers see it (set in channelActive). */
  private UnreadAnswers.Holder holder;
  /** A check that closes this paused connection while the node is over twice its budget is scheduled. */
  private boolean nodeCheckScheduled;
  /** How often a connection paused for the node's unread answers checks the node's hard limit. */
  static final long NODE_CHECK_MILLIS = 1000;
  /** Reading resumes when the in-flight count falls to this after having reached {@link #maxInFlight}. */
  private final int resumeAt;
  /**
   * Answers made off the event loop (workers, a write's completion), in completion order: one
   * event-loop task writes all those queued by the time it runs and flushes once, so a busy
   * connection pays one task and one syscall per batch of answers, not per answer.
   */
  private final java.util.concurrent.ConcurrentLinkedQueue<Answer> answers = new java.util.concurrent.ConcurrentLinkedQueue<>();
  /** A task writing {@link #answers} is queued on the event loop and has not started. */
  private final java.util.concurrent.atomic.AtomicBoolean answersScheduled = new java.util.concurrent.atomic.AtomicBoolean();
  private Runnable writeAnswers;
  /** Requests executing or being answered. */
  private int inFlight;
  /** Requests of this connection handed to the shared worker pool and not yet answered. */
  private int submitted;
  /**
   * Requests of one connection queued in the shared worker pool at once; the rest wait here.
   * The pool is FIFO, so this keeps one client's burst of thousands of requests from putting
   * every other client behind it: with many connections the pool serves them round-robin.
   */
  static final int MAX_SUBMITTED_PER_CONNECTION = 16;
  /** Requests decoded and not yet handed to the worker pool, in arrival order. */
  private final ArrayDeque<Pending> waiting = new ArrayDeque<>();

  /** Version of the first frame; all later frames must use it. 0 until then. */
  private int version;
  private boolean startedUp;
  /** STARTUP answered and, if required, authentication complete: requests are accepted. */
  private volatile boolean ready;
  private volatile SaslNegotiator negotiator;
  private ClientState state;

  CqlConnectionHandler(QueryHandler handler, Executor executor, Authenticator authenticator,
                       EventBroadcaster events, FrameDecoder decoder, FrameEncoder encoder, int maxInFlight,
                       RequestMetrics metrics, SlowLog slowLog, io.cassette.cql.transport.frame.Admission budget,
                       int maxValueBytes, long maxPendingOutputBytes, UnreadAnswers unread) {
    this.unread = unread;
    this.maxValueBytes = maxValueBytes;
    this.maxPendingOutputBytes = maxPendingOutputBytes;
    this.handler = handler;
    this.budget = budget;
    this.metrics = metrics;
    this.slowLog = slowLog;
    this.executor = executor;
    this.authenticator = authenticator;
    this.events = events;
    this.decoder = decoder;
    this.encoder = encoder;
    this.maxInFlight = maxInFlight;
    this.resumeAt = Math.max(0, maxInFlight * 3 / 4);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    state = new ClientState(ctx.channel().remoteAddress() instanceof InetSocketAddress remote ? remote : null);
    state.open(ctx.channel().localAddress());
    metrics.connectionOpened();
    writeAnswers = () -> writeAnswers(ctx);
    holder = new UnreadAnswers.Holder() {
      @Override
      public long unsentBytes() {
        return unsentBytes;
      }

      @Override
      public void evict(long nodeBytes, long nodeLimit) {
        LOG.warn("Closing CQL connection {}: {} bytes of its answers not read, the most of any client;"
            + " {} of all clients' not read (node limit {})", ctx.channel().remoteAddress(), unsentBytes,
            nodeBytes, nodeLimit);
        ctx.channel().close();
      }
    };
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof FrameError error) {
      ByteBuf body = ErrorEncoder.encode(ctx.alloc(), new CqlException(error.code(), error.message()),
          error.version());
      var future = send(ctx, new Envelope(error.version(), 0, error.streamId(), Opcode.ERROR, body));
      if (error.fatal()) {
        future.addListener(ChannelFutureListener.CLOSE);
      }
      return;
    }
    if (!(msg instanceof Envelope envelope)) {
      ctx.fireChannelRead(msg);
      return;
    }
    boolean handedOff = false;
    long reserved = decoder.takeReservation();
    try {
      handedOff = read(ctx, envelope, reserved);
    } catch (CqlException e) {
      writeError(ctx, envelope, e);
    } catch (RuntimeException e) {
      // A body the decoders did not foresee: answered on its stream; the frame boundaries hold.
      LOG.warn("Cannot decode {} on stream {} from {}", Opcode.name(envelope.opcode()), envelope.streamId(),
          ctx.channel().remoteAddress(), e);
      writeError(ctx, envelope, new CqlException(ErrorCode.PROTOCOL_ERROR, "Malformed " + Opcode.name(envelope.opcode())
          + " message"));
    } finally {
      if (!handedOff) {
        envelope.body().release();
        budget.release(reserved);
      }
    }
  }

  /** Returns true when the envelope (and its body) was handed to a worker. */
  private boolean read(ChannelHandlerContext ctx, Envelope envelope, long reserved) {
    if (version == 0) {
      version = envelope.version();
      ctx.channel().attr(EventBroadcaster.VERSION).set(version);
    } else if (envelope.version() != version) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Invalid message version. Got " + envelope.version() + "/v"
          + envelope.version() + " but previous messages on this connection had version " + version + "/v" + version);
    }
    // v5 envelopes may carry the compression flag (drivers set it when segments are
    // compressed); the decoder has already decompressed v3/v4 bodies and cleared it.
    if ((envelope.flags() & Envelope.FLAG_CUSTOM_PAYLOAD) != 0) {
      CqlCodec.skipBytesMap(envelope.body());
    }
    int opcode = envelope.opcode();
    String name = Opcode.name(opcode);
    if (name == null) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Unknown opcode " + opcode);
    }
    if (Opcode.isResponse(opcode)) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Wrong protocol direction (expected RESPONSE, got REQUEST)"
          + " for opcode " + opcode + " (" + name + ")");
    }
    switch (opcode) {
      case Opcode.OPTIONS -> {
        RequestDecoder.decode(opcode, envelope.body(), version);
        ByteBuf body = ctx.alloc().buffer(128);
        CqlCodec.writeStringMultimap(body, SUPPORTED);
        respond(ctx, envelope, Opcode.SUPPORTED, body, List.of());
        return false;
      }
      case Opcode.STARTUP -> {
        startup(ctx, envelope, (Request.Startup) RequestDecoder.decode(opcode, envelope.body(), version));
        return false;
      }
      case Opcode.REGISTER -> {
        requireReady(name);
        Request.Register register = (Request.Register) RequestDecoder.decode(opcode, envelope.body(), version);
        for (String type : register.eventTypes()) {
          events.register(ctx.channel(), type);
        }
        respond(ctx, envelope, Opcode.READY, Unpooled.EMPTY_BUFFER, List.of());
        return false;
      }
      case Opcode.AUTH_RESPONSE -> {
        if (negotiator == null || ready) {
          throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Unexpected message AUTH_RESPONSE, "
              + (startedUp ? "the connection is already authenticated" : "expecting STARTUP or OPTIONS"));
        }
        return dispatch(ctx, envelope, reserved);
      }
      default -> {
        requireReady(name);
        return dispatch(ctx, envelope, reserved);
      }
    }
  }

  private void requireReady(String message) {
    if (!startedUp) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Unexpected message " + message
          + ", expecting STARTUP or OPTIONS");
    }
    if (!ready) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Unexpected message " + message + ", expecting SASL_RESPONSE");
    }
  }

  private void startup(ChannelHandlerContext ctx, Envelope envelope, Request.Startup startup) {
    if (startedUp) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Unexpected message STARTUP, the connection is already initialized");
    }
    Map<String, String> options = upperCaseKeys(startup.options());
    if (!options.containsKey("CQL_VERSION")) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Missing value CQL_VERSION in STARTUP message");
    }
    driverName = options.get("DRIVER_NAME");
    state.setClientOptions(options);
    state.setProtocolVersion(version);
    io.netty.handler.ssl.SslHandler tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
    if (tls != null && tls.engine().getSession() != null) {
      state.setSsl(tls.engine().getSession().getProtocol(), tls.engine().getSession().getCipherSuite());
    }
    String compression = options.get("COMPRESSION");
    BodyCompressor compressor = null;
    boolean lz4Segments = false;
    if (compression != null && !compression.isEmpty()) {
      compressor = BodyCompressor.forName(compression);
      if (compressor == null) {
        throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Unknown compression algorithm: " + compression);
      }
      if (version >= ProtocolVersions.FIRST_SEGMENTED) {
        if (!"lz4".equals(compressor.name())) {
          throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Snappy compression is not supported in protocol V" + version);
        }
        lz4Segments = true;
        compressor = null;
      }
    }
    startedUp = true;
    boolean authenticate = authenticator.requireAuthentication();
    ByteBuf body;
    int opcode;
    if (authenticate) {
      negotiator = authenticator.newNegotiator(state.remoteAddress());
      state.setStage("authenticating");
      body = ctx.alloc().buffer(64);
      CqlCodec.writeString(body, authenticator.className());
      opcode = Opcode.AUTHENTICATE;
    } else {
      ready = true;
      state.setStage("ready");
      body = Unpooled.EMPTY_BUFFER;
      opcode = Opcode.READY;
    }
    // The answer to STARTUP still goes out in the old framing; everything after uses the new one.
    ctx.writeAndFlush(new Envelope(version, 0, envelope.streamId(), opcode, body));
    if (version >= ProtocolVersions.FIRST_SEGMENTED) {
      decoder.switchToSegments(lz4Segments);
      encoder.switchToSegments(lz4Segments);
    } else if (compressor != null) {
      decoder.setBodyCompressor(compressor);
      encoder.setBodyCompressor(compressor);
    }
  }

  private static Map<String, String> upperCaseKeys(Map<String, String> options) {
    Map<String, String> m = new LinkedHashMap<>();
    options.forEach((k, v) -> m.put(k.toUpperCase(java.util.Locale.ROOT), v));
    return m;
  }

  /**
   * Queues {@code envelope} and starts what the limits allow. Reading stops while
   * {@link #maxInFlight} requests are decoded and unanswered; their bytes are reserved (the
   * decoder's admission), so what waits here is bounded node-wide.
   */
  private boolean dispatch(ChannelHandlerContext ctx, Envelope envelope, long reserved) {
    inFlight++;
    waiting.add(new Pending(ctx, envelope, reserved));
    pump(ctx);
    return true;
  }

  /**
   * A decoded request waiting for an execution slot, with the bytes the decoder reserved for it;
   * started, it is itself the worker's task (no second object per request).
   */
  private final class Pending implements Runnable {
    private final ChannelHandlerContext ctx;
    private final Envelope envelope;
    private final long reserved;
    /** When it was handed to the worker pool (set by start()). */
    long startedAtNanos;

    Pending(ChannelHandlerContext ctx, Envelope envelope, long reserved) {
      this.ctx = ctx;
      this.envelope = envelope;
      this.reserved = reserved;
    }

    Envelope envelope() {
      return envelope;
    }

    long reserved() {
      return reserved;
    }

    @Override
    public void run() {
      process(ctx, envelope, startedAtNanos, reserved);
    }
  }

  /**
   * On the event loop: starts parked requests while this connection is under
   * {@link #maxInFlight}, then sets autoRead (leaving it off while the decoder waits for
   * request bytes to be admitted).
   */
  private void pump(ChannelHandlerContext ctx) {
    if (!ctx.channel().isActive()) {
      return;
    }
    // A client that does not read its answers (the socket is not writable, or the node holds
    // more unread answers than its budget and some are ours) gets no new request started: its
    // backlog stops growing, its TCP window fills, and only it waits.
    pausedForNode = unread.overBudget() && unsentBytes > 0;
    if (pausedForNode) {
      scheduleNodeCheck(ctx);
    }
    boolean writable = ctx.channel().isWritable() && !pausedForNode;
    while (!waiting.isEmpty() && submitted < Math.min(maxInFlight, MAX_SUBMITTED_PER_CONNECTION) && writable) {
      start(ctx, waiting.poll());
    }
    var config = ctx.channel().config();
    if (inFlight >= maxInFlight || !writable) {
      if (config.isAutoRead()) {
        config.setAutoRead(false);
      }
    } else if (inFlight <= resumeAt && !config.isAutoRead() && !decoder.isAwaitingAdmission()) {
      config.setAutoRead(true);
    }
  }

  /** The request's reserved bytes are released once it is answered. */
  private void start(ChannelHandlerContext ctx, Pending request) {
    submitted++;
    try {
      request.startedAtNanos = System.nanoTime();
      executor.execute(request);
    } catch (RejectedExecutionException e) {
      Envelope envelope = request.envelope();
      long bytes = request.reserved();
      envelope.body().release();
      respond(ctx, envelope, Opcode.ERROR, ErrorEncoder.encode(ctx.alloc(),
          new CqlException(ErrorCode.OVERLOADED, "Server is shutting down"), envelope.version()), List.of(), null,
          bytes);
    }
  }

  /** On the event loop, when a response has been written (or failed to be). */
  private void requestDone(ChannelHandlerContext ctx, long bytes) {
    inFlight--;
    submitted--;
    budget.release(bytes);
    pump(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    // Requests still executing release their bytes when their (failed) write completes.
    metrics.connectionClosed();
    if (state != null) {
      state.open(null);
    }
    unread.notHolding(holder);
    Pending parked;
    while ((parked = waiting.poll()) != null) {
      parked.envelope().body().release();
      budget.release(parked.reserved());
      inFlight--;
    }
    super.channelInactive(ctx);
  }

  /** On the event loop: a started request that a worker handed back (see process()). */
  private void deferred(ChannelHandlerContext ctx, Envelope envelope, long bytes) {
    submitted--;
    if (!ctx.channel().isActive()) { // channelInactive has emptied the queue, or will not see this one
      envelope.body().release();
      inFlight--;
      budget.release(bytes);
      return;
    }
    waiting.addFirst(new Pending(ctx, envelope, bytes));
    pump(ctx);
  }

  /**
   * While paused for the node's unread answers, once a second: when all connections together
   * hold more than twice the budget, a paused one (its client has answers it does not read)
   * closes itself, as Redis's door closes clients over its node budget. So the node's bound
   * holds even when many slow readers each hold one answer.
   */
  private void scheduleNodeCheck(ChannelHandlerContext ctx) {
    if (nodeCheckScheduled) {
      return;
    }
    nodeCheckScheduled = true;
    ctx.executor().schedule(() -> {
      nodeCheckScheduled = false;
      if (!ctx.channel().isActive() || !pausedForNode) {
        return;
      }
      if (unsentBytes > 0 && unread.overHardLimit(0)) {
        LOG.warn("Closing CQL connection {}: {} bytes of its answers and {} of all clients' not read"
            + " (node limit {})", ctx.channel().remoteAddress(), unsentBytes, unread.bytes(), 2 * unread.budget());
        ctx.close();
        return;
      }
      pump(ctx);
    }, NODE_CHECK_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** Bytes of answers queued for this client and not yet taken by its socket. */
  private static long pendingOutput(ChannelHandlerContext ctx) {
    var outbound = ctx.channel().unsafe().outboundBuffer();
    return outbound == null ? 0 : outbound.totalPendingWriteBytes();
  }

  /** Runs on a worker thread; owns the envelope's body. */
  private void process(ChannelHandlerContext ctx, Envelope envelope, long decodedAtNanos, long bytes) {
    if (!ctx.channel().isActive()) {
      // The client is gone (or was cut off): nobody would read the answer.
      envelope.body().release();
      try {
        ctx.executor().execute(() -> requestDone(ctx, bytes));
      } catch (RejectedExecutionException e) {
        budget.release(bytes);
      }
      return;
    }
    boolean defer = !ctx.channel().isWritable() || (unread.overBudget() && unsentBytes > 0);
    if (!defer && producing.incrementAndGet() > 1 && unread.overBudget()) {
      producing.decrementAndGet();
      defer = true;
    }
    if (defer) {
      // Its client stopped reading since the request was started: the answer would only wait
      // in memory, and the workers would serve a slow reader's backlog before everyone else's
      // requests. Back to the connection's queue; pump() starts it again once it reads.
      try {
        ctx.executor().execute(() -> deferred(ctx, envelope, bytes));
      } catch (RejectedExecutionException e) {
        envelope.body().release();
        budget.release(bytes);
      }
      return;
    }
    int opcode = Opcode.RESULT;
    ByteBuf body;
    List<String> warnings;
    Request request = null;
    boolean bodyReleased = false;
    ClientWarnings.begin();
    TraceSession trace = null;
    java.util.concurrent.CompletableFuture<Result> later = null;
    try {
      try {
        request = RequestDecoder.decode(envelope.opcode(), envelope.body(), envelope.version(), maxValueBytes);
      } catch (RuntimeException e) {
        if (e instanceof CqlException) {
          throw e;
        }
        // A body the decoder did not foresee: malformed input is the client's error.
        LOG.warn("Cannot decode {} on stream {}", Opcode.name(envelope.opcode()), envelope.streamId(), e);
        throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Malformed " + Opcode.name(envelope.opcode()) + " message");
      }
      // The request holds copies of what it needs: the frame is freed before executing, so a
      // large value does not live once more while it becomes a cell and a commit-log record.
      envelope.body().release();
      bodyReleased = true;
      trace = RequestTracing.begin(envelope, request, state);
      if (trace == null && request instanceof Request.Execute e) {
        // A write answers when its replicas have: this worker does not wait for them.
        java.util.concurrent.CompletableFuture<Result> f =
            handler.executeAsync(e.id(), e.resultMetadataId(), e.options(), state);
        if (f.isDone()) {
          body = encodeExecute(ctx, e, now(f), envelope.version());
        } else {
          later = f;
          body = null;
        }
      } else {
        body = execute(ctx, request, envelope.version());
      }
      if (envelope.opcode() == Opcode.AUTH_RESPONSE) {
        opcode = ready ? Opcode.AUTH_SUCCESS : Opcode.AUTH_CHALLENGE;
      }
    } catch (CqlException e) {
      opcode = Opcode.ERROR;
      body = ErrorEncoder.encode(ctx.alloc(), e, envelope.version());
    } catch (StackOverflowError t) {
      // Client input nested deeper than some bound covers: the client's error, never the node's.
      LOG.warn("Request on stream {} too deeply nested for the thread stack", envelope.streamId(), t);
      opcode = Opcode.ERROR;
      body = ErrorEncoder.encode(ctx.alloc(), new CqlException(ErrorCode.INVALID,
          "Statement too deeply nested to be processed"), envelope.version());
    } catch (Throwable t) {
      // The details (class names, file paths) go to the node's log, not to the client.
      LOG.error("Unexpected error executing {} on stream {}", Opcode.name(envelope.opcode()), envelope.streamId(), t);
      opcode = Opcode.ERROR;
      body = ErrorEncoder.encode(ctx.alloc(), new CqlException(ErrorCode.SERVER_ERROR,
          "Unexpected error while executing the request; the node's log has the details"), envelope.version());
    } finally {
      if (!bodyReleased) {
        envelope.body().release();
      }
      warnings = ClientWarnings.finish();
    }
    if (later != null) {
      answerLater(ctx, envelope, (Request.Execute) request, later, warnings, decodedAtNanos, bytes);
      return;
    }
    // Stored before answering, so a driver that fetches the trace at once finds it whole.
    java.util.UUID traceId = RequestTracing.end(trace, handler);
    record(envelope.opcode(), request, opcode == Opcode.ERROR, (System.nanoTime() - decodedAtNanos) / 1000);
    respond(ctx, envelope, opcode, body, warnings, traceId, bytes);
  }

  /** The result of a completed future, its failure thrown as itself (a CqlException mostly). */
  private static Result now(java.util.concurrent.CompletableFuture<Result> f) {
    try {
      return f.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw e;
    }
  }

  /**
   * Answers an EXECUTE whose write completes later, on the thread that completes it (a
   * messaging event loop): encoding a write's RESULT is cheap, and respond() hops to this
   * connection's event loop to write it.
   */
  private void answerLater(ChannelHandlerContext ctx, Envelope envelope, Request.Execute request,
                           java.util.concurrent.CompletableFuture<Result> later, List<String> warnings,
                           long decodedAtNanos, long bytes) {
    later.whenComplete((result, failure) -> {
      int opcode = Opcode.RESULT;
      ByteBuf body;
      try {
        if (failure != null) {
          throw failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
              ? failure.getCause() : failure;
        }
        body = encodeExecute(ctx, request, result, envelope.version());
      } catch (CqlException e) {
        opcode = Opcode.ERROR;
        body = ErrorEncoder.encode(ctx.alloc(), e, envelope.version());
      } catch (Throwable t) {
        LOG.error("Unexpected error completing EXECUTE on stream {}", envelope.streamId(), t);
        opcode = Opcode.ERROR;
        body = ErrorEncoder.encode(ctx.alloc(), new CqlException(ErrorCode.SERVER_ERROR,
            "Unexpected error while executing the request; the node's log has the details"), envelope.version());
      }
      record(envelope.opcode(), request, opcode == Opcode.ERROR, (System.nanoTime() - decodedAtNanos) / 1000);
      if (ctx.executor().inEventLoop()) {
        producing.decrementAndGet(); // respond() counts it down only when it hops from another thread
      }
      respond(ctx, envelope, opcode, body, warnings, null, bytes);
    });
  }

  /** Latency and errors per request type; slow statements to the CQL slow log. */
  private void record(int opcode, Request request, boolean failed, long micros) {
    String type = Opcode.name(opcode);
    metrics.record(type, micros);
    if (failed) {
      metrics.error(type);
    }
    if (slowLog.isSlow(micros)) {
      String statement;
      if (request instanceof Request.Query q) {
        statement = q.query();
      } else if (request instanceof Request.Prepare p) {
        statement = "PREPARE " + p.query();
      } else if (request instanceof Request.Execute e) {
        statement = "EXECUTE 0x" + io.netty.buffer.ByteBufUtil.hexDump(e.id());
      } else if (request instanceof Request.Batch b) {
        statement = "BATCH of " + b.statements().size();
      } else {
        statement = type;
      }
      InetSocketAddress remote = state.remoteAddress();
      slowLog.add(micros, List.of(statement), remote == null ? "?" : remote.getAddress().getHostAddress() + ":"
          + remote.getPort(), driverName == null ? "" : driverName);
    }
  }

  private ByteBuf execute(ChannelHandlerContext ctx, Request request, int v) {
    state.countRequest();
    if (request instanceof Request.Query q) {
      Result r = handler.query(q.query(), q.options(), state);
      return ResultEncoder.encode(ctx.alloc(), r, v, q.options().skipMetadata(), null, null);
    }
    if (request instanceof Request.Execute e) {
      return encodeExecute(ctx, e, handler.execute(e.id(), e.resultMetadataId(), e.options(), state), v);
    }
    return executeOther(ctx, request, v);
  }

  /** An EXECUTE's RESULT, with or without its metadata as the protocol version and the client ask. */
  private ByteBuf encodeExecute(ChannelHandlerContext ctx, Request.Execute e, Result r, int v) {
    byte[] newMetadataId = null;
    boolean skipMetadata = e.options().skipMetadata();
    if (isConditionalResult(r)) {
      // As Cassandra (v5 too): a conditional statement's columns vary with the outcome, so its
      // rows always carry their metadata and never METADATA_CHANGED.
      skipMetadata = false;
    } else if (v >= ProtocolVersions.FIRST_SEGMENTED && r instanceof Result.Rows rows) {
      byte[] current = metadataIdOf(rows.columns());
      if (!Arrays.equals(current, e.resultMetadataId())) {
        newMetadataId = current;
      }
    } else if (skipMetadata && r instanceof Result.Rows rows) {
      byte[] prepared = handler.preparedResultMetadataId(e.id());
      skipMetadata = prepared == null || Arrays.equals(prepared, metadataIdOf(rows.columns()));
    }
    return ResultEncoder.encode(ctx.alloc(), r, v, skipMetadata, newMetadataId, null);
  }

  private ByteBuf executeOther(ChannelHandlerContext ctx, Request request, int v) {
    if (request instanceof Request.Prepare p) {
      Result.Prepared r = handler.prepare(p.query(), p.keyspace(), state);
      byte[] metadataId = r.resultMetadataId() != null ? r.resultMetadataId()
          : ResultMetadataId.compute(r.resultColumns() == null ? List.of() : r.resultColumns());
      return ResultEncoder.encode(ctx.alloc(), r, v, false, null, metadataId);
    }
    if (request instanceof Request.Batch b) {
      Result r = handler.batch(b.type(), b.statements(), b.options(), state);
      return ResultEncoder.encode(ctx.alloc(), r, v, false, null, null);
    }
    if (request instanceof Request.AuthResponse a) {
      SaslNegotiator n = negotiator;
      byte[] token = n.evaluateResponse(a.token() == null ? new byte[0] : a.token());
      if (n.isComplete()) {
        state.setUser(n.authenticatedUser());
        state.setStage("ready");
        ready = true;
      }
      ByteBuf body = ResponseBodies.buffer(ctx.alloc(), 4 + (token == null ? 0 : token.length));
      CqlCodec.writeBytes(body, token);
      return body;
    }
    throw new IllegalStateException("Not a worker request: " + request);
  }

  /** The rows of a conditional statement (LWT): their first column is always {@code [applied]}. */
  private static boolean isConditionalResult(Result r) {
    return r instanceof Result.Rows rows && !rows.columns().isEmpty()
        && "[applied]".equals(rows.columns().get(0).name());
  }

  /** The last result columns seen and their metadata id: a connection mostly repeats a few statements. */
  private record MetadataIdCache(List<io.cassette.cql.ColumnSpec> columns, byte[] id) {}

  private volatile MetadataIdCache metadataIdCache = new MetadataIdCache(List.of(), ResultMetadataId.compute(List.of()));

  private byte[] metadataIdOf(List<io.cassette.cql.ColumnSpec> columns) {
    MetadataIdCache cached = metadataIdCache;
    if (cached.columns() == columns || cached.columns().equals(columns)) {
      return cached.id();
    }
    byte[] id = ResultMetadataId.compute(columns);
    metadataIdCache = new MetadataIdCache(columns, id);
    return id;
  }

  /** Writes a response on the request's stream, with warnings (v4+). Callable from any thread. */
  private void respond(ChannelHandlerContext ctx, Envelope request, int opcode, ByteBuf body, List<String> warnings) {
    respond(ctx, request, opcode, body, warnings, null, NO_REQUEST);
  }

  /**
   * As above, with the tracing session id (null: none) before the warnings, as the protocol
   * orders them. {@code reserved}: the bytes the decoder reserved for a started request, which
   * {@link #requestDone} gives back once the socket took the answer (or failed to);
   * {@link #NO_REQUEST} for an answer made on the event loop without starting one.
   */
  private void respond(ChannelHandlerContext ctx, Envelope request, int opcode, ByteBuf body,
                       List<String> warnings, java.util.UUID traceId, long reserved) {
    int flags = 0;
    boolean warn = !warnings.isEmpty() && request.version() >= 4;
    if (warn || traceId != null) {
      ByteBuf prefixed = ResponseBodies.buffer(ctx.alloc(), body.readableBytes() + 80);
      if (traceId != null) {
        prefixed.writeLong(traceId.getMostSignificantBits());
        prefixed.writeLong(traceId.getLeastSignificantBits());
        flags |= Envelope.FLAG_TRACING;
      }
      if (warn) {
        CqlCodec.writeStringList(prefixed, warnings);
        flags |= Envelope.FLAG_WARNING;
      }
      prefixed.writeBytes(body);
      body.release();
      body = prefixed;
    }
    Envelope response = new Envelope(request.version(), flags, request.streamId(), opcode, body);
    if (ctx.executor().inEventLoop()) {
      queue(ctx, response, reserved);
      ctx.flush();
      return;
    }
    // From another thread: queued for the event loop, which writes what has come meanwhile
    // and flushes once (writeAnswers).
    answers.add(new Answer(response, reserved));
    if (!answersScheduled.get() && answersScheduled.compareAndSet(false, true)) {
      try {
        ctx.executor().execute(writeAnswers);
      } catch (RejectedExecutionException e) {
        // The event loop is shutting down with the server: nobody is left to answer.
        Answer a;
        while ((a = answers.poll()) != null) {
          producing.decrementAndGet();
          a.response().release();
          if (a.reserved() != NO_REQUEST) {
            budget.release(a.reserved());
          }
        }
      }
    }
  }

  /** {@link #respond}'s {@code reserved} of an answer to no started request. */
  private static final long NO_REQUEST = -1;

  /** An answer made off the event loop, and its request's reserved bytes. */
  private record Answer(Envelope response, long reserved) {}

  /** On the event loop: writes the answers made off it so far, then flushes once. */
  private void writeAnswers(ChannelHandlerContext ctx) {
    answersScheduled.set(false); // before polling: an answer added after this schedules the next run
    Answer a;
    while ((a = answers.poll()) != null) {
      queue(ctx, a.response(), a.reserved());
      producing.decrementAndGet(); // only process() answers from a worker; now counted as unsent
    }
    ctx.flush();
  }

  /** On the event loop: queues and flushes {@code response}. */
  private io.netty.channel.ChannelFuture send(ChannelHandlerContext ctx, Envelope response) {
    io.netty.channel.ChannelFuture written = queue(ctx, response, NO_REQUEST);
    ctx.flush();
    return written;
  }

  /**
   * On the event loop: queues {@code response} (ownership passes) unless the client's or the
   * node's bound on unread answers closes the connection instead, counting it as unread until
   * the socket took it.
   */
  private io.netty.channel.ChannelFuture queue(ChannelHandlerContext ctx, Envelope response, long reserved) {
    io.netty.channel.ChannelPromise promise = ctx.newPromise();
    long bytes = Envelope.HEADER_LENGTH + (long) response.body().readableBytes();
    if (overOutputLimit(ctx, bytes)) {
      response.release();
      promise.addListener(new Written(ctx, 0, reserved));
      promise.tryFailure(new java.io.IOException("client output limit exceeded"));
      return promise;
    }
    if (unsentBytes == 0) {
      unread.holding(holder);
    }
    unread.queued(bytes);
    unsentBytes += bytes;
    promise.addListener(new Written(ctx, bytes, reserved));
    ctx.write(response, promise);
    if (unread.overHardLimit(0)) {
      // Queued for a connection with nothing unsent before (a reader as far as we can tell, or
      // a new slow reader's first answer): the biggest holders go at once, this one included.
      unread.evictOverHardLimit();
    }
    return promise;
  }

  /**
   * The one listener of an answer's write (event loop): its bytes are no longer unread, and its
   * request, if it started one, is done.
   */
  private final class Written implements ChannelFutureListener {
    private final ChannelHandlerContext ctx;
    /** Counted in {@link #unsentBytes} and the node's unread answers; 0: not counted. */
    private final long bytes;
    private final long reserved;

    Written(ChannelHandlerContext ctx, long bytes, long reserved) {
      this.ctx = ctx;
      this.bytes = bytes;
      this.reserved = reserved;
    }

    @Override
    public void operationComplete(io.netty.channel.ChannelFuture future) {
      if (bytes > 0) {
        unread.taken(bytes);
        unsentBytes -= bytes;
        if (unsentBytes == 0) {
          unread.notHolding(holder);
        }
        if (pausedForNode && reserved == NO_REQUEST) {
          pump(ctx); // our answers left: we may be under the node's budget again
        }
      }
      if (reserved != NO_REQUEST) {
        requestDone(ctx, reserved); // pumps too
      }
    }
  }

  private void writeError(ChannelHandlerContext ctx, Envelope request, CqlException e) {
    respond(ctx, request, Opcode.ERROR, ErrorEncoder.encode(ctx.alloc(), e, request.version()), List.of());
  }

  /**
   * On the event loop, before queueing an answer of {@code answerBytes}: true (and the connection
   * is closed) when the answers already queued for this client exceed {@link #maxPendingOutputBytes},
   * i.e. it sends requests and does not read the results, or when it has answers unsent and the
   * node's unread answers would pass twice their budget. As Redis's client-output-buffer-limit:
   * a slow reader only ever hurts itself. One answer of any size always fits an empty queue.
   */
  private boolean overOutputLimit(ChannelHandlerContext ctx, long answerBytes) {
    long pending = pendingOutput(ctx);
    if (pending > maxPendingOutputBytes) {
      if (ctx.channel().isOpen()) {
        LOG.warn("Closing CQL connection {}: {} bytes of answers not read by the client (limit {})",
            ctx.channel().remoteAddress(), pending, maxPendingOutputBytes);
        ctx.close();
      }
      return true;
    }
    if (unsentBytes > 0 && unread.overHardLimit(answerBytes)) {
      // Answers of requests that were executing when the node went over its budget: only
      // a client that is not reading pays (one that reads has nothing unsent).
      if (ctx.channel().isOpen()) {
        LOG.warn("Closing CQL connection {}: {} bytes of its answers and {} of all clients' not read"
                + " (node limit {})", ctx.channel().remoteAddress(), unsentBytes, unread.bytes(),
            2 * unread.budget());
        ctx.close();
      }
      return true;
    }
    return false;
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    pump(ctx);
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      LOG.debug("Closing idle CQL connection from {}", ctx.channel().remoteAddress());
      ctx.close();
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // I/O errors (connection reset) are routine; anything else is logged before closing.
    if (cause instanceof java.io.IOException) {
      LOG.debug("CQL connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    } else {
      LOG.warn("Closing CQL connection {} after an unexpected error", ctx.channel().remoteAddress(), cause);
    }
    ctx.close();
  }
}
