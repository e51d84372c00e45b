package io.cassette.resp.server;

import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.NodeMetrics;
import io.cassette.metrics.RequestMetrics;
import io.cassette.metrics.SlowLog;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.config.OutputLimits;
import io.cassette.resp.config.RedisConfig;
import io.cassette.resp.keyspace.Keyspace;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.pubsub.PubSubHub;
import io.cassette.resp.session.BlockingRegistry;
import io.cassette.resp.session.Session;
import io.cassette.resp.session.WatchRegistry;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything commands share: the keyspace, the command table, configuration, clients,
 * pub/sub, WATCH and blocking registries, statistics. Mutable parts are used only on the
 * command thread unless their class says otherwise.
 */
public final class ServerContext {
  private static final Logger LOG = LoggerFactory.getLogger(ServerContext.class);

  /** Runs one command for a session (used by EXEC and to retry blocked commands). */
  public interface CommandRunner {
    void run(Session session, byte[][] args, boolean mayBlock);

    /** Schedules the session's pending requests to be processed again (after unblocking). */
    void resume(Session session);

    /**
     * Runs the session's pending requests now, before returning. REQUIRES: called on the
     * command thread, outside a drain (a task of its own). A session served this way knows
     * its requests have run when this returns, whatever else is queued on the thread.
     */
    void runNow(Session session);
  }

  public final Keyspace keyspace;
  public final CommandTable commands;
  public final RedisConfig config;
  public final Map<Long, Session> clients = new ConcurrentHashMap<>();
  public final PubSubHub pubsub = new PubSubHub();
  /** Keyspace notifications (notify-keyspace-events). */
  public final io.cassette.resp.pubsub.KeyspaceEvents events =
      new io.cassette.resp.pubsub.KeyspaceEvents();
  public final WatchRegistry watches = new WatchRegistry();
  public final BlockingRegistry blocking = new BlockingRegistry();
  public final ServerStats stats = new ServerStats();
  /** The node's metrics: request latency per command, slow log, latency monitor and doctor. */
  public final NodeMetrics metrics;
  public final RequestMetrics requests;
  public final SlowLog slowlog;
  public final LatencyMonitor latency;
  public final long startMillis = System.currentTimeMillis();
  public final String runId;
  /** The command thread's scheduler (timeouts of blocking commands). */
  public final ScheduledExecutorService commandThread;
  /** Most unsent bytes a pub/sub subscriber may have before it is disconnected. */
  public final long pubsubOutputLimitBytes;
  public volatile CommandRunner runner;
  /** client-output-buffer-limit and the node's bound on unsent replies. */
  public volatile OutputLimits outputs =
      OutputLimits.forDirectMemory(io.netty.util.internal.PlatformDependent.maxDirectMemory());
  /** Request bytes in flight, reserved by the decoders, released once a request ran. */
  public final io.cassette.resp.protocol.RequestBudget requestBudget;
  /**
   * Heap the elements of commands running in turns hold for their replies (SMEMBERS, HGETALL,
   * LRANGE, SORT... of huge collections), all clients together; command thread only. Four
   * HGETALLs of 100,000 fields at once took a 64 MiB node's heap (bench/hostile, reads phase).
   * Written by the command thread only; volatile for tests and INFO.
   */
  public volatile long heldInTurns;
  /** Most {@link #heldInTurns} may reach: a quarter of the heap. */
  public volatile long heldInTurnsBudget = Runtime.getRuntime().maxMemory() / 4;
  /** Connections beyond this many are refused (Redis maxclients). */
  public volatile long maxClients = 10000;
  /** Longest string value a command may build (Redis checks proto-max-bulk-len). */
  public volatile long maxStringLength = 512L << 20;
  public volatile int tcpPort;
  /** On a ring: runs each key's commands on the node executing that key; null on one node. */
  public volatile io.cassette.resp.ring.RedisRing ring;
  /** EVAL and FUNCTION (Lua); null until the server starts. */
  public volatile io.cassette.resp.script.ScriptEngine scripts;
  /** ACL users, the per-command check, AUTH and ACL LOG; requirepass is the default user's. */
  public final io.cassette.resp.acl.AccessControl acl = new io.cassette.resp.acl.AccessControl();

  public ServerContext(Keyspace keyspace, CommandTable commands, RedisConfig config,
                       ScheduledExecutorService commandThread, long pubsubOutputLimitBytes,
                       NodeMetrics metrics) {
    this(keyspace, commands, config, commandThread, pubsubOutputLimitBytes, metrics,
        new io.cassette.resp.protocol.RequestBudget(Long.MAX_VALUE / 4));
  }

  public ServerContext(Keyspace keyspace, CommandTable commands, RedisConfig config,
                       ScheduledExecutorService commandThread, long pubsubOutputLimitBytes,
                       NodeMetrics metrics, io.cassette.resp.protocol.RequestBudget requestBudget) {
    this.requestBudget = requestBudget;
    this.metrics = metrics;
    this.requests = metrics.requests("resp");
    this.slowlog = metrics.respSlowLog();
    this.latency = metrics.latencyMonitor();
    this.keyspace = keyspace;
    this.commands = commands;
    this.config = config;
    this.commandThread = commandThread;
    this.pubsubOutputLimitBytes = pubsubOutputLimitBytes;
    StringBuilder id = new StringBuilder();
    java.util.Random r = new java.security.SecureRandom();
    for (int i = 0; i < 40; i++) {
      id.append(Character.forDigit(r.nextInt(16), 16));
    }
    this.runId = id.toString();
    String notify = config.get("notify-keyspace-events");
    config.init("notify-keyspace-events", events.configure(notify == null ? "" : notify));
    config.applier("notify-keyspace-events", events::configure);
    String pass = config.get("requirepass");
    if (pass != null && !pass.isEmpty()) {
      acl.requirePass(pass);
    }
  }

  /**
   * True while a long script runs detached on the script thread: it owns the dataset, so the
   * command thread runs nothing but BUSY replies and the commands Redis allows meanwhile.
   */
  public boolean scriptBusy() {
    var e = scripts;
    return e != null && e.busy();
  }

  /** Empties {@code s}'s MULTI queue and gives its bytes back to the request budget. */
  public void dropMultiQueue(Session s) {
    s.multiQueue.clear();
    requestBudget.release(s.multiBytes);
    s.multiBytes = 0;
  }

  /** A new client must AUTH first: the default user is off or has a password (Redis 7). */
  public boolean requiresPassword() {
    return acl.defaultUserNeedsAuth();
  }

  /**
   * Writes an out-of-band reply (pub/sub message, served blocked command) to {@code target}:
   * into the buffer being filled when the target is the client being served, else straight
   * to its socket. A client over its output limits is disconnected, as Redis's
   * client-output-buffer-limit does.
   */
  public void deliver(Session target, Consumer<Reply> write) {
    if (target.closed) {
      return;
    }
    Reply r = target.reply;
    if (r.buffer() != null) {
      write.accept(r);
      return;
    }
    if (!target.noEvict && closeIfOverLimit(target, 0)) {
      return;
    }
    ByteBuf buf = target.channel.alloc().ioBuffer();
    r.target(buf);
    try {
      write.accept(r);
    } catch (RuntimeException | Error e) {
      buf.release();
      throw e;
    } finally {
      r.target(null);
    }
    write(target, buf, null);
  }

  /**
   * Closes {@code s} when its unsent replies plus {@code extra} bytes break its output limits;
   * true when it did. On the command thread.
   */
  public boolean closeIfOverLimit(Session s, long extra) {
    String why = outputs.violation(s, extra, System.currentTimeMillis());
    if (why == null) {
      return false;
    }
    LOG.warn("client id={} closed for overcoming of output buffer limits: {} ({} bytes unsent)",
        s.id, why, s.pendingOutput.get() + extra);
    if (s.subscriptions() > 0) {
      stats.pubsubClientsKilled.incrementAndGet();
    }
    stats.outputLimitClientsKilled.incrementAndGet();
    s.closed = true;
    s.channel.close();
    return true;
  }

  /**
   * Writes and flushes {@code buf} (ownership passes) to {@code s}, counting it as unsent until
   * the socket took it; once a paused client's unsent bytes fall below
   * {@link OutputLimits#RESUME_BYTES}, {@code onResume} runs (may be null).
   */
  public void write(Session s, ByteBuf buf, Runnable onResume) {
    // Replies acknowledge writes: those of this thread's batch reach the OS first.
    io.cassette.storage.AckBatch.flush();
    long n = buf.readableBytes();
    stats.netOutputBytes.addAndGet(n);
    s.pendingOutput.addAndGet(n);
    OutputLimits o = outputs;
    o.nodePending.addAndGet(n);
    s.channel.writeAndFlush(buf).addListener(f -> {
      o.nodePending.addAndGet(-n);
      long left = s.pendingOutput.addAndGet(-n);
      if (left < OutputLimits.RESUME_BYTES && s.outputPaused && runner != null) {
        s.outputPaused = false;
        runner.resume(s);
      }
    });
  }
}
