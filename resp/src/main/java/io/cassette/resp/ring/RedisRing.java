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
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 *   <li>DBSIZE is scattered: each node counts the keys of its own ranges, locally; the sum
 *       is the answer. Other keyless commands (KEYS, SCAN, FLUSHDB, INFO ...) run where the
 *       client is; the ones that read keys scan the ring through the coordinator.
 *   <li>WATCH of keys executed elsewhere registers the watch there (for this client, by a
 *       token); EXEC goes to that node, which checks it as Redis does. UNWATCH, DISCARD, a
 *       failed EXEC and the client leaving release it.
 *   <li>Active expiry: the node owning an expiry bucket asks each due key's executor to
 *       delete it ({@link KeyRouter}), so expiry never races the key's commands.
 *   <li>Caches: only the executor writes a key, so the metadata and sub-row caches stay on;
 *       they are dropped when the ring snapshot changes (the executor of a key may change)
 *       and when another node flushes a database.
 *   <li>With more than one replica the executor holds a lease on the key's replica list and
 *       fences its writes with the lease's epoch ({@link ExecutorLeases}): a node that still
 *       executes a key after another took it over (it was paused, or cut off one way) gets no
 *       write acknowledged, and its client TRYAGAIN. With one replica: none of this.
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
  public static final long BLOCK_ROUND_MILLIS = 5_000;
  /** What a client gets if the executor's answer holds no reply (a bug there, not a hang here). */
  static final byte[] EMPTY_ANSWER = "-ERR the node that owns the key sent an empty answer\r\n"
      .getBytes(StandardCharsets.US_ASCII);
  /** Beyond a round, how long the client's node waits for the executor's answer. */
  static final int BLOCK_SLACK_MILLIS = 5_000;

  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final MetadataLog metadata;
  /** This node's promises to other executors (the replica side), and the leases it holds itself. */
  private final LeasePromises promises;
  private final ExecutorLeases leases;
  private ServerContext server;
  private final AtomicLong tokens = new AtomicLong();
  /** The ring snapshot the caches were filled under (command thread). */
  private TokenRing cachedUnder;

  /** This node's clients with state at an executor, by session id (command thread). */
  private final Map<Long, ClientState> clients = new HashMap<>();

  /** What this node's client holds at an executor. */
  private static final class ClientState {
    Endpoint watchAt;
    long watchToken;
    Endpoint blockedAt;
    long blockToken;
  }

  /**
   * @param messaging started internode messaging (REDIS_REQ is registered on it)
   * @param ring      the latest ring snapshot (members, tokens, liveness)
   * @param metadata  the schema: the {@code redis} keyspace's replication
   */
  public RedisRing(MessagingService messaging, Supplier<TokenRing> ring, MetadataLog metadata) {
    this(messaging, ring, metadata, null);
  }

  /**
   * @param leasesFile where this node keeps the lease epochs it promised (fsynced; null: in
   *                   memory, for tests); install {@link #fenceGuard()} on the coordinator
   */
  public RedisRing(MessagingService messaging, Supplier<TokenRing> ring, MetadataLog metadata,
                   java.nio.file.Path leasesFile) {
    this.messaging = messaging;
    this.ring = ring;
    this.metadata = metadata;
    this.promises = new LeasePromises(leasesFile);
    this.leases = new ExecutorLeases(messaging, ring, promises);
  }

  /** What the coordinator checks fenced writes with on this node (as a replica). */
  public io.cassette.coordinator.FenceGuard fenceGuard() {
    return promises;
  }

  LeasePromises promises() {
    return promises;
  }

  /** Stops renewing leases (they run out). */
  public void close() {
    leases.close();
  }

  /** Starts serving peers' REDIS_REQ on {@code server}'s command thread. */
  public void start(ServerContext server) {
    this.server = server;
    PeerRequests peers = new PeerRequests(this, server, messaging);
    messaging.registerHandler(Verb.REDIS_REQ, peers::handle);
  }

  // ------------------------------------------------------------------ the client's node

  /**
   * Sends {@code args} to its keys' executor when that is another node, parking {@code s}
   * until the answer; answers CROSSSLOT / CLUSTERDOWN itself. False: run it here.
   */
  public boolean forward(Session s, CommandSpec spec, byte[][] args) {
    server.keyspace.fence().set(null);
    if (s.id < 0) { // a peer's command: this node executes it
      if (spec.name().equals("exec")) {
        return fenceHere(s, queueKeys(s.multiQueue));
      }
      return !spec.has(CommandSpec.NO_QUEUE) && fenceHere(s, CommandKeys.of(spec, args));
    }
    if (spec.has(CommandSpec.NO_QUEUE)) {
      return connectionCommand(s, spec, args);
    }
    List<byte[]> keys = CommandKeys.of(spec, args);
    if (keys.isEmpty()) {
      return false;
    }
    Endpoint executor;
    try {
      executor = executor(keys);
    } catch (RedisException e) {
      error(s, e.getMessage());
      return true;
    }
    if (executor == null) {
      return fenceHere(s, keys);
    }
    long deadline = 0;
    long token = 0;
    long streamBlock = io.cassette.resp.stream.StreamCommands.blockMillis(spec.name(), args);
    if (spec.has(CommandSpec.BLOCKING) && streamBlock != -1) {
      Double t = streamBlock >= 0 ? Double.valueOf(streamBlock / 1000.0) // XREAD ... BLOCK ms
          : io.cassette.resp.command.Args.parseDoubleOrNull(args[args.length - 1]);
      if (t == null || t < 0 || Double.isInfinite(t)) {
        return false; // the command answers the error itself
      }
      deadline = t == 0 ? Long.MAX_VALUE : System.currentTimeMillis() + Math.max(1, (long) Math.ceil(t * 1000));
      ClientState c = clients.computeIfAbsent(s.id, id -> new ClientState());
      c.blockedAt = executor;
      c.blockToken = token = tokens.incrementAndGet();
    }
    Session.Blocked parked = new Session.Blocked(args, List.of(), 0);
    s.blocked = parked;
    send(s, parked, executor, RedisMessages.COMMAND, token, Collections.singletonList(args), deadline);
    return true;
  }

  /** WATCH, UNWATCH, DISCARD, EXEC, RESET: WATCHes held at another node follow them. */
  private boolean connectionCommand(Session s, CommandSpec spec, byte[][] args) {
    switch (spec.name()) {
      case "watch" -> {
        if (s.inMulti) {
          return false; // refused by the command itself
        }
        return watch(s, CommandKeys.of(spec, args));
      }
      case "unwatch", "discard", "reset" -> releaseWatch(s);
      case "exec" -> {
        if (s.inMulti && (s.multiFailed || s.watchDirty)) {
          releaseWatch(s); // EXEC fails here and unwatches everything, as Redis's does
        }
      }
      default -> { }
    }
    return false;
  }

  private boolean watch(Session s, List<byte[]> keys) {
    Endpoint executor;
    try {
      executor = executor(keys);
    } catch (RedisException e) {
      error(s, e.getMessage());
      return true;
    }
    if (executor == null) {
      return false; // watched here, where the keys' commands run
    }
    ClientState c = clients.computeIfAbsent(s.id, id -> new ClientState());
    if (c.watchAt != null && !c.watchAt.equals(executor)) {
      error(s, CROSSSLOT);
      return true;
    }
    if (c.watchAt == null) {
      c.watchAt = executor;
      c.watchToken = tokens.incrementAndGet();
    }
    Session.Blocked parked = new Session.Blocked(new byte[][] {"watch".getBytes(StandardCharsets.US_ASCII)},
        List.of(), 0);
    s.blocked = parked;
    send(s, parked, executor, RedisMessages.WATCH, c.watchToken, List.<byte[][]>of(keys.toArray(new byte[0][])), 0);
    return true;
  }

  private void releaseWatch(Session s) {
    ClientState c = clients.get(s.id);
    if (c != null && c.watchAt != null) {
      oneWay(c.watchAt, RedisMessages.request(RedisMessages.UNWATCH, s.db, 2, c.watchToken, List.of()));
      c.watchAt = null;
      c.watchToken = 0;
    }
  }

  /**
   * EXEC of {@code queue}: sent whole to the executor of its keys (and of the client's
   * WATCHed keys) when that is another node (true, {@code s} parked); false when it runs here.
   * Keys on different replica sets: CROSSSLOT, the transaction discarded.
   */
  public boolean forwardExec(Session s, List<byte[][]> queue) {
    if (s.id < 0) {
      return false;
    }
    ClientState c = clients.get(s.id);
    Endpoint watchAt = c == null ? null : c.watchAt;
    long token = c == null ? 0 : c.watchToken;
    if (c != null) {
      c.watchAt = null; // EXEC unwatches, whatever its outcome
      c.watchToken = 0;
    }
    List<byte[]> keys = queueKeys(queue);
    Endpoint executor;
    try {
      executor = keys.isEmpty() ? watchAt : executor(keys);
      if (watchAt != null && !watchAt.equals(executor)) {
        throw new RedisException(CROSSSLOT);
      }
    } catch (RedisException e) {
      if (watchAt != null) {
        oneWay(watchAt, RedisMessages.request(RedisMessages.UNWATCH, s.db, 2, token, List.of()));
      }
      throw e;
    }
    if (executor == null) {
      if (!keys.isEmpty()) {
        fence(keys); // a refusal: EXEC answers TRYAGAIN, the transaction discarded
      }
      return false;
    }
    Session.Blocked parked = new Session.Blocked(new byte[][] {"exec".getBytes(StandardCharsets.US_ASCII)},
        List.of(), 0);
    s.blocked = parked;
    send(s, parked, executor, RedisMessages.EXEC, token, queue, 0);
    return true;
  }

  /**
   * DBSIZE, scattered: every node counts the keys of its own token ranges locally and the sum
   * is answered when all have (true, {@code s} parked). False when a node is DOWN: the ring
   * scan then answers CLUSTERDOWN.
   */
  public boolean dbsize(Session s) {
    TokenRing r = checkRing();
    List<Endpoint> peers = new java.util.ArrayList<>();
    for (TokenRing.Member m : r.members()) {
      if (!r.isAlive(m.endpoint())) {
        return false;
      }
      if (!m.endpoint().equals(r.self())) {
        peers.add(m.endpoint());
      }
    }
    long[] sum = {ownKeys(s.db)};
    int[] left = {peers.size()};
    if (peers.isEmpty()) {
      return false;
    }
    Session.Blocked parked = new Session.Blocked(new byte[][] {"dbsize".getBytes(StandardCharsets.US_ASCII)},
        List.of(), 0);
    s.blocked = parked;
    byte[] payload = RedisMessages.request(RedisMessages.COUNT, s.db, 2, 0, List.of());
    for (Endpoint e : peers) {
      CompletableFuture<Message> answer;
      try {
        answer = messaging.sendWithCallback(peer(e), Message.out(Verb.REDIS_REQ, payload));
      } catch (RuntimeException ex) {
        answer = CompletableFuture.failedFuture(ex);
      }
      answer.whenComplete((rsp, err) -> onCommandThread(() -> {
        if (s.blocked != parked || s.closed) {
          return;
        }
        if (err != null) {
          finish(s, parked, error(err));
          return;
        }
        byte[] reply = RedisMessages.reply(rsp.payload());
        sum[0] += Long.parseLong(new String(reply, 1, reply.length - 3, StandardCharsets.US_ASCII));
        if (--left[0] == 0) {
          finish(s, parked, (":" + sum[0] + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
      }));
    }
    return true;
  }

  /** Keys of database {@code db} in this node's own token ranges (read locally). */
  long ownKeys(int db) {
    Database d = server.keyspace.existing(db);
    if (d == null) {
      return 0;
    }
    TokenRing r = ring.get();
    long n = 0;
    for (io.cassette.coordinator.ring.Range range : r.ranges(r.self())) {
      n += d.countKeys(io.cassette.storage.KeyRange.tokens(range.start(), range.end()));
    }
    return n;
  }

  /** Sends a PUBLISH to every other live node (one-way; their subscribers get it there). */
  public void publish(byte[] channel, byte[] message) {
    broadcast(RedisMessages.request(RedisMessages.PUBLISH, 0, 2, 0,
        Collections.singletonList(new byte[][] {channel, message})));
  }

  /** Database {@code db} (-1: all) was flushed here: the other nodes drop what they cached. */
  public void flushed(int db) {
    broadcast(RedisMessages.request(RedisMessages.FLUSHED, db, 2, 0, List.of()));
  }

  private void broadcast(byte[] payload) {
    TokenRing r = ring.get();
    for (TokenRing.Member m : r.members()) {
      Endpoint e = m.endpoint();
      if (!e.equals(r.self()) && r.isAlive(e)) {
        oneWay(e, payload);
      }
    }
  }

  private void oneWay(Endpoint e, byte[] payload) {
    try {
      messaging.send(peer(e), Message.out(Verb.REDIS_REQ, payload));
    } catch (RuntimeException ex) {
      LOG.debug("REDIS_REQ not sent to {}: {}", e, ex.toString());
    }
  }

  /** A client left: its watches and a blocked pop at other nodes are released. */
  public void closed(Session s) {
    releaseWatch(s);
    ClientState c = clients.remove(s.id);
    if (c != null && c.blockedAt != null) {
      oneWay(c.blockedAt, RedisMessages.request(RedisMessages.CANCEL, s.db, 2, c.blockToken, List.of()));
    }
  }

  /**
   * The node that executes commands on {@code keys}: null when it is this node; throws
   * CROSSSLOT when the keys' replica sets differ, CLUSTERDOWN when none of them is alive.
   */
  Endpoint executor(List<byte[]> keys) {
    TokenRing r = checkRing();
    ReplicationStrategy strategy = strategy();
    List<Endpoint> replicas = replicas(r, strategy, keys);
    for (Endpoint e : replicas) {
      if (r.isAlive(e)) {
        return e.equals(r.self()) ? null : e;
      }
    }
    long now = System.nanoTime();
    if (now - downLoggedNanos >= DOWN_LOG_NANOS) {
      downLoggedNanos = now;
      LOG.info("Redis key refused as CLUSTERDOWN: replicas {} under {}, none alive; ring {}", replicas, strategy, r);
    }
    throw new RedisException(DOWN);
  }

  /** The keys of the commands of a transaction. */
  private List<byte[]> queueKeys(List<byte[][]> queue) {
    List<byte[]> keys = new java.util.ArrayList<>();
    for (byte[][] args : queue) {
      CommandSpec spec = server.commands.get(lower(args[0]));
      if (spec != null) {
        keys.addAll(CommandKeys.of(spec, args));
      }
    }
    return keys;
  }

  /**
   * Before this node executes a command on {@code keys}: with more than one replica, the lease on
   * their replicas (acquired if needed, waiting) becomes the fence of the command's writes. True
   * when {@code s} was answered instead (TRYAGAIN, CROSSSLOT): the command does not run.
   */
  private boolean fenceHere(Session s, List<byte[]> keys) {
    if (keys.isEmpty()) {
      return false;
    }
    try {
      fence(keys);
      return false;
    } catch (RedisException e) {
      error(s, e.getMessage());
      return true;
    }
  }

  /** Sets the fence of the commands on {@code keys} (none with one replica); throws TRYAGAIN, CROSSSLOT. */
  private void fence(List<byte[]> keys) {
    ReplicationStrategy strategy = strategy();
    if (strategy.replicationFactor() <= 1) {
      return; // one replica: only its node executes a key; nothing to fence
    }
    server.keyspace.fence().set(leases.acquire(replicas(ring.get(), strategy, keys)));
    long changes = leases.changes();
    if (changes != cachedLeases) {
      // A lease won anew: another node may have executed its keys since this one cached them.
      server.keyspace.dropCaches();
      cachedLeases = changes;
    }
  }

  /** {@link ExecutorLeases#changes} when the caches were last dropped for it (command thread). */
  private long cachedLeases = -1;

  /** The replicas of {@code keys}, which must be one list: else CROSSSLOT. */
  private static List<Endpoint> replicas(TokenRing r, ReplicationStrategy strategy, List<byte[]> keys) {
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
    return replicas;
  }

  /** When a CLUSTERDOWN of {@link #executor} was last logged at INFO (at most every 10 s). */
  private long downLoggedNanos = System.nanoTime() - DOWN_LOG_NANOS;
  private static final long DOWN_LOG_NANOS = 10_000_000_000L;

  /** The ring and the Redis keyspace's replication this door routes by, for the logs. */
  public String describe() {
    TokenRing r = ring.get();
    return r + " " + r.topology() + ", redis replication " + strategy();
  }

  /**
   * The ring now; caches filled under another snapshot are dropped (executors may have moved).
   * With more than one replica a peer that saw this node DOWN (a partition this node's own view
   * never noticed) may have executed a key meanwhile: the caches are also dropped whenever this
   * node wins a lease ({@link #fence}), since only a lease held without a gap keeps a key's writes
   * to this node (before leases they were dropped before every command).
   */
  TokenRing checkRing() {
    TokenRing r = ring.get();
    if (r != cachedUnder) {
      if (cachedUnder != null) {
        server.keyspace.dropCaches();
      }
      cachedUnder = r;
    }
    return r;
  }

  /** The redis keyspace's strategy, computed again only when the metadata epoch moved. */
  private ReplicationStrategy strategy() {
    io.cassette.coordinator.metadata.ClusterMetadata m = metadata.current();
    StrategyAt last = strategy;
    if (last == null || last.epoch() != m.epoch()) {
      KeyspaceDefinition ks = m.keyspace(RedisLayout.KEYSPACE);
      last = new StrategyAt(m.epoch(), ReplicationStrategy.of(ks == null ? RedisLayout.replication() : ks.replication()));
      strategy = last;
    }
    return last.strategy();
  }

  /** {@link #strategy()}'s last answer and the metadata epoch it was computed at. */
  private record StrategyAt(long epoch, ReplicationStrategy strategy) {}

  private volatile StrategyAt strategy;

  private void send(Session s, Session.Blocked parked, Endpoint executor, byte kind, long token,
                    List<byte[][]> commands, long deadline) {
    List<byte[][]> sent = commands;
    int timeout = 0;
    if (deadline > 0) {
      long round = Math.min(BLOCK_ROUND_MILLIS, deadline - System.currentTimeMillis());
      if (round <= 0) {
        finish(s, parked, nullArray(s)); // the client's timeout passed between rounds
        return;
      }
      byte[][] args = commands.get(0).clone();
      int block = io.cassette.resp.stream.StreamCommands.blockArgument(args);
      if (block > 0) { // XREAD/XREADGROUP: BLOCK <ms>, the last argument is an ID
        args[block] = Long.toString(round).getBytes(StandardCharsets.US_ASCII);
      } else {
        args[args.length - 1] = String.format(java.util.Locale.ROOT, "%.3f", round / 1000.0)
            .getBytes(StandardCharsets.US_ASCII);
      }
      sent = Collections.singletonList(args);
      timeout = (int) round + BLOCK_SLACK_MILLIS;
    }
    Message m = Message.out(Verb.REDIS_REQ, RedisMessages.request(kind, s.db, s.protocol(), token, sent));
    if (timeout > 0) {
      m = m.withTimeoutMillis(timeout);
    }
    CompletableFuture<Message> answer;
    try {
      answer = messaging.sendWithCallback(peer(executor), m);
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    answer.whenComplete((rsp, err) -> onCommandThread(() -> {
      if (s.blocked != parked || s.closed) {
        return; // the client left (or was reset) meanwhile
      }
      byte[] reply = err != null ? error(err) : RedisMessages.reply(rsp.payload());
      if (reply.length == 0) { // never relay nothing: the client would wait for ever
        reply = EMPTY_ANSWER;
      }
      if (deadline > 0 && err == null && Arrays.equals(reply, nullArray(s))
          && System.currentTimeMillis() < deadline) {
        send(s, parked, executor, kind, token, commands, deadline); // a round ended empty: wait on
        return;
      }
      if (deadline > 0) {
        ClientState c = clients.get(s.id);
        if (c != null && c.blockToken == token) {
          c.blockedAt = null;
        }
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

  private void error(Session s, String text) {
    server.stats.errorReplies.incrementAndGet();
    s.reply.error(text);
  }

  private static byte[] nullArray(Session s) {
    return (s.protocol() == 3 ? "_\r\n" : "*-1\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] error(Throwable err) {
    Throwable e = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
        ? err.getCause() : err;
    String text = e instanceof RequestTimeoutException
        ? "ERR timeout: the node that owns the key did not answer in time"
        : e instanceof RequestFailureException f && f.reason() == io.cassette.cluster.net.RequestFailureReason.UNKNOWN_VERB
        ? "TRYAGAIN the node that owns the key is starting (its Redis door is not open yet); the command was not run"
        : e instanceof RequestFailureException ? "ERR the node that owns the key failed: " + e.getMessage()
        : "CLUSTERDOWN the node that owns the key cannot be reached: " + e.getMessage();
    return ("-" + text.replace('\r', ' ').replace('\n', ' ') + "\r\n").getBytes(StandardCharsets.UTF_8);
  }

  void onCommandThread(Runnable task) {
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

  /**
   * With more than one replica active expiry never deletes in its own pass (its batch mixes keys
   * of several leases): every due key goes through {@link #expireElsewhere}, fenced by its lease.
   */
  @Override
  public boolean expiresHere(byte[] key) {
    return strategy().replicationFactor() <= 1 && executesHere(key);
  }

  @Override
  public void expireElsewhere(int db, byte[] key) {
    Endpoint e;
    try {
      e = executor(List.of(key));
    } catch (RedisException ex) {
      return;
    }
    if (e == null) { // executed here, with more than one replica: deleted under the key's lease
      onCommandThread(() -> expireFenced(db, key));
      return;
    }
    if (e != null) {
      oneWay(e, RedisMessages.request(RedisMessages.EXPIRE, db, 2, 0,
          Collections.singletonList(new byte[][] {key})));
    }
  }

  /**
   * Deletes {@code key} of database {@code db} if its TTL passed, fenced by the lease this node
   * holds on its replicas; without a valid one it is left (to its executor, or lazy expiry).
   */
  void expireFenced(int db, byte[] key) {
    io.cassette.resp.keyspace.Database d = server.keyspace.existing(db);
    if (d == null) {
      return;
    }
    ReplicationStrategy strategy = strategy();
    ExecutorLeases.Lease l = null;
    if (strategy.replicationFactor() > 1) {
      try {
        l = leases.held(replicas(ring.get(), strategy, List.of(key)));
      } catch (RedisException e) {
        return;
      }
      if (l == null) {
        return;
      }
    }
    server.keyspace.fence().set(l);
    try {
      if (d.expireIfDue(key)) {
        server.watches.touch(db, key);
        server.stats.expiredKeys.incrementAndGet();
      }
    } catch (RedisException | io.cassette.coordinator.CoordinatorException e) {
      LOG.debug("expiry of a key left for later: {}", e.toString());
    } finally {
      server.keyspace.fence().set(null);
    }
  }

  private static String lower(byte[] name) {
    return new String(name, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
  }
}
