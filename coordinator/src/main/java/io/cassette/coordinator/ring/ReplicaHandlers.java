package io.cassette.coordinator.ring;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureReason;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.Table;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica side of the ring: executes peers' forwarded requests on this node's
 * {@link LocalCoordinator} (at ONE: the coordinator already checked the level against the
 * ring). A message from a node at a newer metadata epoch waits until this node has caught up.
 * Failures are answered with FAILURE_RSP: an unknown table as INCOMPATIBLE_SCHEMA (the schema
 * has not reached this node), anything else as UNKNOWN with the text for the peer's log.
 */
final class ReplicaHandlers {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaHandlers.class);
  /** A range page stops growing past this many bytes (the message limit is 2 MiB). */
  static final int MAX_PAGE_BYTES = 1 << 20;
  /** How long a conditional commit waits for the partition lock before answering "not applied". */
  static final Duration COMMIT_LOCK_WAIT = Duration.ofMillis(500);
  private static final Request ONE = new Request(ConsistencyLevel.ONE, ConsistencyLevel.SERIAL,
      Request.DEFAULT_TIMEOUT, null);
  private static final byte[] ACK = {(byte) RingCodec.VERSION};

  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final LongFunction<CompletableFuture<?>> awaitEpoch;
  private final Supplier<io.cassette.coordinator.FenceGuard> guard;

  ReplicaHandlers(LocalCoordinator local, MessagingService messaging, Supplier<TokenRing> ring,
                  LongFunction<CompletableFuture<?>> awaitEpoch, Supplier<io.cassette.coordinator.FenceGuard> guard) {
    this.guard = guard;
    this.local = local;
    this.messaging = messaging;
    this.ring = ring;
    this.awaitEpoch = awaitEpoch;
  }

  void register() {
    messaging.registerHandler(Verb.READ_REQ, m -> serve(m, this::read));
    messaging.registerHandler(Verb.RANGE_REQ, m -> serve(m, this::range));
    messaging.registerHandler(Verb.MUTATION_REQ, m -> serve(m, this::mutation));
    // Read repair writes the reconciled data back: a mutation like any other, on its own verb
    // so the two can be told apart in metrics and message filters.
    messaging.registerHandler(Verb.READ_REPAIR_REQ, m -> serve(m, this::mutation));
    messaging.registerHandler(Verb.TRUNCATE_REQ, m -> serve(m, this::truncate));
    messaging.registerHandler(Verb.PAXOS_PROPOSE_REQ, m -> serve(m, this::commit));
    messaging.registerHandler(Verb.COUNTER_MUTATION_REQ, m -> serve(m, this::commit));
  }

  private void serve(Message m, Function<Message, byte[]> body) {
    TokenRing r = ring.get();
    if (awaitEpoch != null && r != null && m.epoch() > r.epoch()) {
      CompletableFuture<?> caughtUp;
      try {
        caughtUp = awaitEpoch.apply(m.epoch());
      } catch (RuntimeException e) {
        caughtUp = CompletableFuture.failedFuture(e);
      }
      caughtUp.whenCompleteAsync((ok, e) -> {
        if (e != null) {
          messaging.respondFailure(m, RequestFailureReason.COORDINATOR_BEHIND,
              "could not catch up to epoch " + m.epoch() + ": " + e);
        } else {
          execute(m, body);
        }
      }, messaging.handlerExecutor());
      return;
    }
    execute(m, body);
  }

  private void execute(Message m, Function<Message, byte[]> body) {
    byte[] answer;
    try {
      answer = body.apply(m);
    } catch (CoordinatorException.UnknownTable e) {
      messaging.respondFailure(m, RequestFailureReason.INCOMPATIBLE_SCHEMA, e.getMessage());
      return;
    } catch (io.cassette.coordinator.FenceGuard.Refused e) {
      messaging.respondFailure(m, RequestFailureReason.FENCED, e.getMessage());
      return;
    } catch (RuntimeException e) {
      LOG.warn("{} from {} failed: {}", m.verb(), m.from(), e.toString());
      messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.toString());
      return;
    }
    messaging.respond(m, answer);
  }

  private byte[] read(Message m) {
    RingCodec.ReadRequest r = RingCodec.read(m.payload());
    if (r.unfiltered()) {
      PartitionUpdate u = local.readUnfiltered(r.keyspace(), r.table(), r.key(), r.query(), ONE);
      return r.digest() ? RingCodec.digestAnswer(RingCodec.digest(u)) : RingCodec.unfiltered(u);
    }
    PartitionView v = local.read(r.keyspace(), r.table(), r.key(), r.query(), ONE);
    return r.digest() ? RingCodec.digestAnswer(RingCodec.digest(v)) : RingCodec.view(v);
  }

  private byte[] range(Message m) {
    return page(local, RingCodec.range(m.payload()));
  }

  /** One page of a range of this node's data (a peer's RANGE_REQ, or this node's part of a merged scan). */
  static byte[] page(LocalCoordinator local, RingCodec.RangeRequest r) {
    RingCodec.PageWriter page = new RingCodec.PageWriter();
    int max = Math.max(1, r.maxPartitions());
    int maxBytes = Math.min(Math.max(1, r.maxBytes()), MAX_PAGE_BYTES);
    if (r.unfiltered()) {
      try (Table.CloseableIterator<PartitionUpdate> it = r.index() != null
               ? local.indexScanUnfiltered(r.keyspace(), r.table(), r.range(), r.query(), r.index(), ONE)
               : local.scanUnfiltered(r.keyspace(), r.table(), r.range(), r.query(), ONE)) {
        while (it.hasNext()) {
          if (page.count() >= max || page.bytes() >= maxBytes) {
            return page.finish(false);
          }
          page.add(it.next());
        }
      }
      return page.finish(true);
    }
    try (Table.CloseableIterator<PartitionView> it = r.index() != null
             ? local.indexScan(r.keyspace(), r.table(), r.range(), r.query(), r.index(), ONE)
             : local.scan(r.keyspace(), r.table(), r.range(), r.query(), ONE)) {
      while (it.hasNext()) {
        if (page.count() >= max || page.bytes() >= maxBytes) {
          return page.finish(false);
        }
        page.add(it.next());
      }
    }
    return page.finish(true);
  }

  private byte[] mutation(Message m) {
    RingCodec.MutationRequest r = RingCodec.mutationRequest(m.payload());
    guard.get().apply(r.fence(), () -> local.write(new Mutation(r.updates()), ONE));
    return ACK;
  }

  private byte[] truncate(Message m) {
    RingCodec.TableRef t = RingCodec.truncate(m.payload());
    local.truncate(t.keyspace(), t.table(), ONE);
    return ACK;
  }

  /**
   * A conditional commit of a compare-and-set or read-modify-write coordinated elsewhere:
   * under the partition's lock (the one local compare-and-sets take), re-run the
   * coordinator's reads; apply its writes only if every answer is what it saw.
   */
  private byte[] commit(Message m) {
    RingCodec.CommitRequest c = RingCodec.commit(m.payload());
    Request lockWait = new Request(ConsistencyLevel.ONE, ConsistencyLevel.SERIAL, COMMIT_LOCK_WAIT, null);
    try {
      boolean applied = local.readModifyWrite(c.keyspace(), c.table(), c.key(), c.counter(), (current, writes) -> {
        for (int i = 0; i < c.reads().size(); i++) {
          if (!Arrays.equals(RingCodec.digest(current.read(c.reads().get(i))), c.digests().get(i))) {
            return false;
          }
        }
        writes.addAll(c.updates());
        return true;
      }, lockWait);
      return RingCodec.applied(applied);
    } catch (CoordinatorException.Timeout e) {
      return RingCodec.applied(false); // the partition stayed busy: the coordinator retries
    }
  }
}
