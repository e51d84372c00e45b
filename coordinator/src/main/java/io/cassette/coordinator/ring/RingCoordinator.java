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
import io.cassette.coordinator.replication.Topology;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.ring.paxos.BallotClock;
import io.cassette.coordinator.ring.paxos.PaxosCoordinator;
import io.cassette.coordinator.ring.paxos.PaxosReplica;
import io.cassette.coordinator.ring.paxos.PaxosStore;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.index.IndexQuery;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The coordinator of a ring: each partition lives on the replicas of its token
 * ({@link TokenRing#replicas}, Cassandra's SimpleStrategy / NetworkTopologyStrategy placement)
 * and any node coordinates a request at the client's consistency level. {@link ReplicaHandlers}
 * executes peers' requests on {@code local}. Node-local keyspaces (the system keyspaces:
 * {@link LocalStrategy}) never leave the node. Thread-safe.
 *
 * <ul>
 *   <li>Levels are checked against the ring's {@link io.cassette.coordinator.replication.Topology}
 *       as on one node, then against the live replicas of each token ({@link LevelAcks}):
 *       {@link CoordinatorException.Unavailable} at once when too few are alive.
 *   <li>Writes go to every replica and return at the level's blockFor ({@link WriteFanOut});
 *       replicas that are down or silent are left to the {@link HintSink}.
 *   <li>Reads: data from one replica, digests from the others the level needs, speculative
 *       retry, blocking read repair on a mismatch ({@link ConsistentRead}); scans ask each
 *       range's replicas and merge ({@link RingScan}).
 *   <li>No answer in time: {@link CoordinatorException.Timeout} (received, blockfor, write type or
 *       data_present); FAILURE_RSPs that make the level unreachable: {@link CoordinatorException.Failure}.
 *   <li>Compare-and-set, serial reads and read-modify-write (counters): a Paxos round among the
 *       partition's replicas ({@link PaxosCoordinator}, package {@code paxos}), committed at the level.
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
  private volatile io.cassette.coordinator.ring.batchlog.Batchlog batchlog;
  private final ReadLatencies latencies = new ReadLatencies();
  private volatile BiFunction<String, String, ReadPolicy> readPolicies = (ks, t) -> ReadPolicy.DEFAULT;
  private final WriteFanOut writes;
  private final PairedViewReplicas viewReplicas;
  private final ConsistentRead reads;
  private volatile PaxosStore paxosStore;
  private volatile LongSupplier wallMicros = () -> System.currentTimeMillis() * 1000;
  private PaxosCoordinator paxos;
  /** Checks fenced writes (the Redis door's executor leases) before they are applied here. */
  private volatile io.cassette.coordinator.FenceGuard fenceGuard = io.cassette.coordinator.FenceGuard.NONE;

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
    this.writes = new WriteFanOut(local, messaging, hints, this::observe, () -> fenceGuard);
    // As a base replica this node sends view updates to its paired view replicas (Cassandra's rule).
    this.viewReplicas = new PairedViewReplicas(local, messaging, ring, hints);
    local.viewUpdateSink(viewReplicas);
    this.reads = new ConsistentRead(local, messaging, latencies, () -> readPolicies, this::observe);
  }

  /**
   * Where the tables' {@code read_repair} and {@code speculative_retry} come from (the front
   * door that owns the table options); {@link ReadPolicy#DEFAULT} for every table until set.
   */
  public void readPolicies(BiFunction<String, String, ReadPolicy> policies) {
    this.readPolicies = policies;
  }

  /** An answer from a replica that is at a newer epoch starts this node's catch-up (no waiting). */
  private void observe(Message answer) {
    if (awaitEpoch != null && answer.epoch() > ring.get().epoch()) {
      awaitEpoch.apply(answer.epoch());
    }
  }

  /**
   * LOGGED batches of several partitions go through {@code batchlog} (null: none, atomic per node
   * only), and so do, as local batches, the view updates this node sends as a base replica. Its
   * replay learns from this node's schema which tables were dropped.
   */
  public void batchlog(io.cassette.coordinator.ring.batchlog.Batchlog batchlog) {
    if (batchlog != null) {
      batchlog.tables((keyspace, table) -> local.table(keyspace, table).isPresent()); // replay skips dropped tables
    }
    this.batchlog = batchlog;
    viewReplicas.batchlog(batchlog);
  }

  /**
   * Where this node keeps its Paxos state ({@link PaxosStore#open}: durable; default: in memory).
   * Call before {@link #registerHandlers}.
   */
  public void paxosState(PaxosStore store) {
    this.paxosStore = store;
  }

  /** This node's clock for ballots, in µs (the server's, with any configured offset); any time. */
  public void clock(LongSupplier wallMicros) {
    this.wallMicros = wallMicros;
  }

  private synchronized PaxosCoordinator paxos() {
    if (paxos == null) {
      PaxosStore store = paxosStore != null ? paxosStore : PaxosStore.inMemory();
      Endpoint self = ring.get().self();
      paxos = new PaxosCoordinator(new PaxosReplica(local, store), self, messaging,
          new BallotClock(self.hostId(), () -> wallMicros.getAsLong()));
    }
    return paxos;
  }

  /**
   * What checks a fenced write's epoch (a {@link io.cassette.coordinator.Request#fence}) before this
   * node applies it, as a replica or for its own part of a write it coordinates; any time.
   */
  public void fenceGuard(io.cassette.coordinator.FenceGuard guard) {
    this.fenceGuard = guard == null ? io.cassette.coordinator.FenceGuard.NONE : guard;
  }

  /** This node's Paxos registers (for paxos repair of ring changes). */
  public PaxosStore paxosStore() {
    return paxos().replica().store();
  }

  /** Registers the verb handlers that execute peers' requests on {@code local}. */
  public void registerHandlers() {
    new ReplicaHandlers(local, messaging, ring, awaitEpoch, () -> fenceGuard).register();
    paxos().replica().register(messaging);
  }

  /** The current ring snapshot. */
  public TokenRing ring() {
    return ring.get();
  }

  @Override
  public io.cassette.coordinator.view.ViewRegistry views() {
    return local.views(); // the replicas' write path (local.write) computes the view updates
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
    if (cl.isSerial()) {
      checkPaxosRound(keyspace, cl);
    } else {
      checkLevel(keyspace, cl);
    }
    requireTable(keyspace, table);
    TokenRing r = ring.get();
    if (cl.isSerial()) {
      // A serial read is a Paxos round that proposes nothing (it completes a round in progress).
      return viaPaxos(keyspace, table, partitionKey, cl, null, null, request, (current, writes) -> current.read(query));
    }
    return reads.read(r, keyspace, table, partitionKey, query, cl, null, false, null);
  }

  /** As {@link #read}, no thread waiting for the replicas ({@link ConsistentRead#readAsync}); serial reads wait. */
  @Override
  public CompletableFuture<PartitionView> readAsync(String keyspace, String table, byte[] partitionKey,
                                                    ReadQuery query, Request request) {
    ConsistencyLevel cl = request.consistency();
    if (nodeLocal(keyspace) || cl.isSerial()) {
      return Coordinator.super.readAsync(keyspace, table, partitionKey, query, request);
    }
    try {
      checkRead(cl);
      checkLevel(keyspace, cl);
      requireTable(keyspace, table);
      return reads.readAsync(ring.get(), keyspace, table, partitionKey, query, cl, null, false, null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public Optional<Table> storedTable(String keyspace, String name) {
    return local.localTable(keyspace, name);
  }

  @Override
  public boolean indexScansOnReplicas() {
    return true;
  }

  @Override
  public Table.CloseableIterator<PartitionView> scan(String keyspace, String table, KeyRange range,
                                                     ReadQuery query, Request request) {
    return scan(keyspace, table, range, query, null, request);
  }

  /**
   * An index query goes where a scan would, range by range, to the replicas the level needs;
   * each answers from its own storage-attached indexes ({@link ReplicaHandlers#page}).
   */
  @Override
  public Table.CloseableIterator<PartitionView> indexScan(String keyspace, String table, KeyRange range,
                                                          ReadQuery query, IndexQuery index, Request request) {
    return scan(keyspace, table, range, query, index, request);
  }

  private Table.CloseableIterator<PartitionView> scan(String keyspace, String table, KeyRange range,
                                                      ReadQuery query, IndexQuery index, Request request) {
    if (nodeLocal(keyspace)) {
      return index == null ? local.scan(keyspace, table, range, query, request)
          : local.indexScan(keyspace, table, range, query, index, request);
    }
    ConsistencyLevel cl = request.consistency();
    checkRead(cl);
    checkLevel(keyspace, cl);
    requireTable(keyspace, table);
    TokenRing r = ring.get();
    ReplicationStrategy strategy = local.strategy(keyspace);
    List<RingScan.Segment> segments = new ArrayList<>();
    for (TokenRing.Owned o : RingScan.touched(r, range)) {
      RingScan.append(segments, o.range(), reads.contacts(r, strategy, r.replicas(o.range(), strategy), cl));
    }
    return new RingScan(this, r.self(), keyspace, table, range, query, index, request, segments,
        readPolicies.apply(keyspace, table).blockingReadRepair());
  }

  /** One page of a peer's part of a scan (used by {@link RingScan}). */
  RingCodec.Page fetchPage(Endpoint owner, String keyspace, String table, KeyRange range, ReadQuery query,
                           IndexQuery index, int maxPartitions, ConsistencyLevel cl) {
    byte[] answer = call(owner, Verb.RANGE_REQ, RingCodec.range(new RingCodec.RangeRequest(keyspace, table,
        range, query, maxPartitions, ReplicaHandlers.MAX_PAGE_BYTES, false, index)), cl, null);
    return RingCodec.page(answer);
  }

  /**
   * A page of the same range from each of {@code contacts}, asked in parallel (this node's read
   * here), unfiltered (with tombstones) so that the pages reconcile as single-partition reads do.
   */
  List<RingCodec.UnfilteredPage> fetchPages(List<Endpoint> contacts, String keyspace, String table, KeyRange range,
                                  ReadQuery query, IndexQuery index, int maxPartitions, ConsistencyLevel cl) {
    RingCodec.RangeRequest request = new RingCodec.RangeRequest(keyspace, table, range, query, maxPartitions,
        ReplicaHandlers.MAX_PAGE_BYTES, true, index);
    byte[] payload = RingCodec.range(request);
    Endpoint self = ring.get().self();
    List<CompletableFuture<Message>> sent = new ArrayList<>();
    for (Endpoint e : contacts) {
      sent.add(e.equals(self) ? null : send(e, Verb.RANGE_REQ, payload));
    }
    List<RingCodec.UnfilteredPage> pages = new ArrayList<>();
    int received = 0;
    for (int i = 0; i < contacts.size(); i++) {
      byte[] answer;
      if (sent.get(i) == null) {
        answer = ReplicaHandlers.page(local, request);
      } else {
        try {
          answer = await(sent.get(i), contacts.get(i), cl, null);
        } catch (CoordinatorException.Timeout e) {
          throw new CoordinatorException.Timeout(cl, received, contacts.size(), null, received > 0);
        }
      }
      received++;
      pages.add(RingCodec.unfilteredPage(answer, keyspace, table));
    }
    return pages;
  }

  /** Writes back what the replicas of a scanned range lacked, and waits (blocking read repair). */
  void repairRange(Map<Endpoint, List<PartitionUpdate>> repairs, ConsistencyLevel cl, int blockFor) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(
        messaging.config().timeouts().millis(Verb.RANGE_REQ));
    reads.repair(ring.get(), repairs, deadline, cl, blockFor, null);
  }

  /** This node's part of a scan (used by {@link RingScan}). */
  Table.CloseableIterator<PartitionView> localScan(String keyspace, String table, KeyRange range, ReadQuery query,
                                                   IndexQuery index, Request request) {
    return index == null ? local.scan(keyspace, table, range, query, internal(request))
        : local.indexScan(keyspace, table, range, query, index, internal(request));
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

  /** As {@link #write}, without a thread waiting for the replicas: see {@link WriteFanOut#start}. */
  @Override
  public CompletableFuture<Void> writeAsync(Mutation mutation, Request request) {
    try {
      ConsistencyLevel cl = request.consistency();
      if (allNodeLocal(mutation.updates())) {
        local.write(mutation, request);
        return CompletableFuture.completedFuture(null);
      }
      LevelRules.forWrite(cl);
      for (String ks : keyspaces(mutation.updates())) {
        checkLevel(ks, cl);
      }
      requireTables(mutation.updates());
      return writes.start(ring.get(), mutation.updates(), cl, "SIMPLE", request, null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
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
    io.cassette.coordinator.ring.batchlog.Batchlog log = batchlog;
    if (type == BatchType.LOGGED && log != null && updates.size() > 1) {
      // Atomic across replicas (issue 16): in the batch log on two other nodes first, which
      // replay it if this node dies before every replica has it (Cassandra: more than one partition).
      log.write(updates, request.consistency(), u -> route(u, request.consistency(), "BATCH", request));
      return;
    }
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
    checkPaxosRound(keyspace, request.serialConsistency());
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

  /**
   * Counters, list-by-index updates and compare-and-set on a ring: a Paxos round among the
   * partition's replicas at the serial level (CAS: the request's serial consistency; others:
   * SERIAL, or LOCAL_SERIAL for a data-centre-local level), its updates committed at the
   * request's level. Counters and list updates go through Paxos too because they are stored
   * as values, not as Cassandra's counter shards: a read and a write that must not interleave
   * with another coordinator's, whatever the failure detectors believe.
   */
  private <R> R readModifyWrite(String keyspace, String table, byte[] key, boolean counter,
                                PartitionOperation<R> operation, Request request, String writeType) {
    ConsistencyLevel writeCl = request.consistency();
    ConsistencyLevel serial = writeType.equals("CAS") ? request.serialConsistency()
        : writeCl.isDatacenterLocal() ? ConsistencyLevel.LOCAL_SERIAL : ConsistencyLevel.SERIAL;
    return viaPaxos(keyspace, table, key, serial, writeCl, writeType, request, operation);
  }

  /** One Paxos round; {@code commitCl} null: a serial read (nothing to commit). */
  private <R> R viaPaxos(String keyspace, String table, byte[] key, ConsistencyLevel serial, ConsistencyLevel commitCl,
                         String writeType, Request request, PartitionOperation<R> operation) {
    requireTable(keyspace, table);
    TokenRing r = ring.get();
    ReplicationStrategy strategy = local.strategy(keyspace);
    List<Endpoint> replicas = r.replicas(Murmur3Token.of(key), strategy);
    // A ring change in progress: its pending replicas take part in prepare, propose and commit
    // and raise both quorums, as Cassandra's Paxos participants (natural + pending, blockFor +
    // pending), so a decided value is on a quorum of the replicas after the change too.
    List<Endpoint> pending = r.pending(Murmur3Token.of(key), strategy);
    if (!pending.isEmpty()) {
      replicas = new ArrayList<>(replicas);
      replicas.addAll(pending);
    }
    ConsistencyLevel roundCl = LevelRules.paxosRound(serial);
    try {
      LevelAcks.requireAlive(roundCl, strategy, r, replicas, pending);
    } catch (CoordinatorException.Unavailable e) {
      // Cassandra names the serial level (SERIAL / LOCAL_SERIAL), not the quorum it stands for.
      throw new CoordinatorException.Unavailable(serial, e.required, e.alive);
    }
    boolean commits = commitCl != null && commitCl != ConsistencyLevel.ANY;
    if (commits) {
      LevelAcks.requireAlive(commitCl, strategy, r, replicas, pending);
    }
    LevelAcks roundAcks = new LevelAcks(roundCl, strategy, r).withPending(pending);
    LevelAcks commitAcks = commits ? new LevelAcks(commitCl, strategy, r).withPending(pending) : null;
    List<Endpoint> participants = new ArrayList<>();
    List<Endpoint> commitCounting = new ArrayList<>();
    List<Endpoint> alive = new ArrayList<>();
    for (Endpoint e : replicas) {
      if (!r.isAlive(e)) {
        continue;
      }
      alive.add(e);
      if (roundAcks.counts(e)) {
        participants.add(e);
      }
      if (commitAcks != null && commitAcks.counts(e)) {
        commitCounting.add(e);
      }
    }
    PaxosCoordinator.Round round = new PaxosCoordinator.Round(keyspace, table, key, participants,
        roundAcks.blockFor(), alive, commitCounting, commitAcks == null ? 0 : commitAcks.blockFor(),
        serial, commitCl == null ? serial : commitCl, writeType, System.nanoTime() + request.timeout().toNanos());
    PaxosCoordinator.Outcome<R> outcome = paxos().execute(round, operation);
    if (!outcome.elsewhere().isEmpty()) {
      // Index entries (other partitions): written after the decision, not atomically with it.
      writes.write(r, outcome.elsewhere(), commitCl == null ? ConsistencyLevel.QUORUM : commitCl,
          writeType == null ? "SIMPLE" : writeType, request, null);
    }
    return outcome.answer();
  }

  private boolean replicaOf(TokenRing r, PartitionUpdate u, Endpoint e) {
    return nodeLocal(u.keyspace()) ? e.equals(r.self())
        : r.replicas(Murmur3Token.of(u.key()), local.strategy(u.keyspace())).contains(e);
  }

  private int blockFor(String keyspace, ConsistencyLevel cl) {
    return cl == ConsistencyLevel.ANY ? 1
        : Math.max(1, ReplicaCount.blockFor(cl, local.strategy(keyspace), ring.get().topology().localDatacenter()));
  }

  // ------------------------------------------------------------------ routing

  /** Sends each partition's update to all its replicas and waits for the level ({@link WriteFanOut}). */
  private void route(List<PartitionUpdate> updates, ConsistencyLevel cl, String writeType, Request request) {
    requireTables(updates);
    writes.write(ring.get(), updates, cl, writeType, request, null);
  }

  private void requireTables(List<PartitionUpdate> updates) {
    for (PartitionUpdate u : updates) {
      if (!nodeLocal(u.keyspace())) {
        requireTable(u.keyspace(), u.table());
      }
    }
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

  /** No live replica at all: alive 0. */
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

  /**
   * The live replicas a Paxos round at {@code serial} needs, checked before it starts, as
   * Cassandra 5.0.4 reports them: fewer alive than a quorum of the replicas that exist (its Paxos
   * electorate) is Unavailable at the serial level itself (SERIAL / LOCAL_SERIAL: a 3-node ring
   * with 2 nodes down, bench/results/2026-12-02-lwt-differential-ring.txt); a quorum of those but
   * not of the replication factor (fewer nodes than RF) is Unavailable at QUORUM / LOCAL_QUORUM,
   * the level of the round's read and commit (one node with RF 3, coordinator/README.md).
   */
  private void checkPaxosRound(String keyspace, ConsistencyLevel serial) {
    ReplicationStrategy strategy = local.strategy(keyspace);
    Topology topology = ring.get().topology();
    ConsistencyLevel round = LevelRules.paxosRound(serial);
    int electorate = 0;
    if (serial.isDatacenterLocal() || !strategy.isDatacenterAware()) {
      String dc = topology.localDatacenter();
      electorate = strategy.isDatacenterAware()
          ? Math.min(strategy.replicationFactor(dc), topology.nodes(dc))
          : Math.min(strategy.replicationFactor(), serial.isDatacenterLocal() ? topology.nodes(dc) : topology.totalNodes());
    } else {
      for (String dc : strategy.datacenters().keySet()) {
        electorate += Math.min(strategy.replicationFactor(dc), topology.nodes(dc));
      }
    }
    int alive = ReplicaCount.alive(round, strategy, topology);
    int needed = ReplicaCount.quorum(electorate);
    if (alive < needed) {
      throw new CoordinatorException.Unavailable(serial, needed, alive);
    }
    checkLevel(keyspace, round);
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
