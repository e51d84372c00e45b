package io.cassette.coordinator.ring.hints;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureException;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.HintSink;
import io.cassette.coordinator.ring.MutationPayload;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.storage.Mutation;
import io.cassette.storage.io.Throttle;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hinted handoff (Cassandra's semantics): the {@link HintSink} the ring coordinator leaves
 * writes in when a replica is down or did not acknowledge in time, and the delivery of those
 * hints when the node is UP again.
 *
 * <ul>
 *   <li>Storing: nothing when {@code hinted_handoff_enabled} is false, when the node has been
 *       down longer than {@code max_hint_window} (counted from when this node first saw it
 *       DOWN), when it is not a member of the ring, or when its hints are full
 *       ({@code max_hints_size_per_host}). Otherwise the mutation is appended to its file.
 *   <li>Delivery: every {@code dispatchInterval}, and at once on {@link #onUp}, each node that
 *       has hints and is UP gets them, oldest file first, one MUTATION_REQ at a time on up to
 *       {@code max_hints_delivery_threads} threads, throttled by {@code hinted_handoff_throttle}
 *       (divided among the other nodes, as Cassandra does). A file is deleted once every hint
 *       in it was acknowledged; on a timeout or failure the delivery stops and resumes after
 *       the last acknowledged hint at the next attempt.
 *   <li>Expiry (Cassandra's {@code Hint.isLive}): a hint older than the smallest
 *       {@code gc_grace_seconds} of its tables is dropped when its turn comes, not sent: its
 *       tombstones' counterparts may have been purged on the node, so applying it could bring
 *       back deleted data. That also bounds how long a failing hint is retried: as in
 *       Cassandra 5.0, a timeout or failure stops the file's delivery, is counted
 *       ({@code cassette_hints_replay_failures_total}) and logged, and the hint is sent again
 *       at the next attempt until it is acknowledged or expires. Unlike Cassandra, which keeps
 *       the grace seconds of the hint's creation in the hint, the schema's current ones are
 *       used (the file layout has no field for it).
 *   <li>A hint whose table the node does not know (dropped since: it answers
 *       INCOMPATIBLE_SCHEMA) is dropped and delivery goes on, as Cassandra's HintVerbHandler
 *       skips a hint for an unknown table.
 *   <li>Hints for a node no longer in the ring are deleted.
 * </ul>
 * Thread-safe.
 */
public final class HintedHandoff implements HintSink, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HintedHandoff.class);
  /**
   * TEST FAULT, a deliberately broken build for the fault lab (module lab), off unless the JVM
   * runs with {@code -Dcassette.test_fault.drop_hints=true}: a hint this node should store is
   * silently dropped (counted as stored, nothing written), so a replica that was down or
   * silent never gets the writes it missed. The lab's hints workload must then find
   * acknowledged writes missing from a replica. Never set in production.
   */
  static final boolean TEST_FAULT_DROP_HINTS = Boolean.getBoolean("cassette.test_fault.drop_hints");

  /** Longest wait for a hint's acknowledgement beyond the verb's own expiry (it always expires first). */
  private static final long SAFETY_WAIT_SECONDS = 60;

  private final HintsConfig config;
  private final HintStore store;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final HintsMetrics metrics;
  private final LongSupplier clock;
  private final GcGrace gcGrace;
  /** When this node first saw each node DOWN (ms); absent while UP. */
  private final Map<UUID, Long> downSince = new ConcurrentHashMap<>();
  /** Nodes whose hints are being delivered now. */
  private final Set<UUID> delivering = ConcurrentHashMap.newKeySet();
  /** Per file being delivered: the offset after the last acknowledged hint. */
  private final Map<java.nio.file.Path, Long> deliveredUpTo = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer;
  private final ExecutorService delivery;
  private volatile boolean closed;

  public HintedHandoff(HintsConfig config, MessagingService messaging, Supplier<TokenRing> ring, HintsMetrics metrics) {
    this(config, messaging, ring, metrics, GcGrace.UNKNOWN);
  }

  /** @param gcGrace the tables' gc_grace_seconds now: hints older than that are dropped on delivery */
  public HintedHandoff(HintsConfig config, MessagingService messaging, Supplier<TokenRing> ring, HintsMetrics metrics,
                       GcGrace gcGrace) {
    this(config, messaging, ring, metrics, System::currentTimeMillis, gcGrace);
  }

  HintedHandoff(HintsConfig config, MessagingService messaging, Supplier<TokenRing> ring, HintsMetrics metrics,
                LongSupplier clock) {
    this(config, messaging, ring, metrics, clock, GcGrace.UNKNOWN);
  }

  HintedHandoff(HintsConfig config, MessagingService messaging, Supplier<TokenRing> ring, HintsMetrics metrics,
                LongSupplier clock, GcGrace gcGrace) {
    this.gcGrace = gcGrace;
    this.config = config;
    this.messaging = messaging;
    this.ring = ring;
    this.metrics = metrics;
    this.clock = clock;
    this.store = new HintStore(config.directory(), config.maxHintsFileSize(), config.maxHintsSizePerHost(), clock);
    ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, daemon("hints-timer"));
    t.setRemoveOnCancelPolicy(true);
    this.timer = t;
    ThreadPoolExecutor d = new ThreadPoolExecutor(config.maxDeliveryThreads(), config.maxDeliveryThreads(),
        30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), daemon("hints-delivery"));
    d.allowCoreThreadTimeOut(true); // idle boards keep no delivery threads
    this.delivery = d;
  }

  /** Starts the periodic fsync and dispatch. */
  public HintedHandoff start() {
    long flush = Math.max(1, config.flushPeriod().toMillis());
    timer.scheduleWithFixedDelay(this::syncQuietly, flush, flush, TimeUnit.MILLISECONDS);
    long every = Math.max(1, config.dispatchInterval().toMillis());
    timer.scheduleWithFixedDelay(this::dispatchQuietly, every, every, TimeUnit.MILLISECONDS);
    return this;
  }

  public HintsConfig config() {
    return config;
  }

  public HintStore store() {
    return store;
  }

  public HintsMetrics metrics() {
    return metrics;
  }

  // ------------------------------------------------------------------ storing

  @Override
  public boolean store(Endpoint target, Mutation mutation) {
    if (!config.enabled()) {
      metrics.dropped("disabled", 1);
      return false;
    }
    TokenRing r = ring.get();
    if (target.equals(r.self()) || r.member(target) == null) {
      metrics.dropped("removed_node", 1);
      return false;
    }
    long down = downtimeMillis(target.hostId(), r.isAlive(target));
    if (down > config.maxHintWindow().toMillis()) {
      metrics.dropped("window", 1);
      return false;
    }
    if (TEST_FAULT_DROP_HINTS) {
      metrics.stored.inc(); // the broken build claims it kept the hint
      return true;
    }
    if (!store.append(target.hostId(), MutationPayload.encode(mutation.updates()))) {
      metrics.dropped("full", 1);
      return false;
    }
    metrics.stored.inc();
    return true;
  }

  /** How long {@code hostId} has been DOWN as far as this node saw; 0 while UP. */
  private long downtimeMillis(UUID hostId, boolean alive) {
    if (alive) {
      downSince.remove(hostId);
      return 0;
    }
    long now = clock.getAsLong();
    return now - downSince.computeIfAbsent(hostId, k -> now);
  }

  // ------------------------------------------------------------------ delivery

  /** The failure detector saw {@code hostId} UP again: deliver its hints now. */
  public void onUp(UUID hostId) {
    downSince.remove(hostId);
    if (!closed) {
      timer.execute(this::dispatchQuietly);
    }
  }

  /** The failure detector saw {@code hostId} DOWN: its hint window starts now. */
  public void onDown(UUID hostId) {
    downSince.putIfAbsent(hostId, clock.getAsLong());
  }

  private void dispatchQuietly() {
    try {
      dispatch();
    } catch (RuntimeException e) {
      LOG.warn("Hints: dispatch failed: {}", e.toString());
    }
  }

  /** One round: notes who is DOWN, drops hints of removed nodes, starts deliveries to nodes UP. */
  void dispatch() {
    if (closed) {
      return;
    }
    TokenRing r = ring.get();
    Map<UUID, Endpoint> members = new HashMap<>();
    for (TokenRing.Member m : r.members()) {
      members.put(m.endpoint().hostId(), m.endpoint());
      if (!m.endpoint().equals(r.self())) {
        downtimeMillis(m.endpoint().hostId(), r.isAlive(m.endpoint()));
      }
    }
    for (UUID host : store.hosts()) {
      Endpoint e = members.get(host);
      if (e == null) {
        if (members.size() > 1) { // a ring we know: the node was removed from it
          metrics.dropped("removed_node", 1); // counted first: whoever sees the hints gone sees it counted
          long bytes = store.truncate(host);
          LOG.info("Hints: dropped {} bytes of hints for {}, no longer in the ring", bytes, host);
        }
        continue;
      }
      if (r.isAlive(e) && !e.equals(r.self()) && delivering.add(host)) {
        int others = Math.max(1, members.size() - 1);
        delivery.execute(() -> {
          try {
            deliver(e, config.throttleBytesPerSecond() / others);
          } finally {
            delivering.remove(host);
          }
        });
      }
    }
  }

  /** Delivers {@code target}'s hints; returns true when all were acknowledged. */
  private boolean deliver(Endpoint target, long bytesPerSecond) {
    Throttle throttle = new Throttle(bytesPerSecond);
    List<HintsFile> files = store.closeForDelivery(target.hostId());
    long sent = 0;
    long expired = 0;
    long unknownTable = 0;
    for (HintsFile f : files) {
      long from = deliveredUpTo.getOrDefault(f.path(), 0L);
      try (RecordReader in = new RecordReader(f.path(), RecordFile.HINTS_MAGIC, from)) {
        byte[] record;
        while ((record = in.next()) != null) {
          if (closed || !ring.get().isAlive(target)) {
            return false;
          }
          long created = java.nio.ByteBuffer.wrap(record, 0, 8).getLong();
          byte[] mutation = Arrays.copyOfRange(record, 8, record.length);
          if (expired(created, mutation)) {
            expired++;
            metrics.dropped("expired", 1);
            deliveredUpTo.put(f.path(), in.position());
            continue;
          }
          throttle.acquire(record.length);
          Outcome outcome = send(target, mutation);
          if (outcome == Outcome.UNKNOWN_TABLE) {
            unknownTable++;
            metrics.dropped("unknown_table", 1);
          } else if (outcome != Outcome.ACKNOWLEDGED) {
            metrics.replayFailures.inc();
            LOG.info("Hints: delivery to {} stopped after {} hints ({}); the rest stay for the next attempt, until "
                + "they are acknowledged or older than their tables' gc_grace_seconds", target, sent, outcome);
            return false;
          } else {
            sent++;
            metrics.replayed.inc();
          }
          deliveredUpTo.put(f.path(), in.position());
        }
      } catch (IOException e) {
        if (!java.nio.file.Files.exists(f.path())) {
          continue; // truncated meanwhile
        }
        LOG.warn("Hints: cannot read {}: {}", f.path(), e.toString());
        return false;
      }
      store.delete(f);
      deliveredUpTo.remove(f.path());
    }
    if (sent > 0 || expired > 0 || unknownTable > 0) {
      LOG.info("Hints: delivered {} hints to {}; dropped {} older than gc_grace_seconds and {} for tables it does "
          + "not know", sent, target, expired, unknownTable);
    }
    return true;
  }

  /**
   * Whether a hint created at {@code createdMillis} is past the smallest gc_grace_seconds of its
   * tables (those this node knows; none known: it does not expire here).
   */
  boolean expired(long createdMillis, byte[] mutation) {
    long grace = Long.MAX_VALUE;
    try {
      for (io.cassette.storage.PartitionUpdate u : MutationPayload.decode(mutation)) {
        int seconds = gcGrace.seconds(u.keyspace(), u.table());
        if (seconds >= 0) {
          grace = Math.min(grace, seconds);
        }
      }
    } catch (RuntimeException e) {
      return false; // malformed: the node refuses it, which is counted and logged
    }
    return grace != Long.MAX_VALUE && createdMillis + TimeUnit.SECONDS.toMillis(grace) <= clock.getAsLong();
  }

  /** What became of one hint sent. */
  private enum Outcome { ACKNOWLEDGED, UNKNOWN_TABLE, FAILED, TIMED_OUT }

  private Outcome send(Endpoint target, byte[] mutation) {
    try {
      messaging.sendWithCallback(messaging.peer(target.address()), Message.out(Verb.MUTATION_REQ, mutation))
          .get(SAFETY_WAIT_SECONDS, TimeUnit.SECONDS);
      return Outcome.ACKNOWLEDGED;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      LOG.debug("Hint to {} not acknowledged: {}", target, cause.toString());
      if (cause instanceof RequestFailureException f
          && f.reason() == io.cassette.cluster.net.RequestFailureReason.INCOMPATIBLE_SCHEMA) {
        return Outcome.UNKNOWN_TABLE;
      }
      return cause instanceof io.cassette.cluster.net.RequestTimeoutException ? Outcome.TIMED_OUT : Outcome.FAILED;
    } catch (TimeoutException e) {
      LOG.debug("Hint to {} not acknowledged within {} s", target, SAFETY_WAIT_SECONDS);
      return Outcome.TIMED_OUT;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.FAILED;
    } catch (RuntimeException e) {
      LOG.debug("Hint to {} not sent: {}", target, e.toString());
      return Outcome.FAILED;
    }
  }

  // ------------------------------------------------------------------ decommission

  /** Longest a hand-over waits for a delivery already running to the same node. */
  private static final long HAND_OVER_WAIT_MILLIS = 60_000;

  /**
   * Serves HINT_REQ: a hint handed over by a node leaving the ring (target host id, creation
   * time, mutation), stored here as this node's own hint for that target, with its age kept.
   */
  public HintedHandoff registerHandlers() {
    messaging.registerHandler(Verb.HINT_REQ, m -> {
      java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(m.payload());
      UUID target = new UUID(in.getLong(), in.getLong());
      long created = in.getLong();
      byte[] mutation = new byte[in.remaining()];
      in.get(mutation);
      if (store.append(target, mutation, created)) {
        metrics.stored.inc();
        messaging.respond(m, new byte[0]);
      } else {
        messaging.respondFailure(m, io.cassette.cluster.net.RequestFailureReason.UNKNOWN,
            "hints for " + target + " are full (max_hints_size_per_host)");
      }
    });
    return this;
  }

  /**
   * Decommission (Cassandra's {@code StorageService.streamHints}): hands every hint this node
   * holds to the ring before it leaves. A target that is UP gets its hints now; the hints of a
   * target that is DOWN go to a live node that stays ({@code staying}), which keeps them as its
   * own (HINT_REQ) and delivers them when the target is back. Blocks until every file was
   * handed over and deleted here.
   *
   * @return how many hints were handed over (delivered or passed on)
   * @throws IllegalStateException when a hint could not be handed over (nothing is lost: the
   *     rest stays here, and the decommission can be run again)
   */
  public long handOver(java.util.function.Predicate<Endpoint> staying, java.util.function.Consumer<String> progress) {
    store.sync();
    long total = 0;
    for (UUID host : store.hosts()) {
      if (store.bytes(host) == 0) {
        continue;
      }
      long deadline = System.currentTimeMillis() + HAND_OVER_WAIT_MILLIS;
      while (!delivering.add(host)) { // the periodic dispatch is delivering to it: let it finish
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("hints for " + host + " are being delivered for over "
              + HAND_OVER_WAIT_MILLIS / 1000 + " s");
        }
        sleep(50);
      }
      try {
        total += handOver(host, staying, progress);
      } finally {
        delivering.remove(host);
      }
    }
    return total;
  }

  private long handOver(UUID host, java.util.function.Predicate<Endpoint> staying,
                        java.util.function.Consumer<String> progress) {
    TokenRing r = ring.get();
    Endpoint target = null;
    Endpoint receiver = null;
    for (TokenRing.Member m : r.members()) {
      Endpoint e = m.endpoint();
      if (e.hostId().equals(host)) {
        target = e;
      } else if (receiver == null && !e.equals(r.self()) && r.isAlive(e) && staying.test(e)) {
        receiver = e;
      }
    }
    if (target != null && r.isAlive(target) && !target.equals(r.self())) {
      long before = metrics.replayed();
      if (!deliver(target, config.throttleBytesPerSecond())) {
        throw new IllegalStateException("hints to " + target.address().getHostAddress() + " were not all delivered");
      }
      long delivered = metrics.replayed() - before;
      progress.accept("Hints: delivered " + delivered + " hints to " + target.address().getHostAddress() + " (UP)");
      return delivered;
    }
    if (receiver == null) {
      throw new IllegalStateException("no live node that stays in the ring to take the hints for " + host);
    }
    long sent = 0;
    for (HintsFile f : store.closeForDelivery(host)) {
      long from = deliveredUpTo.getOrDefault(f.path(), 0L);
      try (RecordReader in = new RecordReader(f.path(), RecordFile.HINTS_MAGIC, from)) {
        byte[] record;
        while ((record = in.next()) != null) {
          byte[] payload = java.nio.ByteBuffer.allocate(16 + record.length).putLong(host.getMostSignificantBits())
              .putLong(host.getLeastSignificantBits()).put(record).array(); // record: created:i64 mutation
          try {
            messaging.sendWithCallback(messaging.peer(receiver.address()), Message.out(Verb.HINT_REQ, payload))
                .get(SAFETY_WAIT_SECONDS, TimeUnit.SECONDS);
          } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("handing hints for " + host + " to " + receiver.address().getHostAddress()
                + " failed after " + sent + ": " + (e.getCause() != null ? e.getCause() : e));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
          }
          sent++;
          deliveredUpTo.put(f.path(), in.position());
        }
      } catch (IOException e) {
        if (java.nio.file.Files.exists(f.path())) {
          throw new IllegalStateException("cannot read " + f.path() + ": " + e);
        }
        continue;
      }
      store.delete(f);
      deliveredUpTo.remove(f.path());
    }
    progress.accept("Hints: handed " + sent + " hints for " + host + " (DOWN) to "
        + receiver.address().getHostAddress());
    return sent;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    }
  }

  // ------------------------------------------------------------------ nodetool

  /** nodetool listpendinghints. */
  public List<PendingHints> pending() {
    return store.pending();
  }

  /** nodetool truncatehints [endpoint]: every node's hints when {@code hostId} is null. */
  public void truncate(UUID hostId) {
    for (UUID h : hostId == null ? store.hosts() : Set.of(hostId)) {
      if (store.bytes(h) > 0) {
        metrics.dropped("truncated", 1);
      }
      store.truncate(h);
    }
  }

  private void syncQuietly() {
    try {
      store.sync();
    } catch (RuntimeException e) {
      LOG.warn("Hints: sync failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    closed = true;
    // Not shutdownNow for the timer: an interrupt inside a FileChannel call closes the channel.
    timer.shutdown();
    // Not shutdownNow for deliveries either: a delivery fsyncs the file it takes over
    // (closeForDelivery), and an interrupt there closed that file's channel under the store,
    // whose close then failed. A delivery sees `closed` after the hint in flight.
    delivery.shutdown();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
      if (!delivery.awaitTermination(SAFETY_WAIT_SECONDS + 1, TimeUnit.SECONDS)) {
        delivery.shutdownNow();
        delivery.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread t = new Thread(runnable, name);
      t.setDaemon(true);
      return t;
    };
  }
}
