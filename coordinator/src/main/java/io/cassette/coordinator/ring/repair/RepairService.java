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
    messaging.registerHandler(Verb.SYNC_REQ, m -> onRepairThread(m,
        () -> RepairMessages.encode(sender.stream(RepairMessages.sync(m.payload())))));
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
      java.util.concurrent.CompletableFuture<Message> f = messaging.sendWithCallback(messaging.peer(from.address()),
          Message.out(Verb.SYNC_REQ, RepairMessages.encode(request)).withTimeoutMillis((int) STREAM_TIMEOUT.toMillis()));
      while (true) {
        try {
          r = RepairMessages.syncResult(f.get(500, TimeUnit.MILLISECONDS).payload());
          break;
        } catch (java.util.concurrent.TimeoutException e) {
          if (!ring().isAlive(from)) {
            f.cancel(false);
            throw new RepairException("stream source died: " + from.address().getHostAddress());
          }
        } catch (java.util.concurrent.ExecutionException e) {
          throw new RepairException("stream of " + keyspace + "." + table + " from " + from.address().getHostAddress()
              + " failed: " + (e.getCause() == null ? e : e.getCause().getMessage()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new RepairException("interrupted");
        }
      }
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
