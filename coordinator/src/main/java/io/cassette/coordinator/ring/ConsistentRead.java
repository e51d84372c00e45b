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
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * A read of one partition at a consistency level, as Cassandra's read executors and digest
 * resolver do it:
 *
 * <ol>
 *   <li>Replicas are ordered: a preferred one (the leader of a read-modify-write), this node,
 *       its data centre, then the fastest recently ({@link ReadLatencies}). The first
 *       {@code blockFor} that count for the level are contacted: the first for the data, the
 *       others for a digest (SHA-256 of their answer). Too few alive: Unavailable, at once.
 *   <li>Speculative retry ({@link ReadPolicy}): when the answers are not in after the table's
 *       {@code speculative_retry} delay, one more replica is asked for the data; a replica
 *       answering FAILURE_RSP is replaced the same way while spares are left.
 *   <li>All digests equal the data's: that is the answer. Otherwise the replicas that answered
 *       with a digest are asked for their data, the unfiltered answers merged ({@link ReadReconciler}), and,
 *       with {@code read_repair = 'BLOCKING'}, what each stale replica lacks is written back
 *       (READ_REPAIR_REQ) and acknowledged before the answer goes out.
 *   <li>Not enough answers within {@code read_request_timeout}: a read timeout with received,
 *       blockfor and data_present; the level unreachable through FAILURE_RSPs: a read failure.
 * </ol>
 * Thread-safe; one instance per coordinator.
 */
final class ConsistentRead {
  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final ReadLatencies latencies;
  private final java.util.function.Supplier<BiFunction<String, String, ReadPolicy>> policies;
  private final java.util.function.Consumer<Message> observer;
  /**
   * Where a read goes on after a digest mismatch (data requests, repair writes: steps that
   * wait), so that no event loop waits. Mismatches are rare; four threads at most, none idle.
   */
  private final java.util.concurrent.ThreadPoolExecutor repairs = new java.util.concurrent.ThreadPoolExecutor(
      4, 4, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "read-reconcile");
        t.setDaemon(true);
        return t;
      });

  /** @param observer sees every answer from a replica (the coordinator catches up on newer epochs) */
  ConsistentRead(LocalCoordinator local, MessagingService messaging, ReadLatencies latencies,
                 java.util.function.Supplier<BiFunction<String, String, ReadPolicy>> policies,
                 java.util.function.Consumer<Message> observer) {
    this.local = local;
    this.messaging = messaging;
    this.latencies = latencies;
    this.policies = policies;
    this.observer = observer;
    repairs.allowCoreThreadTimeOut(true);
  }

  /**
   * An answer of one replica: its data (the partition unfiltered, with its tombstones, so that a
   * deletion a replica missed wins the merge) or the digest of it, or the error it failed with.
   */
  private record Answer(Endpoint from, PartitionUpdate view, byte[] digest, Throwable error, long sentNanos) {}

  /**
   * Reads {@code key} at {@code cl}, the calling thread waiting for the answer: see
   * {@link #readAsync}, whose exceptions this throws as they are.
   */
  PartitionView read(TokenRing r, String keyspace, String table, byte[] key, ReadQuery query, ConsistencyLevel cl,
                     Endpoint preferred, boolean forceRepair, String writeType) {
    CompletableFuture<PartitionView> f = readAsync(r, keyspace, table, key, query, cl, preferred, forceRepair, writeType);
    try {
      return f.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : e;
    }
  }

  /**
   * Reads {@code key} at {@code cl} without a thread waiting for the replicas: the answers are
   * counted as they arrive (on the messaging event loop, {@link MessagingService#sendWithQuickCallback}),
   * and the future completes on the thread that brought the last one needed. A digest
   * mismatch (rare: a replica missed writes) is reconciled and repaired on {@link #repairs},
   * whose blocking steps never run on an event loop. Unavailable is thrown at once; a read
   * timeout or failure completes the future exceptionally.
   *
   * @param preferred   asked for the data first when alive (null: none); a read-modify-write
   *                    passes its leader so the leader's copy is among those reconciled
   * @param forceRepair repair stale replicas whatever the table's {@code read_repair} says
   * @param writeType   null for a read; a read-modify-write's write type, for its timeouts
   */
  CompletableFuture<PartitionView> readAsync(TokenRing r, String keyspace, String table, byte[] key, ReadQuery query,
                                             ConsistencyLevel cl, Endpoint preferred, boolean forceRepair,
                                             String writeType) {
    ReplicationStrategy strategy = local.strategy(keyspace);
    List<Endpoint> replicas = r.replicas(Murmur3Token.of(key), strategy);
    LevelAcks.requireAlive(cl, strategy, r, replicas);
    LevelAcks plan = new LevelAcks(cl, strategy, r);
    List<Endpoint> contacts = new ArrayList<>();
    ArrayDeque<Endpoint> spares = new ArrayDeque<>();
    for (Endpoint e : order(r, replicas, preferred)) {
      if (plan.useful(e)) {
        contacts.add(e);
        plan.ack(e);
      } else if (plan.counts(e)) {
        spares.add(e);
      }
    }
    ReadPolicy policy = policies.get().apply(keyspace, table);
    ReadLatencies.Table tableLatency = latencies.table(keyspace, table);
    long start = System.nanoTime();
    long timeoutMillis = messaging.config().timeouts().millis(Verb.READ_REQ);
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    // Before a table has latencies, a percentile means half the read timeout (as Cassandra).
    long retryMicros = policy.retryAfterMicros(tableLatency, timeoutMillis * 500);
    long retryAt = retryMicros == Long.MAX_VALUE ? Long.MAX_VALUE : start + retryMicros * 1000;

    Round round = new Round(r, keyspace, table, key, query);
    Gather gather = new Gather(round, cl, new LevelAcks(cl, strategy, r), contacts, spares, timeoutMillis, deadline,
        retryAt, writeType);
    round.sink = gather::answer;
    synchronized (gather) {
      round.outstanding = contacts.size(); // counted before any can answer
    }
    for (int i = 0; i < contacts.size(); i++) {
      if (!contacts.get(i).equals(r.self())) {
        round.ask(contacts.get(i), i > 0);
      }
    }
    for (int i = 0; i < contacts.size(); i++) {
      if (contacts.get(i).equals(r.self())) {
        round.ask(r.self(), i > 0); // after the messages are out: the local read overlaps them
      }
    }
    gather.arm();
    return gather.result.thenCompose(answers -> {
      tableLatency.add((System.nanoTime() - start) / 1000);
      PartitionUpdate data = null;
      byte[] dataDigest = null;
      boolean match = true;
      for (Answer a : answers.values()) {
        if (a.view() != null && data == null) {
          data = a.view();
          dataDigest = RingCodec.digest(data);
        }
      }
      for (Answer a : answers.values()) {
        byte[] d = a.view() == data ? dataDigest : a.view() != null ? RingCodec.digest(a.view()) : a.digest();
        match &= Arrays.equals(d, dataDigest);
      }
      if (match) {
        return CompletableFuture.completedFuture(ReadReconciler.live(List.of(data), query));
      }
      // Digest mismatch: blocking steps (data requests, repair writes), on a thread that may wait.
      return CompletableFuture.supplyAsync(() -> reconcile(r, keyspace, table, key, query, cl, forceRepair, writeType,
          round, answers, gather.failures, gather.got, deadline, policy), repairs);
    });
  }

  /**
   * After a digest mismatch: the data of every replica that answered, merged, stale replicas
   * repaired (blocking read repair), the live answer returned. Blocks; never on an event loop.
   */
  private PartitionView reconcile(TokenRing r, String keyspace, String table, byte[] key, ReadQuery query,
                                  ConsistencyLevel cl, boolean forceRepair, String writeType, Round round,
                                  Map<Endpoint, Answer> answers, Map<InetAddress, Integer> failures, LevelAcks got,
                                  long deadline, ReadPolicy policy) {
    for (Answer a : answers.values()) {
      if (a.view() == null) {
        round.ask(a.from(), false);
      }
    }
    while (!allData(answers)) {
      long now = System.nanoTime();
      Answer a = now - deadline >= 0 ? null : round.poll(deadline - now);
      if (a == null) {
        if (System.nanoTime() - deadline >= 0) {
          throw new CoordinatorException.Timeout(cl, countData(answers), got.blockFor(), writeType, true);
        }
        continue;
      }
      if (a.error() == null && a.view() != null && answers.containsKey(a.from())) {
        answers.put(a.from(), a);
      } else if (a.error() != null && answers.containsKey(a.from()) && answers.get(a.from()).view() == null
          && !WriteFanOut.isTimeout(a.error())) {
        failures.put(a.from().address(), reason(a.error()));
        throw failure(cl, got, failures, writeType);
      }
    }
    // Short-read protection: a replica that stopped at the limit may have more rows than it
    // sent; when the merge leaves fewer live rows than the limit, ask it for the rest.
    protectShortReads(r, keyspace, table, key, query, answers, deadline, cl, got.blockFor(), writeType);
    List<PartitionUpdate> views = new ArrayList<>();
    for (Answer a : answers.values()) {
      views.add(a.view());
    }
    // Reconciled unfiltered (deletions win by timestamp), repaired, then filtered for the client.
    PartitionUpdate merged = ReadReconciler.mergeUnfiltered(keyspace, table, views, query);
    if (policy.blockingReadRepair() || forceRepair) {
      Map<Endpoint, List<PartitionUpdate>> repairs = new LinkedHashMap<>();
      for (Answer a : answers.values()) {
        PartitionUpdate u = ReadReconciler.repair(keyspace, table, merged, a.view());
        if (u != null) {
          repairs.put(a.from(), List.of(u));
        }
      }
      repair(r, repairs, deadline, cl, got.blockFor(), writeType);
    }
    return ReadReconciler.live(views, query);
  }

  /**
   * The first phase of a read, driven by the answers as they arrive: counts them against the
   * level, asks a spare replica after the speculative-retry delay or in place of one that
   * failed, and completes {@link #result} with the answers once the level is met with data
   * (or exceptionally: timeout, failure). Its one timer (speculation, then the deadline) runs
   * on the messaging event loops and is armed only when a spare is left to ask; without one,
   * the messaging service's own expiry of each request (the read timeout) ends the wait.
   * The lock is never held while {@link #result} completes (its dependants may run long).
   */
  private final class Gather {
    final CompletableFuture<Map<Endpoint, Answer>> result = new CompletableFuture<>();
    final LevelAcks got;
    final Map<InetAddress, Integer> failures = new LinkedHashMap<>();
    private final Round round;
    private final ConsistencyLevel cl;
    private final List<Endpoint> contacts;
    private final ArrayDeque<Endpoint> spares;
    private final long timeoutMillis;
    private final long deadline;
    private final long retryAt;
    private final String writeType;
    private final Map<Endpoint, Answer> answers = new LinkedHashMap<>();
    private boolean speculated;
    private boolean timedOut;
    /** Set once the result is decided: later answers go to the round's queue (reconcile reads them). */
    private boolean finished;
    private java.util.concurrent.ScheduledFuture<?> timer;

    Gather(Round round, ConsistencyLevel cl, LevelAcks got, List<Endpoint> contacts, ArrayDeque<Endpoint> spares,
           long timeoutMillis, long deadline, long retryAt, String writeType) {
      this.round = round;
      this.cl = cl;
      this.got = got;
      this.contacts = contacts;
      this.spares = spares;
      this.timeoutMillis = timeoutMillis;
      this.deadline = deadline;
      this.retryAt = retryAt;
      this.writeType = writeType;
    }

    /** Arms the speculation timer when a spare is left and the table speculates. */
    void arm() {
      synchronized (this) {
        if (finished || spares.isEmpty() || retryAt == Long.MAX_VALUE) {
          return;
        }
        schedule(retryAt);
      }
    }

    private void schedule(long at) {
      try {
        timer = messaging.scheduler().schedule(this::tick, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.RejectedExecutionException stopping) {
        // the node is stopping: the requests' own expiry ends the read
      }
    }

    /** The timer: speculate once, then at the deadline give up. */
    private void tick() {
      RuntimeException fail = null;
      synchronized (this) {
        if (finished) {
          return;
        }
        long now = System.nanoTime();
        if (now - deadline >= 0) {
          fail = timeout();
        } else if (!speculated && !spares.isEmpty()) {
          speculated = true;
          schedule(deadline);
          round.outstanding++;
          round.ask(spares.poll(), false);
          return;
        } else {
          schedule(deadline);
          return;
        }
      }
      result.completeExceptionally(fail);
    }

    /** No request is out and the timer will not ask a spare: waiting longer cannot help. */
    private boolean nothingMoreComing() {
      return round.outstanding == 0 && (spares.isEmpty() || speculated || timer == null);
    }

    private RuntimeException timeout() {
      finished = true;
      for (Endpoint e : contacts) {
        if (!answers.containsKey(e)) {
          latencies.replica(e, TimeUnit.MILLISECONDS.toMicros(timeoutMillis)); // prefer the others next time
        }
      }
      return new CoordinatorException.Timeout(cl, got.received(), got.blockFor(), writeType, hasData(answers));
    }

    /** One answer (or error) of one replica; any thread. */
    void answer(Answer a) {
      RuntimeException fail = null;
      boolean done = false;
      synchronized (this) {
        if (finished) {
          round.queue.add(a);
          return;
        }
        round.outstanding--;
        if (a.error() != null) {
          if (WriteFanOut.isTimeout(a.error())) {
            // Counted as slow as the timeout: the next reads prefer the others.
            latencies.replica(a.from(), TimeUnit.MILLISECONDS.toMicros(timeoutMillis));
            timedOut = true;
          } else {
            failures.put(a.from().address(), reason(a.error()));
            if (!spares.isEmpty()) {
              round.outstanding++;
              round.ask(spares.poll(), false); // replace the failed replica while there are others
              return;
            }
          }
          if (nothingMoreComing()) {
            // Nothing more will come: a timeout if any replica was silent, else the failures.
            finished = true;
            fail = timedOut ? timeout() : failure(cl, got, failures, writeType);
          } else {
            return;
          }
        } else {
          latencies.replica(a.from(), (System.nanoTime() - a.sentNanos()) / 1000);
          Answer before = answers.get(a.from());
          if (before == null || a.view() != null) {
            answers.put(a.from(), a);
          }
          if (before == null) {
            got.ack(a.from());
          }
          if (!(got.satisfied() && hasData(answers))) {
            if (nothingMoreComing()) {
              fail = timeout();
            } else {
              return;
            }
          } else {
            finished = true;
            done = true;
          }
        }
        if (timer != null) {
          timer.cancel(false);
        }
      }
      if (done) {
        result.complete(answers);
      } else {
        result.completeExceptionally(fail);
      }
    }
  }

  /**
   * Cassandra's short-read protection for one partition. Each replica counts the query's limit
   * in rows live on itself; another replica's newer deletions can remove some of them in the
   * merge, so the merged answer may have fewer live rows than the limit while a replica that
   * stopped at the limit holds more beyond the last row it sent. While that is so, each such
   * replica is asked again for the rows after its last one (before its first, reversed), and
   * what it sends is added to its answer; a replica whose next page is short has no more.
   * Bounded by the read's deadline (a read timeout with data present past it).
   */
  private void protectShortReads(TokenRing r, String keyspace, String table, byte[] key, ReadQuery query,
                                 Map<Endpoint, Answer> answers, long deadline, ConsistencyLevel cl, int blockFor,
                                 String writeType) {
    int limit = query.rowLimit();
    if (limit == Integer.MAX_VALUE || answers.size() < 2) {
      return;
    }
    Map<Endpoint, PartitionUpdate> lastPage = new LinkedHashMap<>();
    for (Answer a : answers.values()) {
      lastPage.put(a.from(), a.view());
    }
    while (true) {
      List<PartitionUpdate> views = new ArrayList<>();
      for (Answer a : answers.values()) {
        views.add(a.view());
      }
      int have = ReadReconciler.live(views, query).rows().size();
      if (have >= limit) {
        return;
      }
      boolean asked = false;
      for (Map.Entry<Endpoint, PartitionUpdate> e : new ArrayList<>(lastPage.entrySet())) {
        PartitionUpdate page = e.getValue();
        ReadQuery rest = page == null ? null : ReadReconciler.after(page, query);
        if (page == null || rest == null || ReadReconciler.liveRows(page, query) < limit) {
          lastPage.put(e.getKey(), null); // it sent all it has
          continue;
        }
        PartitionUpdate more = readData(r, keyspace, table, key, rest, e.getKey(), deadline, cl, blockFor, writeType);
        Answer a = answers.get(e.getKey());
        answers.put(e.getKey(), new Answer(a.from(), ReadReconciler.union(a.view(), more), null, null, a.sentNanos()));
        lastPage.put(e.getKey(), more);
        asked = true;
      }
      if (!asked) {
        return;
      }
    }
  }

  /** One replica's unfiltered data for {@code query}, waited for until {@code deadline}. */
  private PartitionUpdate readData(TokenRing r, String keyspace, String table, byte[] key, ReadQuery query,
                                   Endpoint from, long deadline, ConsistencyLevel cl, int blockFor, String writeType) {
    Round more = new Round(r, keyspace, table, key, query);
    more.ask(from, false);
    Answer a = more.poll(deadline - System.nanoTime());
    if (a == null || a.error() != null || a.view() == null) {
      throw new CoordinatorException.Timeout(cl, blockFor - 1, blockFor, writeType, true);
    }
    return a.view();
  }

  /**
   * Writes each stale replica's missing data back and waits for every acknowledgement (blocking
   * read repair); a replica that does not acknowledge in time is a read timeout with data present.
   */
  void repair(TokenRing r, Map<Endpoint, List<PartitionUpdate>> repairs, long deadline, ConsistencyLevel cl,
              int blockFor, String writeType) {
    List<CompletableFuture<Message>> acks = new ArrayList<>();
    for (Map.Entry<Endpoint, List<PartitionUpdate>> e : repairs.entrySet()) {
      if (e.getKey().equals(r.self())) {
        local.write(new Mutation(e.getValue()), RingCoordinator.internal(Request.INTERNAL));
      } else {
        acks.add(send(e.getKey(), Verb.READ_REPAIR_REQ, RingCodec.mutation(e.getValue())));
      }
    }
    for (CompletableFuture<Message> f : acks) {
      try {
        f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CoordinatorException.Timeout(cl, blockFor - 1, blockFor, writeType, true);
      } catch (Exception e) {
        throw new CoordinatorException.Timeout(cl, blockFor - 1, blockFor, writeType, true);
      }
    }
  }

  /**
   * The replicas a range read at {@code cl} asks, best first ({@link #order}); Unavailable when
   * too few are alive.
   */
  List<Endpoint> contacts(TokenRing r, ReplicationStrategy strategy, List<Endpoint> replicas, ConsistencyLevel cl) {
    LevelAcks.requireAlive(cl, strategy, r, replicas);
    LevelAcks plan = new LevelAcks(cl, strategy, r);
    List<Endpoint> out = new ArrayList<>();
    for (Endpoint e : order(r, replicas, null)) {
      if (plan.useful(e)) {
        out.add(e);
        plan.ack(e);
      }
    }
    return out;
  }

  /** Live replicas, best first: preferred, this node, this data centre, then by recent answer time. */
  List<Endpoint> order(TokenRing r, List<Endpoint> replicas, Endpoint preferred) {
    String dc = r.topology().localDatacenter();
    List<Endpoint> live = new ArrayList<>();
    for (Endpoint e : replicas) {
      if (r.isAlive(e)) {
        live.add(e);
      }
    }
    live.sort(Comparator.<Endpoint>comparingInt(e -> e.equals(preferred) ? 0 : 1)
        .thenComparingInt(e -> e.equals(r.self()) ? 0 : 1)
        .thenComparingInt(e -> r.datacenter(e).equals(dc) ? 0 : 1)
        .thenComparingDouble(latencies::replicaMicros));
    return live;
  }

  private CompletableFuture<Message> send(Endpoint to, Verb verb, byte[] payload) {
    try {
      return messaging.sendWithCallback(messaging.peer(to.address()), Message.out(verb, payload));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private CompletableFuture<Message> quickSend(Endpoint to, Verb verb, byte[] payload) {
    try {
      return messaging.sendWithQuickCallback(messaging.peer(to.address()), Message.out(verb, payload));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Catching up on a newer epoch is no work for an event loop. */
  private void observeLater(Message answer) {
    try {
      messaging.handlerExecutor().execute(() -> observer.accept(answer));
    } catch (java.util.concurrent.RejectedExecutionException stopping) {
      // the node is stopping: nothing to catch up for
    }
  }

  private CoordinatorException.Failure failure(ConsistencyLevel cl, LevelAcks got, Map<InetAddress, Integer> failures,
                                               String writeType) {
    StringBuilder why = new StringBuilder();
    for (Map.Entry<InetAddress, Integer> e : failures.entrySet()) {
      why.append(why.length() == 0 ? "" : ", ").append(RequestFailureReason.fromCode(e.getValue()))
          .append(" from /").append(e.getKey().getHostAddress()).append(':').append(messaging.address().getPort());
    }
    return new CoordinatorException.Failure(cl, got.received(), got.blockFor(), failures, writeType,
        "Operation failed - received " + got.received() + " responses and " + failures.size() + " failures: " + why);
  }

  private static int reason(Throwable t) {
    return t instanceof RequestFailureException rf ? rf.reason().code : RequestFailureReason.UNKNOWN.code;
  }

  private static boolean hasData(Map<Endpoint, Answer> answers) {
    for (Answer a : answers.values()) {
      if (a.view() != null) {
        return true;
      }
    }
    return false;
  }

  private static boolean allData(Map<Endpoint, Answer> answers) {
    return countData(answers) == answers.size();
  }

  private static int countData(Map<Endpoint, Answer> answers) {
    int n = 0;
    for (Answer a : answers.values()) {
      n += a.view() != null ? 1 : 0;
    }
    return n;
  }

  /** The requests of one read and the queue their answers arrive on. */
  private final class Round {
    private final TokenRing ring;
    private final String keyspace;
    private final String table;
    private final byte[] key;
    private final ReadQuery query;
    /** Answers the read waits for with {@link #poll} (after the gathering phase, or without one). */
    final LinkedBlockingQueue<Answer> queue = new LinkedBlockingQueue<>();
    /** Where answers go: the gathering phase's counter, or the queue. */
    volatile java.util.function.Consumer<Answer> sink = queue::add;
    /** Requests asked and not answered yet; guarded by the Gather's lock while it gathers. */
    int outstanding;

    Round(TokenRing ring, String keyspace, String table, byte[] key, ReadQuery query) {
      this.ring = ring;
      this.keyspace = keyspace;
      this.table = table;
      this.key = key;
      this.query = query;
    }

    /** Asks {@code e}; the caller counts it in {@link #outstanding} when it gathers. */
    void ask(Endpoint e, boolean digest) {
      long sent = System.nanoTime();
      if (e.equals(ring.self())) {
        try {
          PartitionUpdate v = local.readUnfiltered(keyspace, table, key, query, RingCoordinator.internal(Request.INTERNAL));
          Answer a = digest ? new Answer(e, null, RingCodec.digest(v), null, sent) : new Answer(e, v, null, null, sent);
          sink.accept(a);
        } catch (RuntimeException ex) {
          sink.accept(new Answer(e, null, null, ex, sent));
        }
        return;
      }
      // Quick: the answer is decoded and counted on the event loop that read it (no hop to a
      // handler thread); nothing downstream of the sink blocks.
      quickSend(e, Verb.READ_REQ, RingCodec.read(new RingCodec.ReadRequest(keyspace, table, key, query, digest, true)))
          .whenComplete((m, ex) -> {
            if (ex != null) {
              sink.accept(new Answer(e, null, null, ex, sent));
              return;
            }
            Answer a;
            try {
              if (m.epoch() > ring.epoch()) {
                observeLater(m);
              }
              a = digest ? new Answer(e, null, RingCodec.readDigest(m.payload()), null, sent)
                  : new Answer(e, RingCodec.unfiltered(m.payload(), keyspace, table), null, null, sent);
            } catch (RuntimeException bad) {
              a = new Answer(e, null, null, bad, sent);
            }
            sink.accept(a);
          });
    }

    /** The next answer within {@code nanos}, or null. */
    Answer poll(long nanos) {
      try {
        return queue.poll(Math.max(0, nanos), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }

  }
}
