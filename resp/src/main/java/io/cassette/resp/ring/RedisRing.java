package io.cassette.resp.ring;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureException;
import io.cassette.cluster.net.RequestTimeoutException;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.resp.command.CommandSpec;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyRouter;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.protocol.Request;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis door on a ring. Each key command runs on one node, the key's <em>executor</em>:
 * the first live replica of the key's token ({@link HashTags}; with replication factor 1 its
 * owner), on that node's command thread, so a key's commands are serialised there (INCR from
 * two nodes loses nothing, MULTI/EXEC and blocking pops are atomic as on one Redis). The
 * client's node sends the command (REDIS_REQ) and relays the executor's RESP reply; its
 * command thread does not wait: the client's next commands wait (replies stay in order) while
 * other clients are served.
 *
 * <ul>
 *   <li>Keys of one command or one MULTI/EXEC must have one replica set, else
 *       {@code -CROSSSLOT Keys in request don't hash to the same slot} (Redis Cluster's text);
 *       a hash tag ({@code {user1}:a}, {@code {user1}:b}) puts keys on one.
 *   <li>Blocking pops block at the executor, in rounds of at most {@link #BLOCK_ROUND_MILLIS}
 *       (a round that ends empty is sent again until the client's timeout), so a dead
 *       executor or a gone client holds nothing for long.
 *   <li>PUBLISH is delivered on this node and sent to every other live node (one-way); as in
 *       Redis Cluster its answer counts this node's receivers.
 *   <li>Keyless commands (DBSIZE, KEYS, SCAN, FLUSHDB, INFO ...) run where the client is;
 *       the ones that read keys scan the ring through the coordinator.
 *   <li>Active expiry: the node owning an expiry bucket asks each due key's executor to
 *       delete it ({@link KeyRouter}), so expiry never races the key's commands.
 * </ul>
 *
 * Thread-safety: entry points are called on the command thread; message handlers hop onto it.
 */
public final class RedisRing implements KeyRouter {
  private static final Logger LOG = LoggerFactory.getLogger(RedisRing.class);
  /** Redis Cluster's text for keys of one request on different slots. */
  public static final String CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";
  static final String DOWN = "CLUSTERDOWN The node that owns the key is down";
  /** Longest a blocking pop waits at the executor before the client's node asks again. */
  static final long BLOCK_ROUND_MILLIS = 5_000;
  /** Beyond a round, how long the client's node waits for the executor's answer. */
  static final int BLOCK_SLACK_MILLIS = 5_000;

  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final MetadataLog metadata;
  private ServerContext server;
  private final AtomicLong remoteIds = new AtomicLong();

  /**
   * @param messaging started internode messaging (REDIS_REQ is registered on it)
   * @param ring      the latest ring snapshot (members, tokens, liveness)
   * @param metadata  the schema: the {@code redis} keyspace's replication
   */
  public RedisRing(MessagingService messaging, Supplier<TokenRing> ring, MetadataLog metadata) {
    this.messaging = messaging;
    this.ring = ring;
    this.metadata = metadata;
  }

  /** Starts serving peers' REDIS_REQ on {@code server}'s command thread. */
  public void start(ServerContext server) {
    this.server = server;
    messaging.registerHandler(Verb.REDIS_REQ, this::handle);
  }

  // ------------------------------------------------------------------ the client's node

  /**
   * Sends {@code args} to its keys' executor when that is another node, parking {@code s}
   * until the answer; answers CROSSSLOT / CLUSTERDOWN itself. False: run it here.
   */
  public boolean forward(Session s, CommandSpec spec, byte[][] args) {
    if (s.id < 0 || spec.has(CommandSpec.NO_QUEUE)) {
      return false; // a peer's command, or a connection-state command (WATCH...)
    }
    List<byte[]> keys = CommandKeys.of(spec, args);
    if (keys.isEmpty()) {
      return false;
    }
    Endpoint executor;
    try {
      executor = executor(keys);
    } catch (RedisException e) {
      server.stats.errorReplies.incrementAndGet();
      s.reply.error(e.getMessage());
      return true;
    }
    if (executor == null) {
      return false;
    }
    long deadline = 0;
    if (spec.has(CommandSpec.BLOCKING)) {
      Double t = io.cassette.resp.command.Args.parseDoubleOrNull(args[args.length - 1]);
      if (t == null || t < 0 || Double.isInfinite(t)) {
        return false; // the command answers the error itself
      }
      deadline = t == 0 ? Long.MAX_VALUE : System.currentTimeMillis() + Math.max(1, (long) Math.ceil(t * 1000));
    }
    Session.Blocked parked = new Session.Blocked(args, List.of(), 0);
    s.blocked = parked;
    send(s, parked, executor, RedisMessages.COMMAND, java.util.Collections.singletonList(args), deadline);
    return true;
  }

  /**
   * EXEC of {@code queue}: sent whole to the executor of its keys when that is another node
   * (true, {@code s} parked); false when it runs here. Keys on different replica sets:
   * CROSSSLOT, the transaction discarded.
   */
  public boolean forwardExec(Session s, List<byte[][]> queue) {
    if (s.id < 0) {
      return false;
    }
    List<byte[]> keys = new java.util.ArrayList<>();
    for (byte[][] args : queue) {
      CommandSpec spec = server.commands.get(lower(args[0]));
      if (spec != null) {
        keys.addAll(CommandKeys.of(spec, args));
      }
    }
    if (keys.isEmpty()) {
      return false;
    }
    Endpoint executor = executor(keys); // throws CROSSSLOT / CLUSTERDOWN
    if (executor == null) {
      return false;
    }
    Session.Blocked parked = new Session.Blocked(new byte[][] {"exec".getBytes(StandardCharsets.US_ASCII)},
        List.of(), 0);
    s.blocked = parked;
    send(s, parked, executor, RedisMessages.EXEC, queue, 0);
    return true;
  }

  /** Sends a PUBLISH to every other live node (one-way; their subscribers get it there). */
  public void publish(byte[] channel, byte[] message) {
    TokenRing r = ring.get();
    byte[] payload = RedisMessages.request(RedisMessages.PUBLISH, 0, 2, java.util.Collections.singletonList(new byte[][] {channel, message}));
    for (TokenRing.Member m : r.members()) {
      Endpoint e = m.endpoint();
      if (!e.equals(r.self()) && r.isAlive(e)) {
        try {
          messaging.send(peer(e), Message.out(Verb.REDIS_REQ, payload));
        } catch (RuntimeException ex) {
          LOG.debug("PUBLISH not sent to {}: {}", e, ex.toString());
        }
      }
    }
  }

  /** A client left: commands it parked are no longer answered to it. */
  public void closed(Session s) {
    s.blocked = null;
  }

  /**
   * The node that executes commands on {@code keys}: null when it is this node; throws
   * CROSSSLOT when the keys' replica sets differ, CLUSTERDOWN when none of them is alive.
   */
  Endpoint executor(List<byte[]> keys) {
    TokenRing r = ring.get();
    ReplicationStrategy strategy = strategy();
    List<Endpoint> replicas = null;
    byte[] first = null;
    for (byte[] key : keys) {
      byte[] placement = HashTags.placementBytes(key);
      if (first != null && Arrays.equals(first, placement)) {
        continue;
      }
      List<Endpoint> these = r.replicas(HashTags.token(key), strategy);
      if (replicas == null) {
        replicas = these;
        first = placement;
      } else if (!replicas.equals(these)) {
        throw new RedisException(CROSSSLOT);
      }
    }
    for (Endpoint e : replicas) {
      if (r.isAlive(e)) {
        return e.equals(r.self()) ? null : e;
      }
    }
    throw new RedisException(DOWN);
  }

  private ReplicationStrategy strategy() {
    KeyspaceDefinition ks = metadata.current().keyspace(RedisLayout.KEYSPACE);
    return ReplicationStrategy.of(ks == null ? RedisLayout.replication() : ks.replication());
  }

  private void send(Session s, Session.Blocked parked, Endpoint executor, byte kind, List<byte[][]> commands,
                    long deadline) {
    List<byte[][]> sent = commands;
    int timeout = 0;
    if (deadline > 0) {
      long round = Math.min(BLOCK_ROUND_MILLIS, deadline - System.currentTimeMillis());
      if (round <= 0) {
        finish(s, parked, nullArray(s)); // the client's timeout passed between rounds
        return;
      }
      byte[][] args = commands.get(0).clone();
      args[args.length - 1] = String.format(java.util.Locale.ROOT, "%.3f", round / 1000.0)
          .getBytes(StandardCharsets.US_ASCII);
      sent = java.util.Collections.singletonList(args);
      timeout = (int) round + BLOCK_SLACK_MILLIS;
    }
    Message m = Message.out(Verb.REDIS_REQ, RedisMessages.request(kind, s.db, s.protocol(), sent));
    if (timeout > 0) {
      m = m.withTimeoutMillis(timeout);
    }
    java.util.concurrent.CompletableFuture<Message> answer;
    try {
      answer = messaging.sendWithCallback(peer(executor), m);
    } catch (RuntimeException e) {
      answer = java.util.concurrent.CompletableFuture.failedFuture(e);
    }
    answer.whenComplete((rsp, err) -> onCommandThread(() -> {
      if (s.blocked != parked || s.closed) {
        return; // the client left (or was reset) meanwhile
      }
      byte[] reply = err != null ? error(err) : RedisMessages.reply(rsp.payload());
      if (deadline > 0 && err == null && Arrays.equals(reply, nullArray(s))
          && System.currentTimeMillis() < deadline) {
        send(s, parked, executor, kind, commands, deadline); // a round ended empty: wait on
        return;
      }
      finish(s, parked, reply);
    }));
  }

  private void finish(Session s, Session.Blocked parked, byte[] reply) {
    if (s.blocked != parked) {
      return;
    }
    s.blocked = null;
    if (reply.length > 0 && reply[0] == '-') {
      server.stats.errorReplies.incrementAndGet();
    }
    server.deliver(s, r -> r.buffer().writeBytes(reply));
    server.runner.resume(s);
  }

  private static byte[] nullArray(Session s) {
    return (s.protocol() == 3 ? "_\r\n" : "*-1\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] error(Throwable err) {
    Throwable e = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
        ? err.getCause() : err;
    String text = e instanceof RequestTimeoutException
        ? "ERR timeout: the node that owns the key did not answer in time"
        : e instanceof RequestFailureException ? "ERR the node that owns the key failed: " + e.getMessage()
        : "CLUSTERDOWN the node that owns the key cannot be reached: " + e.getMessage();
    return ("-" + text.replace('\r', ' ').replace('\n', ' ') + "\r\n").getBytes(StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ the executor

  private void handle(Message m) {
    RedisMessages.Request r = RedisMessages.request(m.payload());
    onCommandThread(() -> run(m, r));
  }

  private void run(Message m, RedisMessages.Request r) {
    switch (r.kind()) {
      case RedisMessages.PUBLISH -> {
        byte[][] a = r.commands().get(0);
        server.pubsub.publish(server, a[0], a[1]);
      }
      case RedisMessages.EXPIRE -> {
        byte[] key = r.commands().get(0)[0];
        Database db = server.keyspace.existing(r.db());
        if (db != null && db.expireIfDue(key)) {
          server.watches.touch(r.db(), key);
          server.stats.expiredKeys.incrementAndGet();
        }
      }
      case RedisMessages.COMMAND, RedisMessages.EXEC -> execute(m, r);
      default -> messaging.respondFailure(m, io.cassette.cluster.net.RequestFailureReason.UNKNOWN,
          "unknown REDIS_REQ kind " + r.kind());
    }
  }

  /** Runs a peer's command through the dispatcher as a client of this node. */
  private void execute(Message m, RedisMessages.Request r) {
    long id = -remoteIds.incrementAndGet();
    RemoteClient client = new RemoteClient(id, reply -> messaging.respond(m, RedisMessages.response(reply)));
    Session s = client.session;
    s.db = r.db();
    s.reply.protocol(r.protocol());
    if (r.kind() == RedisMessages.EXEC) {
      s.inMulti = true;
      s.multiQueue.addAll(r.commands());
      s.inbox.add(new Request(new byte[][] {"exec".getBytes(StandardCharsets.US_ASCII)}));
    } else {
      s.inbox.add(new Request(r.commands().get(0)));
    }
    server.runner.resume(s);
    onCommandThread(client::ran); // after the dispatcher's turn for s, queued just before
  }

  private void onCommandThread(Runnable task) {
    try {
      server.commandThread.execute(task);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("Redis door closed; dropped a ring task");
    }
  }

  private InetSocketAddress peer(Endpoint e) {
    return messaging.peer(e.address());
  }

  // ------------------------------------------------------------------ active expiry (KeyRouter)

  @Override
  public boolean executesHere(byte[] key) {
    try {
      return executor(List.of(key)) == null;
    } catch (RedisException e) {
      return false; // nobody alive executes it: leave it
    }
  }

  @Override
  public void expireElsewhere(int db, byte[] key) {
    Endpoint e;
    try {
      e = executor(List.of(key));
    } catch (RedisException ex) {
      return;
    }
    if (e != null) {
      try {
        messaging.send(peer(e), Message.out(Verb.REDIS_REQ,
            RedisMessages.request(RedisMessages.EXPIRE, db, 2, java.util.Collections.singletonList(new byte[][] {key}))));
      } catch (RuntimeException ex) {
        LOG.debug("expiry of a key not sent to {}: {}", e, ex.toString());
      }
    }
  }

  private static String lower(byte[] name) {
    return new String(name, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
  }
}
