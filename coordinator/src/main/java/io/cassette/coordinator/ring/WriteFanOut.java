package io.cassette.coordinator.ring;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureException;
import io.cassette.cluster.net.RequestFailureReason;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One write sent to every replica of each partition it touches, as Cassandra's
 * {@code StorageProxy.mutate}: each replica gets its partitions as one MUTATION_REQ (this node's
 * part is applied here), and the write returns when every partition has the acknowledgements its
 * level needs ({@link LevelAcks}), not when the last replica answers.
 *
 * <ul>
 *   <li>Too few live replicas for some partition: {@link CoordinatorException.Unavailable}
 *       before anything is sent (ANY: a hint stored for a down replica counts as its answer).
 *   <li>A replica that is down gets a hint at once; one that has not acknowledged when its
 *       request expires gets one then, even after the write returned ({@link HintSink}).
 *       A replica that answered FAILURE_RSP gets none: it is up and refused the write.
 *   <li>Not enough acknowledgements within {@code write_request_timeout}:
 *       {@link CoordinatorException.Timeout} (received, blockfor, write type); enough replicas
 *       answered FAILURE_RSP that the level can no longer be met: {@link CoordinatorException.Failure}
 *       with the reason of each, at once.
 * </ul>
 */
final class WriteFanOut {
  /**
   * TEST FAULT, a deliberately broken build for the fault lab (module lab), off unless the JVM
   * runs with {@code -Dcassette.test_fault.ack_write_before_replicas=true}: a write is
   * acknowledged as soon as it is sent, without waiting for the replicas, and no hint is stored.
   * The lab's set checker must then report lost acknowledged writes.
   */
  static final boolean TEST_FAULT_ACK_BEFORE_REPLICAS = Boolean.getBoolean("cassette.test_fault.ack_write_before_replicas");

  /** Waiting beyond the verb's expiry, in case a callback is never completed (it always should be). */
  private static final long SAFETY_MILLIS = 5_000;

  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final HintSink hints;
  private final java.util.function.Consumer<Message> observer;
  private final java.util.function.Supplier<io.cassette.coordinator.FenceGuard> guard;

  /**
   * @param observer sees every answer from a replica (the coordinator catches up on newer epochs)
   * @param guard    checks a fenced write's epoch before this node applies its own part
   */
  WriteFanOut(LocalCoordinator local, MessagingService messaging, HintSink hints,
              java.util.function.Consumer<Message> observer,
              java.util.function.Supplier<io.cassette.coordinator.FenceGuard> guard) {
    this.guard = guard;
    this.local = local;
    this.messaging = messaging;
    this.hints = TEST_FAULT_ACK_BEFORE_REPLICAS ? HintSink.NONE : hints;
    this.observer = observer;
  }

  /**
   * Writes {@code updates} at {@code cl}.
   *
   * @param applied a replica that has already applied the updates it holds (the leader of a
   *                read-modify-write), counted as its acknowledgement and not sent to; or null
   */
  void write(TokenRing r, List<PartitionUpdate> updates, ConsistencyLevel cl, String writeType, Request request,
             Endpoint applied) {
    CompletableFuture<Void> outcome = start(r, updates, cl, writeType, request, applied);
    try {
      outcome.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : e;
    }
  }

  /**
   * Starts writing {@code updates} at {@code cl} and returns at once: the future completes on
   * the thread of the answer that meets the level (a messaging event loop, or this one), or
   * fails with {@link CoordinatorException.Timeout} / {@link CoordinatorException.Failure}, so no
   * thread waits for the replicas' round trips. This node's own part is applied before it
   * returns. Throws {@link CoordinatorException.Unavailable} before sending anything.
   */
  CompletableFuture<Void> start(TokenRing r, List<PartitionUpdate> updates, ConsistencyLevel cl, String writeType,
                                Request request, Endpoint applied) {
    int n = updates.size();
    Progress p = new Progress(cl, writeType, n);
    Map<Endpoint, List<Integer>> byReplica = new LinkedHashMap<>();
    boolean[] noneAlive = new boolean[n];
    for (int i = 0; i < n; i++) {
      PartitionUpdate u = updates.get(i);
      ReplicationStrategy strategy = local.strategy(u.keyspace());
      List<Endpoint> replicas = strategy instanceof LocalStrategy ? List.of(r.self())
          : r.replicas(Murmur3Token.of(u.key()), strategy);
      // A ring change in progress: its new replicas get the write too and raise the level.
      List<Endpoint> pendingReplicas = strategy instanceof LocalStrategy ? List.of()
          : r.pending(Murmur3Token.of(u.key()), strategy);
      if (!pendingReplicas.isEmpty()) {
        replicas = new ArrayList<>(replicas);
        replicas.addAll(pendingReplicas);
      }
      // ANY is met by any one replica or a hint: count it as ONE over every replica.
      p.acks[i] = new LevelAcks(cl == ConsistencyLevel.ANY ? ConsistencyLevel.ONE : cl,
          strategy instanceof LocalStrategy ? LocalStrategy.INSTANCE : strategy, r).withPending(pendingReplicas);
      if (cl != ConsistencyLevel.ANY) {
        LevelAcks.requireAlive(cl, strategy, r, replicas, pendingReplicas);
      }
      noneAlive[i] = true;
      for (Endpoint e : replicas) {
        byReplica.computeIfAbsent(e, x -> new ArrayList<>()).add(i);
        if (r.isAlive(e)) {
          noneAlive[i] = false;
          if (p.acks[i].counts(e)) {
            p.pending[i]++;
          }
        }
      }
    }
    // Replicas that are down: hinted now. Under ANY a stored hint is the partition's answer.
    boolean[] hinted = new boolean[n];
    for (Map.Entry<Endpoint, List<Integer>> e : byReplica.entrySet()) {
      if (!r.isAlive(e.getKey()) && hints.store(e.getKey(), new Mutation(select(updates, e.getValue())))) {
        for (int i : e.getValue()) {
          hinted[i] = true;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (noneAlive[i]) {
        if (cl != ConsistencyLevel.ANY || !hinted[i]) {
          throw new CoordinatorException.Unavailable(cl, 1, 0);
        }
        p.satisfyByHint(i);
      }
    }
    List<Integer> mine = null;
    // Replicas that take the same partitions (every replica, for a one-partition write) share
    // one serialized payload: the messages only read it.
    List<Integer> encodedIndexes = null;
    byte[] encoded = null;
    for (Map.Entry<Endpoint, List<Integer>> e : byReplica.entrySet()) {
      Endpoint to = e.getKey();
      if (!r.isAlive(to)) {
        continue;
      }
      if (to.equals(applied)) {
        p.answer(r, to, e.getValue(), null);
      } else if (to.equals(r.self())) {
        mine = e.getValue();
      } else {
        Mutation m = new Mutation(select(updates, e.getValue()));
        List<Integer> indexes = e.getValue();
        CompletableFuture<Message> f;
        try {
          if (!indexes.equals(encodedIndexes)) {
            encoded = RingCodec.mutation(m.updates(), request.fence());
            encodedIndexes = indexes;
          }
          // Quick: an acknowledgement is counted on the event loop that read it, not after a
          // hop to a handler thread (timeouts, which store hints, still arrive on one).
          f = messaging.sendWithQuickCallback(messaging.peer(to.address()), Message.out(Verb.MUTATION_REQ, encoded));
        } catch (RuntimeException ex) {
          f = CompletableFuture.failedFuture(ex);
        }
        f.whenComplete((ok, ex) -> {
          if (ok != null && ok.epoch() > r.epoch()) {
            // Catching up on a newer epoch is no work for the event loop.
            try {
              messaging.handlerExecutor().execute(() -> observer.accept(ok));
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
              // the node is stopping: nothing to catch up for
            }
          }
          if (ex != null && !(ex instanceof RequestFailureException)) {
            hints.store(to, m); // no acknowledgement before the timeout: leave it for hinted handoff
          }
          p.answer(r, to, indexes, ex);
        });
      }
    }
    if (mine != null) {
      Throwable failed = null;
      try {
        Mutation own = new Mutation(select(updates, mine));
        guard.get().apply(request.fence(), () -> local.write(own, RingCoordinator.internal(request)));
      } catch (RuntimeException ex) {
        failed = ex;
      }
      p.answer(r, r.self(), mine, failed);
    }
    if (TEST_FAULT_ACK_BEFORE_REPLICAS) {
      return CompletableFuture.completedFuture(null);
    }
    return p.outcome(messaging.config().timeouts().millis(Verb.MUTATION_REQ) + SAFETY_MILLIS);
  }

  private static List<PartitionUpdate> select(List<PartitionUpdate> updates, List<Integer> indexes) {
    List<PartitionUpdate> out = new ArrayList<>(indexes.size());
    for (int i : indexes) {
      out.add(updates.get(i));
    }
    return out;
  }

  /** The answers so far, per partition; {@link #done} completes when all are met or one cannot be. */
  private final class Progress {
    final ConsistencyLevel cl;
    final String writeType;
    final LevelAcks[] acks;
    /** Live replicas that count and have not answered yet, per partition. */
    final int[] pending;
    final List<Map<InetAddress, Integer>> failures = new ArrayList<>();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    int failed = -1; // the first partition whose level can no longer be met

    Progress(ConsistencyLevel cl, String writeType, int n) {
      this.cl = cl;
      this.writeType = writeType;
      this.acks = new LevelAcks[n];
      this.pending = new int[n];
      for (int i = 0; i < n; i++) {
        failures.add(new HashMap<>());
      }
    }

    synchronized void satisfyByHint(int i) {
      acks[i] = null; // met
    }

    synchronized void answer(TokenRing r, Endpoint from, List<Integer> indexes, Throwable error) {
      for (int i : indexes) {
        LevelAcks a = acks[i];
        if (a == null || !a.counts(from)) {
          continue;
        }
        pending[i]--;
        if (error == null) {
          a.ack(from);
        } else if (error instanceof RequestFailureException rf) {
          failures.get(i).put(from.address(), rf.reason().code);
        } else if (error instanceof io.cassette.coordinator.FenceGuard.Refused) {
          failures.get(i).put(from.address(), RequestFailureReason.FENCED.code);
        } else if (!(isTimeout(error))) {
          failures.get(i).put(from.address(), RequestFailureReason.UNKNOWN.code);
        }
        if (!a.satisfied() && (pending[i] <= 0 || a.received() + pending[i] < a.blockFor()) && failed < 0) {
          failed = i;
        }
      }
      check();
    }

    private void check() {
      if (done.isDone()) {
        return;
      }
      if (failed >= 0) {
        done.complete(null);
        return;
      }
      for (LevelAcks a : acks) {
        if (a != null && !a.satisfied()) {
          return;
        }
      }
      done.complete(null);
    }

    /** Completes when the level is met, else fails with the Timeout or Failure Cassandra would send. */
    CompletableFuture<Void> outcome(long millis) {
      CompletableFuture<Void> result = new CompletableFuture<>();
      done.orTimeout(millis, TimeUnit.MILLISECONDS).whenComplete((v, e) -> {
        try {
          finish(e != null);
          result.complete(null);
        } catch (RuntimeException ex) {
          result.completeExceptionally(ex);
        }
      });
      return result;
    }

    private void finish(boolean timedOut) {
      if (timedOut) {
        synchronized (this) {
          failed = failed >= 0 ? failed : firstUnmet();
        }
      }
      synchronized (this) {
        if (failed < 0) {
          return;
        }
        LevelAcks a = acks[failed];
        int received = a == null ? 0 : a.received();
        int blockFor = a == null ? 1 : a.blockFor();
        Map<InetAddress, Integer> f = failures.get(failed);
        if (!f.isEmpty()) {
          StringBuilder why = new StringBuilder();
          for (Map.Entry<InetAddress, Integer> e : f.entrySet()) {
            why.append(why.length() == 0 ? "" : ", ").append(RequestFailureReason.fromCode(e.getValue()))
                .append(" from /").append(e.getKey().getHostAddress()).append(':')
                .append(messaging.address().getPort());
          }
          throw new CoordinatorException.Failure(cl, received, blockFor, f, writeType,
              "Operation failed - received " + received + " responses and " + f.size() + " failures: " + why);
        }
        throw new CoordinatorException.Timeout(cl, received, blockFor, writeType);
      }
    }

    private int firstUnmet() {
      for (int i = 0; i < acks.length; i++) {
        if (acks[i] != null && !acks[i].satisfied()) {
          return i;
        }
      }
      return -1;
    }
  }

  static boolean isTimeout(Throwable t) {
    return t instanceof io.cassette.cluster.net.RequestTimeoutException
        || t instanceof java.util.concurrent.CancellationException;
  }
}
