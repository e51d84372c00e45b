package io.cassette.coordinator.ring.batchlog;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureException;
import io.cassette.cluster.net.RequestFailureReason;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.MutationPayload;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.io.Throttle;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batch log: LOGGED batches atomic across replicas, with Cassandra's semantics.
 *
 * <ol>
 *   <li>{@link #write}: the coordinator first stores the batch on up to two other live nodes of
 *       its data centre, on different racks when it can (BATCH_STORE_REQ; on itself when it is
 *       alone in its data centre); no answer in time: {@code WriteTimeout} write type
 *       BATCH_LOG at ONE or TWO (the batch log's own level, as Cassandra reports it);
 *   <li>then applies the mutations at the request's level (the caller's {@link Mutations}; a
 *       timeout there is the caller's write type BATCH) and
 *   <li>then removes the batch (BATCH_REMOVE_REQ, not waited for).
 * </ol>
 * Each node replays the batches it holds that are older than twice {@code write_request_timeout}
 * (their coordinator died or timed out) through {@link Replay}, then forgets them. Replay may
 * apply a batch that its coordinator also applied: writes are idempotent (counters are not
 * allowed in logged batches). It also keeps local batches ({@link #storeLocal}: a base
 * replica's materialized view updates), replayed the same way. The updates of a table dropped
 * since are left out of a replay ({@link #tables}), said once per batch; the rest is replayed.
 * Thread-safe.
 */
public final class Batchlog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Batchlog.class);
  private static final long SAFETY_WAIT_SECONDS = 120;
  static final byte[] ACK = {1};

  /** The coordinator's mutation step: applies the batch's updates at the request's level. */
  @FunctionalInterface
  public interface Mutations {
    void apply(List<PartitionUpdate> updates);
  }

  /** How a node replays a batch: writes every update to its replicas (at ONE; the rest hinted). */
  @FunctionalInterface
  public interface Replay {
    void apply(List<PartitionUpdate> updates);
  }

  /** Whether a table exists now, in this node's schema. */
  @FunctionalInterface
  public interface Tables {
    boolean exists(String keyspace, String table);
  }

  private final BatchlogStore store;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final Duration writeTimeout;
  private final Replay replay;
  private final Throttle replayThrottle;
  private final ScheduledExecutorService timer;
  private volatile Tables tables = (keyspace, table) -> true;
  /** Live batches whose dropped tables were already logged (a batch kept for another round is not logged again). */
  private final Set<UUID> droppedLogged = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * @param writeTimeout          {@code write_request_timeout}: batches older than twice this are replayed
   * @param replayBytesPerSecond  {@code batchlog_replay_throttle} (0 = unthrottled)
   */
  public Batchlog(BatchlogStore store, MessagingService messaging, Supplier<TokenRing> ring, Duration writeTimeout,
                  long replayBytesPerSecond, Replay replay) {
    this.store = store;
    this.messaging = messaging;
    this.ring = ring;
    this.writeTimeout = writeTimeout;
    this.replay = replay;
    this.replayThrottle = new Throttle(replayBytesPerSecond);
    // Two threads: the periodic fsync does not wait behind a long (throttled) replay.
    ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(2, r -> {
      Thread th = new Thread(r, "batchlog-replay");
      th.setDaemon(true);
      return th;
    });
    t.setRemoveOnCancelPolicy(true);
    this.timer = t;
  }

  public BatchlogStore store() {
    return store;
  }

  /**
   * Where replay learns which tables still exist (the coordinator's schema; until this is called,
   * every table does). A replayed batch's updates of a table dropped since are dropped, as
   * Cassandra's replay drops a batch whose mutation names an unknown table, except that the
   * updates of the tables that remain are still replayed: the batch's promise holds for them,
   * and a dropped table's updates have nowhere to go; without this, the replay's write fails
   * on the unknown table and the batch is kept, and replayed and refused, for ever.
   */
  public void tables(Tables tables) {
    this.tables = tables;
  }

  /** Serves BATCH_STORE_REQ and BATCH_REMOVE_REQ from peers. */
  public void registerHandlers() {
    messaging.registerHandler(Verb.BATCH_STORE_REQ, m -> serve(m, () -> {
      ByteBuffer b = ByteBuffer.wrap(m.payload());
      UUID id = new UUID(b.getLong(), b.getLong());
      byte[] mutation = new byte[b.remaining()];
      b.get(mutation);
      store.store(id, mutation);
    }));
    messaging.registerHandler(Verb.BATCH_REMOVE_REQ, m -> serve(m, () -> store.remove(id(m.payload()))));
  }

  private void serve(Message m, Runnable body) {
    try {
      body.run();
    } catch (RuntimeException e) {
      LOG.warn("{} from {} failed: {}", m.verb(), m.from(), e.toString());
      messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.toString());
      return;
    }
    messaging.respond(m, ACK);
  }

  /**
   * Starts replaying, every {@code interval} (Cassandra: 10 s), the batches older than twice
   * the write timeout, and fsyncing the batch log every sync period of its store (periodic mode).
   */
  public Batchlog start(Duration interval) {
    long every = Math.max(1, interval.toMillis());
    timer.scheduleWithFixedDelay(this::replayQuietly, every, every, TimeUnit.MILLISECONDS);
    long syncEvery = store.syncPeriodMillis();
    if (syncEvery > 0) {
      timer.scheduleWithFixedDelay(this::syncQuietly, syncEvery, syncEvery, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  private void syncQuietly() {
    try {
      store.sync();
    } catch (RuntimeException e) {
      LOG.warn("Batch log: fsync failed: {}", e.toString());
    }
  }

  // ------------------------------------------------------------------ the coordinator's side

  /**
   * A LOGGED batch: stored in the batch log, applied by {@code mutations}, then removed.
   *
   * @throws CoordinatorException.Unavailable no batch log node is alive (and the level is not ANY)
   * @throws CoordinatorException.Timeout     write type BATCH_LOG: the batch log did not answer in
   *                                          time (nothing was applied); otherwise what
   *                                          {@code mutations} throws (the batch stays, and is replayed)
   */
  public void write(List<PartitionUpdate> updates, ConsistencyLevel cl, Mutations mutations) {
    TokenRing r = ring.get();
    List<Endpoint> endpoints = endpoints(r, cl == ConsistencyLevel.ANY);
    ConsistencyLevel logLevel = endpoints.size() == 1 ? ConsistencyLevel.ONE : ConsistencyLevel.TWO;
    UUID id = UUID.randomUUID();
    byte[] mutation = MutationPayload.encode(updates);
    byte[] payload = ByteBuffer.allocate(16 + mutation.length).putLong(id.getMostSignificantBits())
        .putLong(id.getLeastSignificantBits()).put(mutation).array();
    Map<Endpoint, CompletableFuture<Message>> sent = new LinkedHashMap<>();
    int received = 0;
    for (Endpoint e : endpoints) {
      if (e.equals(r.self())) {
        store.store(id, mutation);
        received++;
      } else {
        sent.put(e, messaging.sendWithCallback(messaging.peer(e.address()), Message.out(Verb.BATCH_STORE_REQ, payload)));
      }
    }
    RuntimeException failed = null;
    for (Map.Entry<Endpoint, CompletableFuture<Message>> e : sent.entrySet()) {
      try {
        e.getValue().get(SAFETY_WAIT_SECONDS, TimeUnit.SECONDS);
        received++;
      } catch (ExecutionException ex) {
        if (failed == null) {
          failed = ex.getCause() instanceof RequestFailureException rf
              ? new CoordinatorException.Failure(logLevel, received, endpoints.size(),
                  Map.of(e.getKey().address(), rf.reason().code), "BATCH_LOG",
                  "Operation failed - batch log store on " + e.getKey().address().getHostAddress() + ": " + rf.reason())
              : null;
        }
        if (failed == null) {
          failed = new CoordinatorException.Timeout(logLevel, 0, endpoints.size(), "BATCH_LOG");
        }
      } catch (TimeoutException ex) {
        failed = failed != null ? failed : new CoordinatorException.Timeout(logLevel, 0, endpoints.size(), "BATCH_LOG");
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        failed = new CoordinatorException.Timeout(logLevel, 0, endpoints.size(), "BATCH_LOG");
      }
    }
    if (failed != null) {
      if (failed instanceof CoordinatorException.Timeout) {
        failed = new CoordinatorException.Timeout(logLevel, Math.min(received, endpoints.size() - 1),
            endpoints.size(), "BATCH_LOG");
      }
      remove(r, endpoints, id); // where it did arrive: nothing was applied, so nothing to replay
      throw failed;
    }
    try {
      mutations.apply(updates);
    } catch (CoordinatorException.Unavailable e) {
      remove(r, endpoints, id); // decided before anything was sent: nothing to make atomic
      throw e;
    }
    remove(r, endpoints, id);
  }

  /**
   * A batch only this node keeps (Cassandra's local batchlog of StorageProxy.mutateMV: a base
   * replica's view updates for other nodes; the base write is on every base replica already, so
   * one copy here suffices). In the file before this returns (it survives the process being
   * killed) and on disk as the commit log's writes are (the store's sync period: fsynced before
   * this returns with commitlog_sync batch or group, within commitlog_sync_period with periodic);
   * replayed as every batch is until {@link #removeLocal} is called.
   */
  public UUID storeLocal(List<PartitionUpdate> updates) {
    UUID id = UUID.randomUUID();
    store.store(id, MutationPayload.encode(updates));
    return id;
  }

  /** Forgets a batch of {@link #storeLocal} (every update acknowledged). */
  public void removeLocal(UUID id) {
    store.remove(id);
  }

  private void remove(TokenRing r, List<Endpoint> endpoints, UUID id) {
    byte[] payload = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
        .putLong(id.getLeastSignificantBits()).array();
    for (Endpoint e : endpoints) {
      if (e.equals(r.self())) {
        store.remove(id);
      } else {
        // Not waited for: a batch that stays is replayed, which is harmless.
        messaging.sendWithCallback(messaging.peer(e.address()), Message.out(Verb.BATCH_REMOVE_REQ, payload))
            .exceptionally(t -> null);
      }
    }
  }

  /**
   * Cassandra's choice of batch log nodes: alive, in this node's data centre, not this node;
   * two of them, from two racks other than this node's when there are, else any two. This node
   * itself only when it is alone in its data centre, or for ANY when no other is alive.
   */
  static List<Endpoint> endpoints(TokenRing r, boolean any) {
    String dc = r.datacenter(r.self());
    String localRack = r.member(r.self()) == null ? null : r.member(r.self()).rack();
    Map<String, List<Endpoint>> byRack = new LinkedHashMap<>();
    int inDc = 0;
    for (TokenRing.Member m : r.members()) {
      if (!dc.equals(m.datacenter())) {
        continue;
      }
      inDc++;
      if (!m.endpoint().equals(r.self()) && r.isAlive(m.endpoint())) {
        byRack.computeIfAbsent(m.rack(), k -> new ArrayList<>()).add(m.endpoint());
      }
    }
    List<Endpoint> all = new ArrayList<>();
    byRack.values().forEach(all::addAll);
    if (all.isEmpty()) {
      if (inDc <= 1 || any) {
        return List.of(r.self());
      }
      throw new CoordinatorException.Unavailable(ConsistencyLevel.ONE, 1, 0);
    }
    if (all.size() <= 2) {
      return all;
    }
    java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
    int elsewhere = all.size() - byRack.getOrDefault(localRack, List.of()).size();
    if (elsewhere >= 2) {
      byRack.remove(localRack);
    }
    List<List<Endpoint>> racks = new ArrayList<>(byRack.values());
    java.util.Collections.shuffle(racks, random);
    if (racks.size() == 1) {
      List<Endpoint> one = new ArrayList<>(racks.get(0));
      java.util.Collections.shuffle(one, random);
      return List.copyOf(one.subList(0, 2));
    }
    return List.of(racks.get(0).get(random.nextInt(racks.get(0).size())),
        racks.get(1).get(random.nextInt(racks.get(1).size())));
  }

  // ------------------------------------------------------------------ replay

  private void replayQuietly() {
    try {
      replayOlderThan(2 * writeTimeout.toMillis());
    } catch (RuntimeException e) {
      LOG.warn("Batch log: replay failed: {}", e.toString());
    }
  }

  /** Replays the batches older than {@code ageMillis}; returns how many were replayed. */
  public int replayOlderThan(long ageMillis) {
    int done = 0;
    List<BatchlogStore.Entry> due = store.olderThan(ageMillis);
    Set<UUID> dueIds = new HashSet<>();
    due.forEach(e -> dueIds.add(e.id()));
    droppedLogged.retainAll(dueIds); // bounded by the live batches
    for (BatchlogStore.Entry e : due) {
      if (closed) {
        break;
      }
      replayThrottle.acquire(e.mutation().length);
      try {
        List<PartitionUpdate> updates = withoutDroppedTables(e.id(), MutationPayload.decode(e.mutation()));
        if (!updates.isEmpty()) {
          replay.apply(updates);
        }
      } catch (RuntimeException ex) {
        LOG.info("Batch log: replay of {} failed ({}); kept for the next round", e.id(), ex.toString());
        continue;
      }
      store.remove(e.id());
      droppedLogged.remove(e.id());
      done++;
    }
    if (done > 0) {
      LOG.info("Batch log: replayed {} batches", done);
    }
    return done;
  }

  /** {@code updates} without those of tables that no longer exist, which are logged once per batch. */
  private List<PartitionUpdate> withoutDroppedTables(UUID id, List<PartitionUpdate> updates) {
    Tables t = tables;
    List<PartitionUpdate> kept = new ArrayList<>(updates.size());
    Set<String> dropped = null;
    for (PartitionUpdate u : updates) {
      if (t.exists(u.keyspace(), u.table())) {
        kept.add(u);
      } else {
        dropped = dropped == null ? new TreeSet<>() : dropped;
        dropped.add(u.keyspace() + "." + u.table());
      }
    }
    if (dropped != null && droppedLogged.add(id)) {
      LOG.warn("Batch log: batch {}: {} of its {} updates are of tables dropped since ({}) and are dropped; "
          + "replaying the other {}", id, updates.size() - kept.size(), updates.size(), String.join(", ", dropped),
          kept.size());
    }
    return kept;
  }

  private static UUID id(byte[] payload) {
    ByteBuffer b = ByteBuffer.wrap(payload);
    return new UUID(b.getLong(), b.getLong());
  }

  @Override
  public void close() {
    closed = true;
    // Not shutdownNow: an interrupt inside a FileChannel call closes the channel.
    timer.shutdown();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }
}
