package io.cassette.coordinator.ring;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureException;
import io.cassette.cluster.net.RequestFailureReason;
import io.cassette.cluster.net.RequestTimeoutException;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.LevelRules;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.PartitionOperation;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicaCount;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The coordinator of a ring with replication factor 1 (issue 15): each partition lives on the
 * owner of its token ({@link TokenRing#owner}) and any node coordinates a request by executing
 * it locally when it owns the partition, else by forwarding it to the owner (READ_REQ,
 * MUTATION_REQ, RANGE_REQ, TRUNCATE_REQ; {@link ReplicaHandlers} executes peers' requests on
 * {@code local}). Node-local keyspaces (the system keyspaces: {@link LocalStrategy}) never
 * leave the node. Thread-safe.
 *
 * <ul>
 *   <li>Levels are checked against the ring's {@link io.cassette.coordinator.replication.Topology}
 *       as on one node; then the owner must be alive (failure detector), else
 *       {@link CoordinatorException.Unavailable} with alive 0, at once.
 *   <li>No answer within the verb's timeout: {@link CoordinatorException.Timeout} (CQL's
 *       READ_TIMEOUT / WRITE_TIMEOUT); a FAILURE_RSP: {@link CoordinatorException.Failure}.
 *   <li>Scans walk the ring's primary ranges in token order and fetch pages from each owner
 *       lazily ({@link RingScan}): the paging contract {@code KeyRange(lastKey, end)} holds.
 *   <li>Mutations and batches are split per owner; each owner applies its part as one
 *       mutation. A LOGGED batch is atomic per node only (the batchlog is issue 16).
 *   <li>Compare-and-set and read-modify-write: the operation is a Java lambda, so it runs
 *       here. On the owner it runs under the local partition lock. Elsewhere it is optimistic:
 *       the reads go to the owner, and the writes go back as a conditional commit that the
 *       owner applies, under that same partition lock, only if each read still answers the
 *       same (SHA-256 of the answer); otherwise the operation is retried until the request's
 *       timeout. The owner's lock is the single serialisation point of the partition, so this
 *       is linearizable per partition. Writes to other partitions (index entries) are
 *       forwarded afterwards, not atomically with the commit.
 * </ul>
 */
public final class RingCoordinator implements Coordinator {
  /** Upper bound on waiting for a reply the messaging service has not expired (it always should). */
  private static final long SAFETY_WAIT_SECONDS = 120;

  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final LongFunction<CompletableFuture<?>> awaitEpoch;
  private final HintSink hints;

  /**
   * @param local      this node's storage, where requests from peers (and for partitions this
   *                   node owns) are executed
   * @param messaging  the started internode messaging service
   * @param ring       the latest ring snapshot (members, tokens, liveness)
   * @param awaitEpoch completes when this node has applied the metadata log up to the given
   *                   epoch; called before acting on a message from a node that is ahead
   */
  public RingCoordinator(LocalCoordinator local, MessagingService messaging, Supplier<TokenRing> ring,
                         LongFunction<CompletableFuture<?>> awaitEpoch) {
    this(local, messaging, ring, awaitEpoch, HintSink.NONE);
  }

  /**
   * @param hints where writes go that a replica could not take (down, or no acknowledgement
   *              before the timeout); {@link HintSink#NONE} stores nothing
   */
  public RingCoordinator(LocalCoordinator local, MessagingService messaging, Supplier<TokenRing> ring,
                         LongFunction<CompletableFuture<?>> awaitEpoch, HintSink hints) {
    this.local = local;
    this.messaging = messaging;
    this.ring = ring;
    this.awaitEpoch = awaitEpoch;
    this.hints = hints;
  }

  /** Registers the verb handlers that execute peers' requests on {@code local}. */
  public void registerHandlers() {
    new ReplicaHandlers(local, messaging, ring, awaitEpoch).register();
  }

  /** The current ring snapshot. */
  public TokenRing ring() {
    return ring.get();
  }

  @Override
  public MetadataLog metadata() {
    return local.metadata();
  }

  @Override
  public Optional<TableSpec> table(String keyspace, String name) {
    return local.table(keyspace, name);
  }

  @Override
  public boolean ownsLocally(String keyspace, byte[] partitionKey) {
    TokenRing r = ring.get();
    return nodeLocal(keyspace) || r.owner(Murmur3Token.of(partitionKey)).equals(r.self());
  }

  @Override
  public boolean seesAllWrites() {
    return false;
  }

  // ------------------------------------------------------------------ reads

  @Override
  public PartitionView read(String keyspace, String table, byte[] partitionKey, ReadQuery query, Request request) {
    if (nodeLocal(keyspace)) {
      return local.read(keyspace, table, partitionKey, query, request);
    }
    ConsistencyLevel cl = request.consistency();
    checkRead(cl);
    // A serial read is a Paxos round: Cassandra reports its QUORUM / LOCAL_QUORUM.
    checkLevel(keyspace, !cl.isSerial() ? cl
        : cl == ConsistencyLevel.SERIAL ? ConsistencyLevel.QUORUM : ConsistencyLevel.LOCAL_QUORUM);
    requireTable(keyspace, table);
    TokenRing r = ring.get();
    Endpoint owner = liveOwner(r, keyspace, Murmur3Token.of(partitionKey), cl);
    if (owner.equals(r.self())) {
      return local.read(keyspace, table, partitionKey, query, internal(request));
    }
    byte[] answer = call(owner, Verb.READ_REQ,
        RingCodec.read(new RingCodec.ReadRequest(keyspace, table, partitionKey, query)), cl, null);
    return RingCodec.view(answer);
  }

  @Override
  public Table.CloseableIterator<PartitionView> scan(String keyspace, String table, KeyRange range,
                                                     ReadQuery query, Request request) {
    if (nodeLocal(keyspace)) {
      return local.scan(keyspace, table, range, query, request);
    }
    ConsistencyLevel cl = request.consistency();
    checkRead(cl);
    checkLevel(keyspace, cl);
    requireTable(keyspace, table);
    TokenRing r = ring.get();
    List<TokenRing.Owned> segments = RingScan.segments(r, range);
    for (TokenRing.Owned s : segments) {
      if (!r.isAlive(s.owner())) {
        throw unavailable(keyspace, cl);
      }
    }
    return new RingScan(this, r.self(), keyspace, table, range, query, request, segments);
  }

  /** One page of a peer's part of a scan (used by {@link RingScan}). */
  RingCodec.Page fetchPage(Endpoint owner, String keyspace, String table, KeyRange range, ReadQuery query,
                           int maxPartitions, ConsistencyLevel cl) {
    byte[] answer = call(owner, Verb.RANGE_REQ, RingCodec.range(new RingCodec.RangeRequest(keyspace, table,
        range, query, maxPartitions, ReplicaHandlers.MAX_PAGE_BYTES)), cl, null);
    return RingCodec.page(answer);
  }

  /** This node's part of a scan (used by {@link RingScan}). */
  Table.CloseableIterator<PartitionView> localScan(String keyspace, String table, KeyRange range, ReadQuery query,
                                                   Request request) {
    return local.scan(keyspace, table, range, query, internal(request));
  }

  // ------------------------------------------------------------------ writes

  @Override
  public void write(Mutation mutation, Request request) {
    ConsistencyLevel cl = request.consistency();
    if (allNodeLocal(mutation.updates())) {
      local.write(mutation, request);
      return;
    }
    LevelRules.forWrite(cl);
    for (String ks : keyspaces(mutation.updates())) {
      checkLevel(ks, cl);
    }
    route(mutation.updates(), cl, "SIMPLE", request);
  }

  @Override
  public void batch(List<PartitionUpdate> updates, BatchType type, Request request) {
    if (allNodeLocal(updates)) {
      local.batch(updates, type, request);
      return;
    }
    for (String ks : keyspaces(updates)) {
      checkLevel(ks, request.consistency());
    }
    // LOGGED: atomic per node (each owner applies its part as one record), not across nodes
    // until the batchlog (issue 16).
    route(updates, request.consistency(), type == BatchType.LOGGED ? "BATCH" : "UNLOGGED_BATCH", request);
  }

  @Override
  public <R> R compareAndSet(String keyspace, String table, byte[] partitionKey,
                             PartitionOperation<R> operation, Request request) {
    if (nodeLocal(keyspace)) {
      return local.compareAndSet(keyspace, table, partitionKey, operation, request);
    }
    ConsistencyLevel commit = request.consistency();
    LevelRules.forCasCommit(commit);
    checkLevel(keyspace, LevelRules.paxosRound(request.serialConsistency()));
    if (commit != ConsistencyLevel.ANY) {
      checkLevel(keyspace, commit);
    }
    return readModifyWrite(keyspace, table, partitionKey, false, operation, request, "CAS");
  }

  @Override
  public <R> R readModifyWrite(String keyspace, String table, byte[] partitionKey, boolean counter,
                               PartitionOperation<R> operation, Request request) {
    if (nodeLocal(keyspace)) {
      return local.readModifyWrite(keyspace, table, partitionKey, counter, operation, request);
    }
    ConsistencyLevel cl = request.consistency();
    LevelRules.forReadModifyWrite(cl, counter, table);
    checkLevel(keyspace, cl);
    return readModifyWrite(keyspace, table, partitionKey, counter, operation, request, counter ? "COUNTER" : "SIMPLE");
  }

  @Override
  public void truncate(String keyspace, String table, Request request) {
    if (nodeLocal(keyspace)) {
      local.truncate(keyspace, table, request);
      return;
    }
    requireTable(keyspace, table);
    TokenRing r = ring.get();
    // Cassandra truncates on every node and needs all of them up.
    Set<Endpoint> all = new LinkedHashSet<>();
    for (TokenRing.Member m : r.members()) {
      all.add(m.endpoint());
    }
    all.add(r.self());
    int alive = 0;
    for (Endpoint e : all) {
      alive += r.isAlive(e) ? 1 : 0;
    }
    if (alive < all.size()) {
      throw new CoordinatorException.Unavailable(ConsistencyLevel.ALL, all.size(), alive);
    }
    byte[] payload = RingCodec.truncate(new RingCodec.TableRef(keyspace, table));
    Map<Endpoint, CompletableFuture<Message>> sent = new LinkedHashMap<>();
    for (Endpoint e : all) {
      if (!e.equals(r.self())) {
        sent.put(e, send(e, Verb.TRUNCATE_REQ, payload));
      }
    }
    local.truncate(keyspace, table, internal(request));
    awaitAll(sent, ConsistencyLevel.ALL, "SIMPLE", all.size(), 1);
  }

  // ------------------------------------------------------------------ read-modify-write

  private <R> R readModifyWrite(String keyspace, String table, byte[] key, boolean counter,
                                PartitionOperation<R> operation, Request request, String writeType) {
    ConsistencyLevel cl = request.consistency();
    requireTable(keyspace, table);
    TokenRing r = ring.get();
    Endpoint owner = liveOwner(r, keyspace, Murmur3Token.of(key), cl);
    if (owner.equals(r.self())) {
      List<PartitionUpdate> elsewhere = new ArrayList<>();
      R answer;
      try {
        answer = local.readModifyWrite(keyspace, table, key, counter, (current, writes) -> {
          elsewhere.clear();
          List<PartitionUpdate> all = new ArrayList<>();
          R a = operation.run(current, all);
          for (PartitionUpdate u : all) {
            (ownerOf(r, u).equals(owner) ? writes : elsewhere).add(u);
          }
          return a;
        }, internal(request));
      } catch (CoordinatorException.Timeout e) {
        throw new CoordinatorException.Timeout(cl, 0, 1, writeType);
      }
      if (!elsewhere.isEmpty()) {
        route(elsewhere, cl, writeType, request);
      }
      return answer;
    }
    Verb verb = counter ? Verb.COUNTER_MUTATION_REQ : Verb.PAXOS_PROPOSE_REQ;
    long deadline = System.nanoTime() + request.timeout().toNanos();
    for (int attempt = 0; ; attempt++) {
      List<ReadQuery> reads = new ArrayList<>();
      List<byte[]> digests = new ArrayList<>();
      List<PartitionUpdate> writes = new ArrayList<>();
      R answer = operation.run(q -> {
        PartitionView v = RingCodec.view(call(owner, Verb.READ_REQ,
            RingCodec.read(new RingCodec.ReadRequest(keyspace, table, key, q)), cl, writeType));
        reads.add(q);
        digests.add(RingCodec.digest(v));
        return v;
      }, writes);
      if (writes.isEmpty() && reads.size() <= 1) {
        return answer; // one read is atomic by itself: nothing to validate
      }
      List<PartitionUpdate> atOwner = new ArrayList<>();
      List<PartitionUpdate> elsewhere = new ArrayList<>();
      for (PartitionUpdate u : writes) {
        (ownerOf(r, u).equals(owner) ? atOwner : elsewhere).add(u);
      }
      byte[] applied = call(owner, verb, RingCodec.commit(new RingCodec.CommitRequest(keyspace, table, key,
          counter, reads, digests, atOwner)), cl, writeType);
      if (RingCodec.applied(applied)) {
        if (!elsewhere.isEmpty()) {
          route(elsewhere, cl, writeType, request);
        }
        return answer;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new CoordinatorException.Timeout(cl, 0, 1, writeType);
      }
      // Someone else changed the partition between our read and our commit: back off a little
      // (randomised, so two coordinators do not keep colliding) and run the operation again.
      LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(
          ThreadLocalRandom.current().nextLong(50, 200L << Math.min(attempt, 6))));
    }
  }

  // ------------------------------------------------------------------ routing

  /** Sends each owner its updates as one mutation (this node's part applied here) and waits for all. */
  private void route(List<PartitionUpdate> updates, ConsistencyLevel cl, String writeType, Request request) {
    TokenRing r = ring.get();
    Map<Endpoint, List<PartitionUpdate>> byOwner = new LinkedHashMap<>();
    for (PartitionUpdate u : updates) {
      if (!nodeLocal(u.keyspace())) {
        requireTable(u.keyspace(), u.table());
      }
      byOwner.computeIfAbsent(ownerOf(r, u), e -> new ArrayList<>()).add(u);
    }
    for (Map.Entry<Endpoint, List<PartitionUpdate>> e : byOwner.entrySet()) {
      if (!r.isAlive(e.getKey())) {
        throw unavailable(e.getValue().get(0).keyspace(), cl);
      }
    }
    Map<Endpoint, CompletableFuture<Message>> sent = new LinkedHashMap<>();
    for (Map.Entry<Endpoint, List<PartitionUpdate>> e : byOwner.entrySet()) {
      if (!e.getKey().equals(r.self())) {
        sent.put(e.getKey(), send(e.getKey(), Verb.MUTATION_REQ, RingCodec.mutation(e.getValue())));
      }
    }
    List<PartitionUpdate> mine = byOwner.get(r.self());
    if (mine != null) {
      local.write(new Mutation(mine), internal(request));
    }
    awaitAll(sent, cl, writeType, 1, mine != null ? 1 : 0);
  }

  /** Waits for every future; the first failure is thrown after all have completed. */
  private void awaitAll(Map<Endpoint, CompletableFuture<Message>> sent, ConsistencyLevel cl, String writeType,
                        int blockFor, int receivedBefore) {
    RuntimeException first = null;
    int received = receivedBefore;
    for (Map.Entry<Endpoint, CompletableFuture<Message>> e : sent.entrySet()) {
      try {
        await(e.getValue(), e.getKey(), cl, writeType);
        received++;
      } catch (RuntimeException ex) {
        first = first == null ? ex : first;
      }
    }
    if (first != null) {
      if (first instanceof CoordinatorException.Timeout t) {
        throw new CoordinatorException.Timeout(cl, Math.min(received, blockFor - 1), blockFor, writeType);
      }
      throw first;
    }
  }

  private CompletableFuture<Message> send(Endpoint to, Verb verb, byte[] payload) {
    return messaging.sendWithCallback(messaging.peer(to.address()), Message.out(verb, payload));
  }

  /** A request/response to {@code to}; failures become the coordinator's exceptions. */
  private byte[] call(Endpoint to, Verb verb, byte[] payload, ConsistencyLevel cl, String writeType) {
    return await(send(to, verb, payload), to, cl, writeType);
  }

  private byte[] await(CompletableFuture<Message> f, Endpoint to, ConsistencyLevel cl, String writeType) {
    try {
      Message answer = f.get(SAFETY_WAIT_SECONDS, TimeUnit.SECONDS);
      if (awaitEpoch != null && answer.epoch() > ring.get().epoch()) {
        awaitEpoch.apply(answer.epoch()); // the replica is ahead: start catching up, do not wait
      }
      return answer.payload();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RequestTimeoutException) {
        throw new CoordinatorException.Timeout(cl, 0, 1, writeType);
      }
      RequestFailureReason reason = cause instanceof RequestFailureException rf ? rf.reason()
          : RequestFailureReason.UNKNOWN;
      String from = "/" + to.address().getHostAddress() + ":" + messaging.address().getPort();
      throw new CoordinatorException.Failure(cl, 0, 1, Map.of(to.address(), reason.code), writeType,
          "Operation failed - received 0 responses and 1 failures: " + reason + " from " + from);
    } catch (TimeoutException e) {
      f.cancel(false);
      throw new CoordinatorException.Timeout(cl, 0, 1, writeType);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinatorException.Timeout(cl, 0, 1, writeType);
    }
  }

  // ------------------------------------------------------------------ helpers

  /** The node a partition of {@code keyspace} lives on; Unavailable when it is down. */
  private Endpoint liveOwner(TokenRing r, String keyspace, long token, ConsistencyLevel cl) {
    Endpoint owner = r.owner(token);
    if (!r.isAlive(owner)) {
      throw unavailable(keyspace, cl);
    }
    return owner;
  }

  /** The copy that holds the data (the primary until issue 16 replicates) is down: alive 0. */
  private CoordinatorException.Unavailable unavailable(String keyspace, ConsistencyLevel cl) {
    int required = cl == ConsistencyLevel.ANY ? 1
        : Math.max(1, ReplicaCount.blockFor(cl, local.strategy(keyspace), ring.get().topology().localDatacenter()));
    return new CoordinatorException.Unavailable(cl, required, 0);
  }

  private Endpoint ownerOf(TokenRing r, PartitionUpdate u) {
    return nodeLocal(u.keyspace()) ? r.self() : r.owner(Murmur3Token.of(u.key()));
  }

  private boolean nodeLocal(String keyspace) {
    return local.strategy(keyspace) instanceof LocalStrategy;
  }

  private boolean allNodeLocal(List<PartitionUpdate> updates) {
    for (PartitionUpdate u : updates) {
      if (!nodeLocal(u.keyspace())) {
        return false;
      }
    }
    return true;
  }

  private void requireTable(String keyspace, String table) {
    if (local.table(keyspace, table).isEmpty()) {
      throw new CoordinatorException.UnknownTable(keyspace, table);
    }
  }

  private void checkLevel(String keyspace, ConsistencyLevel cl) {
    if (cl == ConsistencyLevel.ONE || cl == ConsistencyLevel.LOCAL_ONE || cl == ConsistencyLevel.ANY) {
      return;
    }
    ReplicationStrategy strategy = local.strategy(keyspace);
    ReplicaCount.check(cl, strategy, ring.get().topology());
  }

  private static void checkRead(ConsistencyLevel cl) {
    LevelRules.forRead(cl);
  }

  /** The level was checked here against the ring; the local engine call needs ONE. */
  static Request internal(Request request) {
    return new Request(ConsistencyLevel.ONE, request.serialConsistency(), request.timeout(), request.client());
  }

  private static Set<String> keyspaces(List<PartitionUpdate> updates) {
    Set<String> out = new LinkedHashSet<>();
    for (PartitionUpdate u : updates) {
      out.add(u.keyspace());
    }
    return out;
  }
}
