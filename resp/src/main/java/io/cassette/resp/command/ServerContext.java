package io.cassette.resp.command;

import io.cassette.resp.keyspace.Keyspace;
import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.NodeMetrics;
import io.cassette.metrics.RequestMetrics;
import io.cassette.metrics.SlowLog;
import io.cassette.resp.protocol.Reply;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
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
  }

  public final Keyspace keyspace;
  public final CommandTable commands;
  public final RedisConfig config;
  public final Map<Long, Session> clients = new ConcurrentHashMap<>();
  public final PubSubHub pubsub = new PubSubHub();
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
  public volatile int tcpPort;

  public ServerContext(Keyspace keyspace, CommandTable commands, RedisConfig config,
                       ScheduledExecutorService commandThread, long pubsubOutputLimitBytes,
                       NodeMetrics metrics) {
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
  }

  public boolean requiresPassword() {
    String p = config.get("requirepass");
    return p != null && !p.isEmpty();
  }

  /**
   * Writes an out-of-band reply (pub/sub message, served blocked command) to {@code target}:
   * into the buffer being filled when the target is the client being served, else straight
   * to its socket. A pub/sub client over its output limit is disconnected, as Redis's
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
    ChannelOutboundBuffer pending = target.channel.unsafe().outboundBuffer();
    if (target.subscriptions() > 0 && !target.noEvict && pending != null
        && pending.totalPendingWriteBytes() > pubsubOutputLimitBytes) {
      LOG.warn("client id={} closed for overcoming of output buffer limits ({} bytes pending)",
          target.id, pending.totalPendingWriteBytes());
      stats.pubsubClientsKilled.incrementAndGet();
      target.closed = true;
      target.channel.close();
      return;
    }
    ByteBuf buf = target.channel.alloc().ioBuffer();
    r.target(buf);
    try {
      write.accept(r);
    } finally {
      r.target(null);
    }
    stats.netOutputBytes.addAndGet(buf.readableBytes());
    target.channel.writeAndFlush(buf, target.channel.voidPromise());
  }
}
