package io.cassette.coordinator.ring.repair;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureReason;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Anti-entropy repair on one node: serves peers' repair requests and runs this node's
 * {@code nodetool repair} commands ({@link RepairCommand}).
 *
 * <ul>
 *   <li>VALIDATION_REQ: build this replica's {@link MerkleTree} of a range of a table and answer it.
 *   <li>SYNC_REQ: stream this node's rows of some ranges of a table to a named peer
 *       ({@link StreamSender}), answer with what was sent.
 *   <li>REPAIR_STREAM_REQ: verify a {@link StreamBatch}'s checksum, apply it as one write (LWW
 *       reconciles it), acknowledge; a damaged batch is refused whole (FAILURE_RSP) and resent.
 *       A ring change's stream that this node pulls goes into new SSTables instead
 *       ({@link StreamSinks}), live when the whole stream has arrived.
 * </ul>
 * Validations and syncs are long scans: they run one at a time on this service's own thread,
 * never on the messaging handler threads (which must stay free for reads, writes and the
 * stream batches themselves).
 */
public final class RepairService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RepairService.class);
  private static final Request ONE = Request.of(ConsistencyLevel.ONE);
  private static final byte[] ACK = {(byte) RepairMessages.VERSION};
  /** Validation and sync requests waiting for this node's repair thread. */
  static final int MAX_QUEUED = 1024;

  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final Validator validator;
  private final StreamSender sender;
  private final ExecutorService repairThread;
  private final AtomicInteger commands = new AtomicInteger();
  /** stream_throughput_outbound: every outgoing stream of this node shares it. */
  private final StreamThrottle throttle = new StreamThrottle(DEFAULT_STREAM_THROUGHPUT);
  private final StreamProgress progress = new StreamProgress();
  private final StreamSinks sinks = new StreamSinks();
  /** Cassandra's default stream_throughput_outbound: 24 MiB/s. */
  public static final long DEFAULT_STREAM_THROUGHPUT = 24L << 20;
  /** How long a ring change's stream of ranges may take before it is given up (and retried by its caller). */
  static final java.time.Duration STREAM_TIMEOUT = java.time.Duration.ofMinutes(30);

  public RepairService(LocalCoordinator local, MessagingService messaging, Supplier<TokenRing> ring) {
    this.local = local;
    this.messaging = messaging;
    this.ring = ring;
    this.validator = new Validator(local);
    this.sender = new StreamSender(local, messaging, throttle, progress);
    this.repairThread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(MAX_QUEUED), r -> {
          Thread t = new Thread(r, "cassette-repair");
          t.setDaemon(true);
          return t;
        });
  }

  /** Serves peers' VALIDATION_REQ, SYNC_REQ and REPAIR_STREAM_REQ. */
  public RepairService registerHandlers() {
    messaging.registerHandler(Verb.VALIDATION_REQ, m -> onRepairThread(m,
        () -> validator.validate(RepairMessages.validation(m.payload())).encode()));
    messaging.registerHandler(Verb.SYNC_REQ, this::sync);
    messaging.registerHandler(Verb.REPAIR_STREAM_REQ, this::receive);
    return this;
  }

  /**
   * Runs {@code nodetool repair} on this node: each progress line (Cassandra's texts) goes to
   * {@code progress} as it happens.
   *
   * @throws RepairException when a replica is down, a table unknown, or a validation or sync
   *     fails (after the "failed with error" line has been reported)
   */
  public List<RepairSummary> repair(RepairOptions options, Consumer<String> progress) {
    return new RepairCommand(this, options, progress).run();
  }

  /**
   * How long a streamed batch waits for its acknowledgement before it is sent again (default
   * {@link StreamSender#BATCH_TIMEOUT_MILLIS}); tests shorten it.
   */
  public RepairService streamBatchTimeout(java.time.Duration timeout) {
    sender.batchTimeout(timeout.toMillis());
    return this;
  }

  /** The outbound streaming cap (stream_throughput_outbound), changeable while streams run. */
  public StreamThrottle throttle() {
    return throttle;
  }

  /** Streams in progress and received, for nodetool netstats. */
  public StreamProgress progress() {
    return progress;
  }

  /** What one stream of ranges sent. */
  public record StreamTotals(long partitions, long rows, long bytes, long batches, long retries) {}

  /**
   * Streams what {@code from} holds of {@code ranges} of a table to {@code to} (a ring change:
   * bootstrap, decommission, removenode, replace): here directly when {@code from} is this node,
   * else by SYNC_REQ to {@code from}. Every batch carries a CRC32C that the receiver checks
   * before it applies anything; a damaged or lost batch is sent again; applying twice is
   * harmless, so a stream that failed half-way is simply run again.
   *
   * @throws RepairException when {@code from} is DOWN or the stream failed
   */
  public StreamTotals streamRanges(String keyspace, String table, io.cassette.coordinator.ring.Endpoint from,
                                   io.cassette.coordinator.ring.Endpoint to, List<io.cassette.coordinator.ring.Range> ranges,
                                   String purpose) {
    RepairMessages.SyncRequest request = new RepairMessages.SyncRequest(keyspace, table, to.address(), ranges,
        System.currentTimeMillis() / 1000);
    // Pulled here from a peer: received into new SSTables, made live when the stream ends.
    io.cassette.storage.SSTableSink sink = null;
    if (to.equals(ring().self()) && !from.equals(to)) {
      try {
        sink = local.streamSink(keyspace, table);
        sinks.open(from.address(), keyspace, table, sink);
      } catch (UnsupportedOperationException e) {
        sink = null; // a table without files: its batches are applied as writes
      }
    }
    boolean streamed = false;
    try {
      StreamTotals totals = pull(request, keyspace, table, from, purpose);
      streamed = true;
      return totals;
    } finally {
      if (sink != null) {
        io.cassette.storage.SSTableSink s = sinks.close(from.address(), keyspace, table);
        if (streamed) {
          s.commit();
        } else {
          s.abort();
        }
      }
    }
  }

  private StreamTotals pull(RepairMessages.SyncRequest request, String keyspace, String table,
                            io.cassette.coordinator.ring.Endpoint from, String purpose) {
    RepairMessages.SyncResult r;
    if (from.equals(ring().self())) {
      r = sender.stream(request, purpose);
    } else {
      r = syncRemote(from, request, "stream source died: " + from.address().getHostAddress(),
          "stream of " + keyspace + "." + table + " from " + from.address().getHostAddress() + " failed");
    }
    return new StreamTotals(r.partitions(), r.rows(), r.bytes(), r.batches(), r.retries());
  }

  int nextCommand() {
    return commands.incrementAndGet();
  }

  LocalCoordinator local() {
    return local;
  }

  MessagingService messaging() {
    return messaging;
  }

  TokenRing ring() {
    return ring.get();
  }

  Validator validator() {
    return validator;
  }

  StreamSender sender() {
    return sender;
  }

  private void onRepairThread(Message m, Supplier<byte[]> work) {
    try {
      repairThread.execute(() -> {
        byte[] answer;
        try {
          answer = work.get();
        } catch (CoordinatorException.UnknownTable e) {
          messaging.respondFailure(m, RequestFailureReason.INCOMPATIBLE_SCHEMA, e.getMessage());
          return;
        } catch (RuntimeException e) {
          LOG.warn("{} from {} failed: {}", m.verb(), m.from(), e.toString());
          messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.getMessage() == null ? e.toString() : e.getMessage());
          return;
        }
        messaging.respond(m, answer);
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      messaging.respondFailure(m, RequestFailureReason.OVERLOADED, "too many repair requests queued");
    }
  }

  // ------------------------------------------------------------------ SYNC_REQ, resent until answered

  /**
   * How long a SYNC_REQ waits for its answer before it is sent again (then twice as long, up to
   * {@link #SYNC_RESEND_MAX}). A stream can run for minutes, so its answer cannot have a short
   * expiry; a lost request or answer (a lossy network) would otherwise hold a join for
   * {@link #STREAM_TIMEOUT}. The source runs a request it already has once and answers every copy.
   */
  static final java.time.Duration SYNC_RESEND = java.time.Duration.ofSeconds(5);
  static final java.time.Duration SYNC_RESEND_MAX = java.time.Duration.ofSeconds(60);
  /** How long a source remembers the answer of a finished sync, for copies of its request still on the way. */
  static final java.time.Duration SYNC_KEEP = java.time.Duration.ofMinutes(10);

  /** A sync as its source knows it: the requesting node and the request's bytes (its time makes it unique). */
  private record SyncKey(java.net.InetSocketAddress from, java.nio.ByteBuffer request) {}

  private final java.util.Map<SyncKey, java.util.concurrent.CompletableFuture<byte[]>> syncs =
      new java.util.concurrent.ConcurrentHashMap<>();
  private volatile java.time.Duration syncResend = SYNC_RESEND;

  /** Tests: how long a SYNC_REQ waits before it is sent again (default {@link #SYNC_RESEND}). */
  public RepairService syncResend(java.time.Duration every) {
    this.syncResend = every;
    return this;
  }

  /** SYNC_REQ: runs the stream once per request, however many copies arrive, and answers each copy. */
  private void sync(Message m) {
    SyncKey key = new SyncKey(m.from(), java.nio.ByteBuffer.wrap(m.payload()));
    java.util.concurrent.CompletableFuture<byte[]> mine = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<byte[]> running = syncs.putIfAbsent(key, mine);
    if (running == null) {
      running = mine;
      mine.whenComplete((answer, e) -> {
        if (e != null) {
          syncs.remove(key, mine); // a copy sent later runs it again
        } else {
          java.util.concurrent.CompletableFuture.delayedExecutor(SYNC_KEEP.toMillis(), TimeUnit.MILLISECONDS)
              .execute(() -> syncs.remove(key, mine));
        }
      });
      try {
        repairThread.execute(() -> {
          try {
            mine.complete(RepairMessages.encode(sender.stream(RepairMessages.sync(m.payload()))));
          } catch (RuntimeException e) {
            mine.completeExceptionally(e);
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        mine.completeExceptionally(e);
      }
    }
    running.whenComplete((answer, e) -> {
      if (e == null) {
        messaging.respond(m, answer);
      } else if (e instanceof java.util.concurrent.RejectedExecutionException) {
        messaging.respondFailure(m, RequestFailureReason.OVERLOADED, "too many repair requests queued");
      } else if (e instanceof CoordinatorException.UnknownTable) {
        messaging.respondFailure(m, RequestFailureReason.INCOMPATIBLE_SCHEMA, e.getMessage());
      } else {
        LOG.warn("{} from {} failed: {}", m.verb(), m.from(), e.toString());
        messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.getMessage() == null ? e.toString() : e.getMessage());
      }
    });
  }

  /**
   * Asks {@code from} to run {@code request} (SYNC_REQ) and waits for its answer, sending the
   * request again while none comes ({@link #SYNC_RESEND}); fails when {@code from} is seen DOWN
   * ({@code died} names it) or answers with a failure ({@code failed} prefixes the reason).
   */
  RepairMessages.SyncResult syncRemote(io.cassette.coordinator.ring.Endpoint from, RepairMessages.SyncRequest request,
                                       String died, String failed) {
    byte[] payload = RepairMessages.encode(request);
    List<java.util.concurrent.CompletableFuture<Message>> sent = new java.util.ArrayList<>();
    long resendNanos = syncResend.toNanos();
    long nextSend = System.nanoTime();
    while (true) {
      if (System.nanoTime() - nextSend >= 0) {
        if (!sent.isEmpty()) {
          LOG.info("SYNC_REQ for {}.{}: no answer from {} after {} ms; sending it again", request.keyspace(),
              request.table(), from.address().getHostAddress(), TimeUnit.NANOSECONDS.toMillis(resendNanos));
          resendNanos = Math.min(resendNanos * 2, SYNC_RESEND_MAX.toNanos());
        }
        sent.add(messaging.sendWithCallback(messaging.peer(from.address()),
            Message.out(Verb.SYNC_REQ, payload).withTimeoutMillis((int) STREAM_TIMEOUT.toMillis())));
        nextSend = System.nanoTime() + resendNanos;
      }
      try {
        Object answer = java.util.concurrent.CompletableFuture.anyOf(sent.toArray(new java.util.concurrent.CompletableFuture[0]))
            .get(500, TimeUnit.MILLISECONDS);
        return RepairMessages.syncResult(((Message) answer).payload());
      } catch (java.util.concurrent.TimeoutException e) {
        if (!ring().isAlive(from)) {
          sent.forEach(f -> f.cancel(false));
          throw new RepairException(died);
        }
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        if (cause instanceof io.cassette.cluster.net.RequestTimeoutException) {
          sent.removeIf(java.util.concurrent.CompletableFuture::isCompletedExceptionally); // expired: the next copy
          if (sent.isEmpty()) {
            nextSend = System.nanoTime();
          }
          continue;
        }
        sent.forEach(f -> f.cancel(false));
        throw new RepairException(failed + ": " + cause.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RepairException("interrupted");
      }
    }
  }

  /** A streamed batch: verified whole, then applied as one write, then acknowledged. */
  private void receive(Message m) {
    List<PartitionUpdate> partitions;
    try {
      partitions = StreamBatch.decode(m.payload());
    } catch (RuntimeException e) { // damaged: nothing applied, the sender sends it again
      progress.received(m.from().getAddress(), m.payload().length, false);
      LOG.warn("repair stream batch from {} refused: {}", m.from(), e.getMessage());
      messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.getMessage());
      return;
    }
    try {
      if (sinks.offer(m.from().getAddress(), StreamBatch.sequence(m.payload()), partitions)) {
        progress.received(m.from().getAddress(), m.payload().length, true);
        messaging.respond(m, ACK);
        return;
      }
      if (!partitions.isEmpty()) {
        local.write(new Mutation(partitions), ONE);
      }
    } catch (CoordinatorException.UnknownTable e) {
      messaging.respondFailure(m, RequestFailureReason.INCOMPATIBLE_SCHEMA, e.getMessage());
      return;
    } catch (RuntimeException e) {
      LOG.warn("repair stream batch from {} not applied: {}", m.from(), e.toString());
      messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.toString());
      return;
    }
    progress.received(m.from().getAddress(), m.payload().length, true);
    messaging.respond(m, ACK);
  }

  @Override
  public void close() {
    repairThread.shutdownNow();
  }
}
