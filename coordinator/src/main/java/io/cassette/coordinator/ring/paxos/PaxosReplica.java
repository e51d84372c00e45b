package io.cassette.coordinator.ring.paxos;

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
import io.cassette.storage.ReadQuery;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acceptor: a replica's answers to prepare, propose and commit, over its {@link PaxosStore}.
 *
 * <ul>
 *   <li>prepare(b): if b is newer than everything this replica promised, accepted or committed
 *       (and than the store's low bound), promise it durably and answer with the previous
 *       promise, the accepted and the committed proposals and the partition as stored here
 *       (unfiltered: tombstones included), read after the promise; else refuse with the newest ballot.
 *   <li>propose(b, v): accept if no newer promise or commit was made; durable before the answer.
 *   <li>commit(b, v): unconditionally apply v to storage (its cells carry b's timestamp), then
 *       remember it as the latest commit if newer, and drop an accepted proposal it supersedes.
 * </ul>
 */
public final class PaxosReplica {
  private static final Logger LOG = LoggerFactory.getLogger(PaxosReplica.class);
  private static final Request ONE = new Request(ConsistencyLevel.ONE, ConsistencyLevel.SERIAL,
      Request.DEFAULT_TIMEOUT, null);

  private final LocalCoordinator local;
  private final PaxosStore store;

  public PaxosReplica(LocalCoordinator local, PaxosStore store) {
    this.local = local;
    this.store = store;
  }

  public PaxosStore store() {
    return store;
  }

  /** Serves PAXOS2_PREPARE_REQ, PAXOS2_PROPOSE_REQ and PAXOS_COMMIT_REQ from peers. */
  public void register(MessagingService messaging) {
    messaging.registerHandler(Verb.PAXOS2_PREPARE_REQ, m -> serve(messaging, m, this::prepare));
    messaging.registerHandler(Verb.PAXOS2_PROPOSE_REQ, m -> serve(messaging, m, this::propose));
    messaging.registerHandler(Verb.PAXOS_COMMIT_REQ, m -> serve(messaging, m, this::commit));
  }

  private static void serve(MessagingService messaging, Message m, Function<byte[], byte[]> body) {
    byte[] answer;
    try {
      answer = body.apply(m.payload());
    } catch (CoordinatorException.UnknownTable e) {
      messaging.respondFailure(m, RequestFailureReason.INCOMPATIBLE_SCHEMA, e.getMessage());
      return;
    } catch (RuntimeException e) {
      LOG.warn("{} from {} failed: {}", m.verb(), m.from(), e.toString());
      messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.toString());
      return;
    }
    messaging.respond(m, answer);
  }

  byte[] prepare(byte[] payload) {
    PaxosCodec.Prepare p = PaxosCodec.prepare(payload);
    local.table(p.keyspace(), p.table()).orElseThrow(() -> new CoordinatorException.UnknownTable(p.keyspace(), p.table()));
    PaxosState[] before = new PaxosState[1];
    PaxosState after = store.update(p.keyspace(), p.table(), p.key(), s -> {
      before[0] = s;
      Ballot latest = Ballot.max(s.latest(), store.lowBound());
      return p.ballot().isAfter(latest) ? new PaxosState(p.ballot(), s.accepted(), s.committed()) : s;
    });
    PaxosState s = before[0];
    if (!p.ballot().equals(after.promised())) {
      return PaxosCodec.promise(new PaxosCodec.Promise(false, Ballot.max(s.latest(), store.lowBound()), null, null, null));
    }
    // Read after promising: a commit that lands later has a ballot this promise refuses to let
    // be chosen again, and any earlier one is either in this read or reported as accepted.
    PartitionUpdate read = p.read()
        ? local.readUnfiltered(p.keyspace(), p.table(), p.key(), ReadQuery.all(p.nowInSeconds()), ONE) : null;
    return PaxosCodec.promise(new PaxosCodec.Promise(true, s.promised(), s.accepted(), s.committed(), read));
  }

  /** This node's copy of a partition, unfiltered, without a promise (only the test fault {@code paxos_skip_prepare}). */
  PartitionUpdate readHere(String keyspace, String table, byte[] key) {
    return local.readUnfiltered(keyspace, table, key, ReadQuery.all(System.currentTimeMillis() / 1000), ONE);
  }

  byte[] propose(byte[] payload) {
    PaxosCodec.Propose p = PaxosCodec.propose(payload);
    Proposal v = p.proposal();
    PaxosState[] before = new PaxosState[1];
    PaxosState after = store.update(p.keyspace(), p.table(), p.key(), s -> {
      before[0] = s;
      boolean promisedNewer = s.promised().isAfter(v.ballot()) || store.lowBound().compareTo(v.ballot()) >= 0;
      boolean committedNewer = s.committed() != null && s.committed().ballot().compareTo(v.ballot()) >= 0;
      boolean acceptedNewer = s.accepted() != null && s.accepted().ballot().isAfter(v.ballot());
      return promisedNewer || committedNewer || acceptedNewer ? s
          : new PaxosState(Ballot.max(s.promised(), v.ballot()), v, s.committed());
    });
    boolean accepted = after.accepted() == v;
    return PaxosCodec.accepted(new PaxosCodec.Accepted(accepted, accepted ? v.ballot()
        : Ballot.max(before[0].latest(), store.lowBound())));
  }

  byte[] commit(byte[] payload) {
    PaxosCodec.Propose p = PaxosCodec.propose(payload);
    commit(p.keyspace(), p.table(), p.key(), p.proposal());
    return PaxosCodec.ack();
  }

  /** Applies a decided proposal here (also the coordinator's own copy). */
  void commit(String keyspace, String table, byte[] key, Proposal v) {
    if (!v.isEmpty()) {
      local.write(new Mutation(v.updates()), ONE);
    }
    store.update(keyspace, table, key, s -> {
      boolean newer = s.committed() == null || v.ballot().isAfter(s.committed().ballot());
      if (!newer) {
        return s;
      }
      Proposal accepted = s.accepted() != null && s.accepted().ballot().isAfter(v.ballot()) ? s.accepted() : null;
      return new PaxosState(Ballot.max(s.promised(), v.ballot()), accepted, v);
    });
  }
}
