package io.cassette.resp.server;

import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.CommandSpec;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.config.OutputLimits;
import io.cassette.resp.protocol.ProtocolError;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.protocol.Request;
import io.cassette.resp.protocol.RequestBudget;
import io.cassette.resp.session.Session;
import io.cassette.storage.StorageException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.socket.DuplexChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every client's commands on one thread, in each client's arrival order: the Redis
 * execution model, which makes every command (and EXEC) atomic without locks and keeps
 * pipelined replies in order. That thread is the I/O event loop itself by default, or a
 * command thread of its own (see {@code RespServerOptions.commandsOnEventLoop}).
 *
 * <p>A client's pending requests are drained in one task and their replies written into one
 * buffer, flushed once (or every {@link #FLUSH_THRESHOLD_BYTES}): pipelines cost one write.
 */
public final class CommandDispatcher implements ServerContext.CommandRunner {
  private static final Logger LOG = LoggerFactory.getLogger(CommandDispatcher.class);
  /** Replies are flushed early once a drain has produced this many bytes. */
  static final int FLUSH_THRESHOLD_BYTES = 64 * 1024;
  /** Longest quoted argument in "unknown command" errors, as Redis. */
  private static final int UNKNOWN_ARGS_CHARS = 128;
  /** How long a closing connection's remaining input is drained before the socket closes. */
  static final long LINGER_MILLIS = 1000;

  /** Commands one client runs before the others get their turn (its pipeline goes on after). */
  static final int COMMANDS_PER_TURN = 1000;
  /**
   * Longest a client's turn runs before the others get theirs, and longest the dispatcher runs
   * before the event loop reads sockets again. When commands run on the I/O event loop (the
   * default) nobody else's request is even read while a turn runs, so "yield when another
   * client is ready" alone cannot see them waiting: the clock decides.
   */
  static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final ServerContext server;
  private final ScheduledExecutorService thread;
  private final RequestBudget budget;
  private final CommandNames names;
  /** Sessions with requests to run, in the order they became ready. */
  private final java.util.Queue<Session> ready = new java.util.concurrent.ConcurrentLinkedQueue<>();
  /** True while a drain task is queued or running on the command thread. */
  private final java.util.concurrent.atomic.AtomicBoolean draining =
      new java.util.concurrent.atomic.AtomicBoolean();

  public CommandDispatcher(ServerContext server, ScheduledExecutorService thread) {
    this.server = server;
    this.thread = thread;
    this.budget = server.requestBudget;
    this.names = new CommandNames(server.commands);
  }

  /**
   * Called from the event loop after requests were queued on {@code s}. Sessions with work
   * wait in one ready queue that a single task drains, so under load many clients share one
   * hand-off to the command thread instead of one each.
   */
  public void schedule(Session s) {
    if (s.drainScheduled.compareAndSet(false, true)) {
      ready.add(s);
      if (draining.compareAndSet(false, true)) {
        try {
          thread.execute(this::drainReady);
        } catch (java.util.concurrent.RejectedExecutionException e) {
          s.channel.close(); // shutting down
        }
      }
    }
  }

  private void drainReady() {
    boolean clean = false;
    long sliceStart = System.nanoTime();
    try {
      while (true) {
        Session s;
        while ((s = ready.poll()) != null) {
          drainSafely(s);
          if (System.nanoTime() - sliceStart > SLICE_NANOS && !ready.isEmpty()) {
            clean = true;
            later(); // the flag stays set: the continuation owns it
            return;
          }
        }
        draining.set(false);
        // a session queued after our last poll but before the flag cleared must not be lost
        if (ready.isEmpty() || !draining.compareAndSet(false, true)) {
          clean = true;
          return;
        }
      }
    } finally {
      if (!clean) { // never leave the door deaf: the flag must not stay set
        draining.set(false);
        if (!ready.isEmpty() && draining.compareAndSet(false, true)) {
          thread.execute(this::drainReady);
        }
      }
    }
  }

  /**
   * Goes on draining after the event loop's next pass over its sockets. A delayed task, not
   * {@code execute}: Netty moves due scheduled tasks into its queue once per loop iteration,
   * whereas a task queued from a task may run in the same batch (64 of them) without any I/O.
   */
  private void later() {
    try {
      thread.schedule(this::drainReady, 0, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      draining.set(false); // shutting down
    }
  }

  /** One client's turn; whatever goes wrong (even out of memory) closes only that client. */
  private void drainSafely(Session s) {
    try {
      drain(s);
    } catch (io.cassette.resp.protocol.ReplyTooLargeException e) {
      LOG.warn("closing client id={} addr={} for overcoming of output buffer limits: {}", s.id,
          s.channel.remoteAddress(), e.getMessage());
      server.stats.outputLimitClientsKilled.incrementAndGet();
      s.closed = true;
      releaseInbox(s);
      s.channel.close();
    } catch (Throwable t) {
      LOG.error("closing client id={}: serving it failed", s.id, t);
      s.closed = true;
      releaseInbox(s);
      s.channel.close();
      if (t instanceof VirtualMachineError && !(t instanceof OutOfMemoryError)) {
        throw (VirtualMachineError) t;
      }
    }
  }

  @Override
  public void resume(Session s) {
    schedule(s);
  }

  @Override
  public void runNow(Session s) {
    drainSafely(s);
  }

  private void drain(Session s) {
    s.drainScheduled.set(false);
    if (s.closed) {
      releaseInbox(s);
      return;
    }
    if (s.pendingOutput.get() > OutputLimits.BACKED_UP_BYTES) {
      pause(s);
      return;
    }
    Reply reply = s.reply;
    ByteBuf buf = s.channel.alloc().ioBuffer();
    reply.target(buf);
    long hard = server.outputs.normal().hard();
    reply.maxBytes(hard > 0 ? hard : Long.MAX_VALUE);
    int executed = 0;
    long turnStart = System.nanoTime();
    // The pipeline's writes reach the commit log's file in one call, before its replies leave
    // (ServerContext.write flushes the batch; so does its end): a process crash loses none.
    io.cassette.storage.AckBatch.open();
    try {
      Object item;
      while (s.blocked == null && !s.closeAfterReply && !s.closed
          && (item = s.inbox.poll()) != null) {
        if (item instanceof ProtocolError e) {
          reply.error("ERR " + e.message());
          server.stats.countError("ERR " + e.message());
          s.closeAfterReply = true;
          break;
        }
        Request request = (Request) item;
        long kept = 0;
        try {
          int queued = s.multiQueue.size();
          int mark = buf.writerIndex();
          execute(s, request.args());
          if ((s.replyOff || s.skipThisReply) && !subscription(request)) {
            buf.writerIndex(mark); // CLIENT REPLY OFF|SKIP: the reply is dropped
          }
          s.skipThisReply = s.skipNextReply;
          s.skipNextReply = false;
          if (s.multiQueue.size() > queued) { // queued by MULTI: still in flight until EXEC
            kept = request.budgetBytes();
            s.multiBytes += kept;
          }
        } finally {
          budget.release(request.budgetBytes() - kept);
        }
        if (server.blocking.hasReady() && !server.scriptBusy()) {
          serveBlocked();
        }
        if (buf.readableBytes() >= FLUSH_THRESHOLD_BYTES) {
          if (server.closeIfOverLimit(s, buf.readableBytes())) {
            break;
          }
          server.write(s, buf, null);
          buf = s.channel.alloc().ioBuffer();
          reply.target(buf);
          if (s.pendingOutput.get() > OutputLimits.BACKED_UP_BYTES) {
            pause(s); // the client does not read: its remaining commands wait for it
            break;
          }
          if (!ready.isEmpty() && !s.inbox.isEmpty()) {
            schedule(s); // big replies: others get a turn after each flush
            break;
          }
        }
        if ((++executed >= COMMANDS_PER_TURN || System.nanoTime() - turnStart > SLICE_NANOS)
            && !s.inbox.isEmpty()) {
          schedule(s); // a long pipeline yields to the other clients, then goes on
          break;
        }
      }
    } finally {
      io.cassette.storage.AckBatch.close();
      reply.target(null);
      reply.maxBytes(Long.MAX_VALUE);
      finish(s, buf);
    }
  }

  /** (P|S)(UN)SUBSCRIBE: their confirmations are pushes, sent even with CLIENT REPLY OFF (Redis's CLIENT_PUSHING). */
  private static boolean subscription(Request request) {
    byte[] name = request.args()[0];
    String n = new String(name, java.nio.charset.StandardCharsets.US_ASCII).toLowerCase();
    return n.endsWith("subscribe");
  }

  /** Stops running {@code s}'s commands until the socket took most of its replies. */
  private void pause(Session s) {
    s.outputPaused = true;
    if (s.pendingOutput.get() < OutputLimits.RESUME_BYTES && s.outputPaused) {
      s.outputPaused = false; // drained meanwhile: the write listener may have missed it
      schedule(s);
    }
  }

  private void finish(Session s, ByteBuf buf) {
    if (s.closed) {
      buf.release();
      releaseInbox(s);
      return;
    }
    if (!buf.isReadable() && !s.closeAfterReply) {
      buf.release();
      return;
    }
    if (s.closeAfterReply) {
      s.closed = true;
      server.stats.netOutputBytes.addAndGet(buf.readableBytes());
      s.channel.writeAndFlush(buf).addListener(f -> closeGracefully(s.channel));
      releaseInbox(s);
    } else if (!server.closeIfOverLimit(s, buf.readableBytes())) {
      server.write(s, buf, null);
    } else {
      buf.release();
      releaseInbox(s);
    }
  }

  /** Drops a closed client's queued requests, giving their bytes back to the budget. */
  private void releaseInbox(Session s) {
    Object item;
    while ((item = s.inbox.poll()) != null) {
      if (item instanceof Request r) {
        budget.release(r.budgetBytes());
      }
    }
  }

  /**
   * Periodic (on the command thread): closes clients over their soft limit for too long or
   * holding the node's output budget, also when they send nothing more.
   */
  public void checkOutputLimits() {
    for (Session s : server.clients.values()) {
      if (!s.closed && !s.noEvict && s.pendingOutput.get() > 0) {
        server.closeIfOverLimit(s, 0);
      }
    }
  }

  /**
   * Closes after the last reply without losing it: closing a socket that still has unread
   * input sends a reset, which can destroy the reply in flight (e.g. after a protocol error
   * in the middle of a large write). So: send FIN, discard input until the client closes or
   * {@link #LINGER_MILLIS} pass, then close.
   */
  static void closeGracefully(Channel ch) {
    if (ch instanceof DuplexChannel d && ch.isActive()) {
      d.shutdownOutput().addListener(f -> ch.eventLoop().schedule(() -> {
        ch.close();
      }, LINGER_MILLIS, TimeUnit.MILLISECONDS));
    } else {
      ch.close();
    }
  }

  /** Checks and runs (or queues, inside MULTI) one request of {@code s}. */
  private void execute(Session s, byte[][] args) {
    Reply r = s.reply;
    s.lastInteractionMillis = System.currentTimeMillis();
    CommandSpec spec = names.get(args[0]);
    if (spec == null) {
      rejectInMulti(s, unknownCommand(args));
      return;
    }
    if (spec.has(CommandSpec.READONLY) && !s.channel.isActive()) {
      // The client is gone (a slow reader that left with its pipeline queued): nobody can
      // read this answer, and running it would delay everyone else. Its writes still run, as
      // Redis runs what it had read before the connection ended.
      return;
    }
    String name = spec.name();
    s.lastCommand = name;
    if (!spec.arityOk(args.length)) {
      rejectInMulti(s, Errors.wrongArity(spec.name()));
      return;
    }
    if (!s.authenticated && !spec.has(CommandSpec.NO_AUTH) && server.requiresPassword()) {
      rejectInMulti(s, Errors.NOAUTH);
      return;
    }
    io.cassette.resp.acl.AclUser user = s.user != null ? s.user : server.acl.defaultUser();
    if (!spec.has(CommandSpec.NO_AUTH) && !user.unrestricted()) {
      // ACL: the default user's usual rules allow everything and skip this at once (and the
      // client-description supplier is not even built).
      String denied = server.acl.check(user, spec, args, s.inMulti,
          () -> io.cassette.resp.command.ConnectionCommands.describe(server, s).stripTrailing());
      if (denied != null) {
        rejectInMulti(s, denied);
        return;
      }
    }
    if (s.subscriptions() > 0 && s.protocol() == 2 && !spec.has(CommandSpec.PUBSUB)) {
      error(r, "ERR Can't execute '" + spec.name() + "': only (P|S)SUBSCRIBE / "
          + "(P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
      return;
    }
    if (server.scriptBusy()
        && !io.cassette.resp.script.ScriptEngine.allowedWhileBusy(name, args)) {
      String busy = server.scripts.busyError(); // a long script owns the dataset
      if (s.inMulti && name.equals("exec")) { // Redis aborts the transaction, never half of it
        s.inMulti = false;
        s.multiFailed = false;
        server.dropMultiQueue(s);
        server.watches.unwatchAll(s);
        error(r, "EXECABORT Transaction discarded because of: " + busy);
        return;
      }
      rejectInMulti(s, busy);
      return;
    }
    if (s.inMulti && !spec.has(CommandSpec.NO_QUEUE)) {
      s.multiQueue.add(args);
      r.queued();
      return;
    }
    if (server.ring != null && server.ring.forward(s, spec, args)) {
      return; // runs on the node executing its keys; s waits for the answer
    }
    invoke(s, spec, args, true);
  }

  private void rejectInMulti(Session s, String error) {
    if (s.inMulti) {
      s.multiFailed = true;
    }
    error(s.reply, error);
  }

  private void error(Reply r, String text) {
    server.stats.countError(text);
    r.error(text);
  }

  /** Runs a queued (EXEC) or retried (blocked) command; arity was checked when queued. */
  @Override
  public void run(Session s, byte[][] args, boolean mayBlock) {
    CommandSpec spec = names.get(args[0]);
    if (spec == null) {
      error(s.reply, unknownCommand(args));
      return;
    }
    invoke(s, spec, args, mayBlock);
  }

  private void invoke(Session s, CommandSpec spec, byte[][] args, boolean mayBlock) {
    long start = System.nanoTime();
    // Keyspace notifications: what the command committed, recorded only while they are on.
    boolean notifying = server.events.flags() != 0;
    io.cassette.resp.keyspace.KeyChanges outer =
        notifying ? io.cassette.resp.keyspace.KeyChanges.begin() : null;
    try {
      spec.handler().execute(new CommandContext(server, s, args, spec, mayBlock));
    } catch (RedisException e) {
      server.requests.error(spec.name());
      error(s.reply, e.getMessage());
    } catch (StorageException e) {
      server.requests.error(spec.name());
      LOG.warn("storage failed for {}: {}", spec.name(), e.toString());
      error(s.reply, "ERR storage: " + e.getMessage());
    } catch (io.cassette.coordinator.CoordinatorException e) {
      // The ring could not reach the key's owner: Redis Cluster's words where it has them.
      server.requests.error(spec.name());
      logRefusal(spec.name(), e);
      // Unavailable: too few of the key's replicas are UP for resp_consistency (one replica: its
      // node is down; more: this node is cut off from a majority of them); nothing was written.
      error(s.reply, e instanceof io.cassette.coordinator.CoordinatorException.Unavailable u
          ? "CLUSTERDOWN The node that owns the key is down or too few of its replicas are up ("
              + u.consistency + ": " + u.required + " required, " + u.alive + " alive)"
          : e instanceof io.cassette.coordinator.CoordinatorException.Timeout
              ? "ERR timeout: the node that owns the key did not answer in time"
              : "ERR " + e.getMessage());
    } catch (io.cassette.resp.protocol.ReplyTooLargeException e) {
      throw e; // part of the reply is written: the client is closed (drainSafely)
    } catch (RuntimeException e) {
      server.requests.error(spec.name());
      LOG.error("command {} failed", spec.name(), e);
      error(s.reply, "ERR internal error in '" + spec.name() + "': " + e);
    } finally {
      if (notifying) {
        var changes = io.cassette.resp.keyspace.KeyChanges.end(outer);
        if (!changes.changes.isEmpty() || changes.wrote) {
          server.events.afterCommand(server, s.db, args, changes);
        }
      }
    }
    long micros = (System.nanoTime() - start) / 1000;
    server.stats.commandsProcessed.incrementAndGet();
    if (spec.has(CommandSpec.WRITE) && spec.firstKey() > 0) {
      touchKeys(s, spec, args);
    }
    if (s.blocked == null) {
      record(s, spec, args, micros); // a blocked command is counted once, when it is served (Redis 7)
    }
    if (s.blocked != null && s.blocked.timeout == null && s.blocked.deadlineMillis > 0) {
      Session.Blocked b = s.blocked;
      long delay = Math.max(0, b.deadlineMillis - System.currentTimeMillis());
      b.timeout = thread.schedule(() -> timeOut(s, b), delay, TimeUnit.MILLISECONDS);
    }
  }

  /** When the last coordinator refusal was logged at INFO (command thread). */
  private long refusalLoggedNanos = System.nanoTime() - REFUSAL_LOG_NANOS;
  private static final long REFUSAL_LOG_NANOS = 10_000_000_000L;

  /**
   * A refusal at INFO at most every 10 s, with its level, required and alive counts and the ring
   * it was counted on: a door that refuses everything must say why (the fault lab's INCRs all
   * answered CLUSTERDOWN while the CQL door served the same ring).
   */
  private void logRefusal(String command, io.cassette.coordinator.CoordinatorException e) {
    long now = System.nanoTime();
    boolean info = now - refusalLoggedNanos >= REFUSAL_LOG_NANOS;
    if (!info && !LOG.isDebugEnabled()) {
      return;
    }
    String counts = e instanceof io.cassette.coordinator.CoordinatorException.Unavailable u
        ? " (level " + u.consistency + ", required " + u.required + ", alive " + u.alive + ")" : "";
    String ring = server.ring == null ? "" : "; ring " + server.ring.describe();
    if (info) {
      refusalLoggedNanos = now;
      LOG.info("{} refused by the coordinator: {}{}{}", command, e.toString(), counts, ring);
    } else {
      LOG.debug("{} refused by the coordinator: {}{}{}", command, e.toString(), counts, ring);
    }
  }

  private void record(Session s, CommandSpec spec, byte[][] args, long micros) {
    server.requests.record(spec.name(), micros); // also a request-resp latency event if slow
    if (server.slowlog.isSlow(micros)) {
      server.slowlog.add(micros, args, args.length, address(s), s.name);
    }
  }

  private static String address(Session s) {
    var a = s.channel.remoteAddress();
    if (a instanceof java.net.InetSocketAddress i) {
      return i.getAddress().getHostAddress() + ":" + i.getPort();
    }
    return String.valueOf(a);
  }

  private void touchKeys(Session s, CommandSpec spec, byte[][] args) {
    int last = spec.lastKey() < 0 ? args.length + spec.lastKey() : spec.lastKey();
    for (int i = spec.firstKey(); i <= last && i < args.length; i += Math.max(1, spec.step())) {
      server.watches.touch(s.db, args[i]);
      server.blocking.signalWaitersIn(s.db, args[i], "xreadgroup"); // its stream may be gone
    }
  }

  /** Retries the commands of clients blocked on keys that received data. */
  private void serveBlocked() {
    while (server.blocking.hasReady()) {
      List<Session.KeyRef> ready = server.blocking.takeReady();
      for (Session.KeyRef key : ready) {
        for (Session waiter : server.blocking.waitersOf(key)) {
          Session.Blocked b = waiter.blocked;
          if (b == null || waiter.closed) {
            continue;
          }
          server.deliver(waiter, r -> run(waiter, b.args, true));
          if (waiter.blocked == null) {
            schedule(waiter);
          }
        }
      }
    }
  }

  private void timeOut(Session s, Session.Blocked b) {
    if (s.blocked != b) {
      return;
    }
    if (server.scriptBusy()) { // the script owns the blocking registry: ask again later
      b.timeout = thread.schedule(() -> timeOut(s, b), 10, TimeUnit.MILLISECONDS);
      return;
    }
    server.blocking.unblock(s);
    server.deliver(s, Reply::nullArray);
    schedule(s);
  }

  /** Clean-up when a client disconnects. */
  public void closed(Session s) {
    try {
      thread.execute(() -> {
        s.closed = true;
        if (server.ring != null) {
          server.ring.closed(s); // its watches and blocked pop at other nodes
        }
        server.blocking.unblock(s);
        server.watches.unwatchAll(s);
        server.pubsub.removeAll(s);
        server.clients.remove(s.id);
        releaseInbox(s);
        server.dropMultiQueue(s);
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      server.clients.remove(s.id);
    }
  }

  /** Redis 7.0's text: the name and up to 128 characters of quoted arguments. */
  static String unknownCommand(byte[][] args) {
    StringBuilder quoted = new StringBuilder();
    for (int i = 1; i < args.length && quoted.length() < UNKNOWN_ARGS_CHARS; i++) {
      String a = new String(args[i], StandardCharsets.UTF_8);
      int room = UNKNOWN_ARGS_CHARS - quoted.length();
      quoted.append('\'').append(a, 0, Math.min(a.length(), room)).append("' ");
    }
    String name = new String(args[0], StandardCharsets.UTF_8);
    if (name.length() > UNKNOWN_ARGS_CHARS) {
      name = name.substring(0, UNKNOWN_ARGS_CHARS);
    }
    return "ERR unknown command '" + name + "', with args beginning with: " + quoted;
  }
}
