package io.cassette.coordinator.ring.paxos;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.PartitionOperation;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.ReadReconciler;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The proposer: one lightweight transaction (or serial read, or counter update) on one partition,
 * as Cassandra's Paxos v2 runs it (see {@code service/paxos/Paxos.md} there):
 *
 * <ol>
 *   <li>prepare with a fresh ballot ({@link BallotClock}) to the partition's Paxos replicas,
 *       each promise carrying the replica's accepted and committed proposals and its copy of the
 *       partition; a quorum of promises is needed, a refusal makes the next ballot newer;
 *   <li>an accepted proposal newer than every commit seen is a round in progress: it is
 *       proposed again with our ballot and committed, and the transaction starts over;
 *   <li>replicas whose latest commit is older than the newest seen get it (the refresh) before
 *       anything is decided on their answers;
 *   <li>the operation runs on the promises' copies merged (plus the newest commit);
 *   <li>its updates, re-stamped with the ballot's time, are proposed; a quorum of acceptances
 *       decides them, and they are committed to every replica at the commit level;
 *   <li>no updates (a read, a condition that does not hold): done, unless a promise reported a
 *       promise newer than every proposal seen (a concurrent round): then an empty proposal
 *       must be accepted first, so that round cannot be decided "before" this answer.
 * </ol>
 *
 * A proposal refused by some replicas after others accepted it may still be completed by a
 * later round, so the outcome is unknown: a CAS write timeout, never a retry (a retry could apply
 * a counter increment twice). Contention is retried with randomised back-off until the deadline.
 */
public final class PaxosCoordinator {
  /**
   * TEST FAULT, a deliberately broken build for the fault lab (module lab), off unless the JVM
   * runs with {@code -Dcassette.test_fault.paxos_skip_prepare=true}: no prepare round. The
   * operation runs on this node's own copy of the partition (no promises, no round in progress
   * completed, no refresh) and its updates go straight to propose and commit. Two coordinators
   * can then both apply a compare-and-set, and a serial read can return a stale value; the lab's
   * linearizability and bank checkers must report it. Never set in production.
   */
  static final boolean TEST_FAULT_SKIP_PREPARE = Boolean.getBoolean("cassette.test_fault.paxos_skip_prepare");

  private final PaxosReplica self;
  private final Endpoint selfEndpoint;
  private final MessagingService messaging;
  private final BallotClock clock;

  public PaxosCoordinator(PaxosReplica self, Endpoint selfEndpoint, MessagingService messaging, BallotClock clock) {
    this.self = self;
    this.selfEndpoint = selfEndpoint;
    this.messaging = messaging;
    this.clock = clock;
  }

  public PaxosReplica replica() {
    return self;
  }

  /**
   * Where a round runs: the Paxos {@code participants} (the replicas of the token that count for
   * SERIAL, or LOCAL_SERIAL's data centre), the {@code quorum} of them needed, the replicas
   * that receive the commit ({@code allReplicas}) and how many acknowledgements of
   * {@code commitAcks} (those that count for the commit level) the commit waits for.
   */
  public record Round(String keyspace, String table, byte[] key, List<Endpoint> participants, int quorum,
                      List<Endpoint> allReplicas, List<Endpoint> commitAcks, int commitBlockFor,
                      ConsistencyLevel serial, ConsistencyLevel commit, String writeType, long deadlineNanos) {}

  /** What a round decided: the operation's answer and the updates to other partitions (written afterwards). */
  public record Outcome<R>(R answer, List<PartitionUpdate> elsewhere) {}

  public <R> Outcome<R> execute(Round round, PartitionOperation<R> operation) {
    for (int attempt = 0; ; attempt++) {
      if (attempt > 0) {
        backoff(round, attempt);
      }
      Ballot ballot = clock.next();
      Prepared prepared = TEST_FAULT_SKIP_PREPARE ? unprepared(round) : prepare(round, ballot);
      if (prepared == null) {
        continue; // refused: newer ballot next time
      }
      Proposal inProgress = prepared.inProgress();
      if (inProgress != null) {
        // Finish someone else's round with our ballot, then start over.
        Proposal again = new Proposal(ballot, inProgress.updates());
        if (propose(round, again, false) == Vote.ACCEPTED) {
          commit(round, again, round.quorum(), round.participants(), false);
        }
        continue;
      }
      if (!refresh(round, prepared)) {
        continue;
      }
      List<PartitionUpdate> reads = prepared.reads();
      List<PartitionUpdate> writes = new ArrayList<>();
      R answer = operation.run(q -> ReadReconciler.live(reads, q), writes);
      List<PartitionUpdate> here = new ArrayList<>();
      List<PartitionUpdate> elsewhere = new ArrayList<>();
      for (PartitionUpdate u : writes) {
        if (u.keyspace().equals(round.keyspace()) && Arrays.equals(u.key(), round.key())) {
          here.add(u);
        } else {
          elsewhere.add(u);
        }
      }
      here = stamp(here, ballot.micros());
      Proposal mine = new Proposal(ballot, here);
      if (here.isEmpty()) {
        if (!prepared.concurrent()) {
          return new Outcome<>(answer, elsewhere);
        }
        Vote v = propose(round, mine, false);
        if (v == Vote.ACCEPTED) {
          return new Outcome<>(answer, elsewhere);
        }
        continue; // refused by a newer round, or unknown (an empty value changes nothing): read again
      }
      Vote v = propose(round, mine, true);
      if (v == Vote.REFUSED) {
        continue; // nobody accepted it: safe to try again
      }
      if (v == Vote.UNKNOWN) {
        throw timeout(round, 0);
      }
      commit(round, mine, round.commitBlockFor(), round.commitAcks(), true);
      return new Outcome<>(answer, elsewhere);
    }
  }

  // ------------------------------------------------------------------ prepare

  /** The promises of a quorum, merged. */
  private record Prepared(Map<Endpoint, PaxosCodec.Promise> promises, Proposal inProgress, Proposal latestCommit,
                          boolean concurrent, List<PartitionUpdate> reads) {}

  private Prepared prepare(Round round, Ballot ballot) {
    byte[] payload = PaxosCodec.prepare(new PaxosCodec.Prepare(round.keyspace(), round.table(), round.key(), ballot,
        System.currentTimeMillis() / 1000, true));
    int n = round.participants().size();
    Map<Endpoint, byte[]> answers = gather(round, round.participants(), Verb.PAXOS2_PREPARE_REQ, payload,
        (e, a) -> PaxosCodec.promise(a, round.keyspace(), round.table()).promised() ? 1 : -1,
        (good, bad) -> good >= round.quorum() || bad > n - round.quorum(), self::prepare);
    Map<Endpoint, PaxosCodec.Promise> promises = new LinkedHashMap<>();
    Ballot newest = Ballot.NONE;
    for (Map.Entry<Endpoint, byte[]> e : answers.entrySet()) {
      PaxosCodec.Promise p = PaxosCodec.promise(e.getValue(), round.keyspace(), round.table());
      clock.observe(p.latest());
      if (p.promised()) {
        promises.put(e.getKey(), p);
      } else {
        newest = Ballot.max(newest, p.latest());
      }
    }
    if (promises.size() < round.quorum()) {
      if (newest == Ballot.NONE) {
        throw timeout(round, promises.size()); // silence, not contention
      }
      return null;
    }
    Proposal latestCommit = null;
    Proposal accepted = null;
    Ballot maxPromisedBefore = Ballot.NONE;
    List<PartitionUpdate> reads = new ArrayList<>();
    for (PaxosCodec.Promise p : promises.values()) {
      if (p.committed() != null && (latestCommit == null || p.committed().ballot().isAfter(latestCommit.ballot()))) {
        latestCommit = p.committed();
      }
      if (p.accepted() != null && (accepted == null || p.accepted().ballot().isAfter(accepted.ballot()))) {
        accepted = p.accepted();
      }
      maxPromisedBefore = Ballot.max(maxPromisedBefore, p.latest());
      if (p.read() != null) {
        reads.add(p.read());
      }
    }
    Ballot decided = latestCommit == null ? Ballot.NONE : latestCommit.ballot();
    Proposal inProgress = accepted != null && accepted.ballot().isAfter(decided) && !accepted.isEmpty() ? accepted : null;
    Ballot newestProposal = accepted != null ? Ballot.max(decided, accepted.ballot()) : decided;
    if (latestCommit != null) {
      for (PartitionUpdate u : latestCommit.updates()) {
        if (u.table().equals(round.table())) {
          reads.add(u); // its cells carry its ballot's time: merged, it wins only where it is newest
        }
      }
    }
    return new Prepared(promises, inProgress, latestCommit, maxPromisedBefore.isAfter(newestProposal), reads);
  }

  /** The test fault's stand-in for a prepare round: this node's copy, nothing promised. */
  private Prepared unprepared(Round round) {
    PartitionUpdate here = self.readHere(round.keyspace(), round.table(), round.key());
    return new Prepared(Map.of(), null, null, false, here == null ? List.of() : List.of(here));
  }

  /** Replicas among the promises that lack the newest commit get it; false if they did not all take it. */
  private boolean refresh(Round round, Prepared prepared) {
    Proposal latest = prepared.latestCommit();
    if (latest == null) {
      return true;
    }
    List<Endpoint> stale = new ArrayList<>();
    for (Map.Entry<Endpoint, PaxosCodec.Promise> e : prepared.promises().entrySet()) {
      Proposal c = e.getValue().committed();
      if (c == null || latest.ballot().isAfter(c.ballot())) {
        stale.add(e.getKey());
      }
    }
    if (stale.isEmpty()) {
      return true;
    }
    return commit(round, latest, stale.size(), stale, false);
  }

  // ------------------------------------------------------------------ propose / commit

  private enum Vote { ACCEPTED, REFUSED, UNKNOWN }

  /**
   * ACCEPTED by a quorum; REFUSED when none accepted (or, {@code strict} false, when a quorum
   * cannot be reached because of refusals); UNKNOWN when some accepted but not a quorum, or the
   * replicas went silent.
   */
  private Vote propose(Round round, Proposal proposal, boolean strict) {
    byte[] payload = PaxosCodec.propose(new PaxosCodec.Propose(round.keyspace(), round.table(), round.key(), proposal));
    int n = round.participants().size();
    // Strict (our own updates): a refusal is final only once every replica has answered, since
    // one that accepts later would leave our value half accepted (completed by a later round).
    Map<Endpoint, byte[]> answers = gather(round, round.participants(), Verb.PAXOS2_PROPOSE_REQ, payload,
        (e, a) -> PaxosCodec.accepted(a).accepted() ? 1 : -1,
        (good, bad) -> good >= round.quorum() || (!strict && bad > n - round.quorum()), self::propose);
    int accepted = 0;
    int refused = 0;
    for (byte[] a : answers.values()) {
      PaxosCodec.Accepted r = PaxosCodec.accepted(a);
      clock.observe(r.latest());
      if (r.accepted()) {
        accepted++;
      } else {
        refused++;
      }
    }
    if (accepted >= round.quorum()) {
      return Vote.ACCEPTED;
    }
    if (accepted == 0 && refused > 0 && (!strict || refused == n)) {
      return Vote.REFUSED;
    }
    if (!strict && refused > 0) {
      return Vote.REFUSED; // an empty or re-proposed value: nothing of ours can be half applied
    }
    return Vote.UNKNOWN;
  }

  /**
   * Sends the commit to every replica (and {@code counting}); true when {@code blockFor} of
   * {@code counting} acknowledged. {@code client}: the commit of the client's own update, whose
   * shortfall is the commit level's write timeout.
   */
  private boolean commit(Round round, Proposal proposal, int blockFor, List<Endpoint> counting, boolean client) {
    byte[] payload = PaxosCodec.propose(new PaxosCodec.Propose(round.keyspace(), round.table(), round.key(), proposal));
    List<Endpoint> to = new ArrayList<>(round.allReplicas());
    for (Endpoint e : counting) {
      if (!to.contains(e)) {
        to.add(e);
      }
    }
    int countingTotal = counting.size();
    Map<Endpoint, byte[]> answers = gather(round, to, Verb.PAXOS_COMMIT_REQ, payload,
        (e, a) -> counting.contains(e) ? 1 : 0, (good, bad) -> good >= blockFor || bad > countingTotal - blockFor,
        self::commit);
    int acks = 0;
    for (Endpoint e : answers.keySet()) {
      acks += counting.contains(e) ? 1 : 0;
    }
    if (acks < blockFor && client) {
      throw new CoordinatorException.Timeout(round.commit(), acks, blockFor, round.writeType());
    }
    return acks >= blockFor;
  }

  // ------------------------------------------------------------------ messaging

  /** 1: an answer that counts for the quorum; -1: one that counts against it (a refusal); 0: neither. */
  private interface Check {
    int good(Endpoint from, byte[] answer);
  }

  private interface Stop {
    boolean enough(int good, int bad);
  }

  private interface LocalCall {
    byte[] apply(byte[] payload);
  }

  /**
   * Sends to each target, waits until {@code stop} says the answers decide (counting good ones
   * and bad ones: refusals, failures, expiries), all answered, or the deadline.
   */
  private Map<Endpoint, byte[]> gather(Round round, List<Endpoint> targets, Verb verb, byte[] payload,
                                       Check good, Stop stop, LocalCall local) {
    Map<Endpoint, CompletableFuture<byte[]>> sent = send(targets, verb, payload, local);
    Map<Endpoint, byte[]> answers = new LinkedHashMap<>();
    CompletableFuture<Void> enough = new CompletableFuture<>();
    int[] counts = new int[3]; // good, bad, answered
    for (Map.Entry<Endpoint, CompletableFuture<byte[]>> e : sent.entrySet()) {
      e.getValue().whenComplete((a, t) -> {
        synchronized (answers) {
          if (enough.isDone()) {
            return; // decided: later answers do not change what the caller saw
          }
          int verdict = -1; // a failure or an expiry counts against
          if (a != null) {
            answers.put(e.getKey(), a);
            verdict = good.good(e.getKey(), a);
          }
          if (verdict != 0) {
            counts[verdict > 0 ? 0 : 1]++;
          }
          if (++counts[2] == sent.size() || stop.enough(counts[0], counts[1])) {
            enough.complete(null);
          }
        }
      });
    }
    try {
      enough.get(Math.max(1, round.deadlineNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      // the answers so far decide
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (answers) {
      enough.complete(null);
      return new LinkedHashMap<>(answers);
    }
  }

  private Map<Endpoint, CompletableFuture<byte[]>> send(List<Endpoint> targets, Verb verb, byte[] payload,
                                                         LocalCall local) {
    Map<Endpoint, CompletableFuture<byte[]>> sent = new LinkedHashMap<>();
    boolean here = false;
    for (Endpoint e : targets) {
      if (e.equals(selfEndpoint)) {
        here = true;
        continue;
      }
      sent.put(e, messaging.sendWithCallback(messaging.peer(e.address()), Message.out(verb, payload))
          .thenApply(Message::payload));
    }
    if (here) {
      CompletableFuture<byte[]> f;
      try {
        f = CompletableFuture.completedFuture(local.apply(payload));
      } catch (RuntimeException ex) {
        f = CompletableFuture.failedFuture(ex);
      }
      sent.put(selfEndpoint, f);
    }
    return sent;
  }

  private void backoff(Round round, int attempt) {
    if (System.nanoTime() - round.deadlineNanos() > 0) {
      throw timeout(round, 0);
    }
    long maxMicros = Math.min(100_000, 1000L << Math.min(attempt, 7));
    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(ThreadLocalRandom.current().nextLong(100, maxMicros)));
  }

  private static CoordinatorException.Timeout timeout(Round round, int received) {
    // Cassandra: contention or silence in the Paxos round is a WriteTimeout at the serial level, type CAS;
    // a serial read's (no write type) is a ReadTimeout that reports none received (5.0.4, measured
    // with 2 of 3 replicas paused: "SERIAL 0 of 2" for the read, "1 of 2" for the CAS).
    int shown = round.writeType() == null ? 0 : Math.min(received, round.quorum() - 1);
    return new CoordinatorException.Timeout(round.serial(), shown, round.quorum(), round.writeType());
  }

  // ------------------------------------------------------------------ timestamps

  /**
   * The updates with their timestamps moved so the newest is the ballot's time (relative order
   * kept: a collection's overwrite tombstone stays just before its new cells). Commits then win
   * over each other in ballot order whatever the coordinators' clocks say, as Cassandra's
   * proposals do.
   */
  static List<PartitionUpdate> stamp(List<PartitionUpdate> updates, long micros) {
    long newest = Long.MIN_VALUE;
    for (PartitionUpdate u : updates) {
      newest = Math.max(newest, newest(u));
    }
    if (newest == Long.MIN_VALUE) {
      return updates;
    }
    long shift = micros - newest;
    List<PartitionUpdate> out = new ArrayList<>(updates.size());
    for (PartitionUpdate u : updates) {
      out.add(shift(u, shift));
    }
    return out;
  }

  private static long newest(PartitionUpdate u) {
    long t = u.partitionDeletion().isLive() ? Long.MIN_VALUE : u.partitionDeletion().markedForDeleteAt();
    for (RangeTombstone rt : u.rangeTombstones()) {
      t = Math.max(t, rt.deletion().markedForDeleteAt());
    }
    for (Row r : u.rows()) {
      if (!r.liveness().isEmpty()) t = Math.max(t, r.liveness().timestamp());
      if (!r.deletion().isLive()) t = Math.max(t, r.deletion().markedForDeleteAt());
      for (Cell c : r.cells()) t = Math.max(t, c.timestamp());
    }
    return t;
  }

  private static PartitionUpdate shift(PartitionUpdate u, long by) {
    PartitionUpdate.Builder b = PartitionUpdate.builder(u.keyspace(), u.table(), u.key());
    if (!u.partitionDeletion().isLive()) {
      b.deletePartition(new DeletionTime(u.partitionDeletion().markedForDeleteAt() + by,
          u.partitionDeletion().localDeletionTime()));
    }
    for (RangeTombstone rt : u.rangeTombstones()) {
      b.deleteRange(rt.slice(), new DeletionTime(rt.deletion().markedForDeleteAt() + by, rt.deletion().localDeletionTime()));
    }
    for (Row r : u.rows()) {
      LivenessInfo l = r.liveness().isEmpty() ? r.liveness()
          : new LivenessInfo(r.liveness().timestamp() + by, r.liveness().ttl(), r.liveness().localExpirationTime());
      DeletionTime d = r.deletion().isLive() ? r.deletion()
          : new DeletionTime(r.deletion().markedForDeleteAt() + by, r.deletion().localDeletionTime());
      List<Cell> cells = new ArrayList<>(r.cells().size());
      for (Cell c : r.cells()) {
        cells.add(new Cell(c.column(), c.path(), c.value(), c.timestamp() + by, c.ttl(), c.localDeletionTime()));
      }
      b.row(new Row(r.clustering(), l, d, cells));
    }
    return b.build();
  }
}
