package io.cassette.coordinator.local;

import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.LevelRules;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.PartitionOperation;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.LocalMetadataLog;
import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicaCount;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.replication.Topology;
import io.cassette.coordinator.view.ViewRegistry;
import io.cassette.coordinator.view.ViewRowRestamp;
import io.cassette.coordinator.view.ViewUpdateSink;
import io.cassette.coordinator.view.ViewUpdates;
import io.cassette.storage.Engine;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The coordinator of a one-node ring: every replica is this node, so a call checks the
 * consistency level against the keyspace's replication factor (one copy alive) and then is a
 * local call to the {@link Engine}. Read-modify-writes of a partition are serialised by
 * partition locks. Thread-safe.
 */
public final class LocalCoordinator implements Coordinator {
  private final Engine engine;
  private final Topology topology;
  private final MetadataLog metadata;
  private final PartitionLocks locks = new PartitionLocks();
  /** Base tables with materialized views; their writes read before they write (see {@link #applyWithViews}). */
  private final ViewRegistry views = new ViewRegistry();
  /** Where view updates go: with the base write on one node; to the paired view replica on a ring. */
  private volatile ViewUpdateSink viewSink = ViewUpdateSink.LOCAL;
  /** Strategies by keyspace, rebuilt lazily when the metadata changes. */
  private final Map<String, ReplicationStrategy> strategies = new ConcurrentHashMap<>();

  private LocalCoordinator(Engine engine, Topology topology,
                           Function<BiConsumer<ClusterMetadata, ClusterMetadata>, MetadataLog> metadataLog) {
    this.engine = engine;
    this.topology = topology;
    this.metadata = metadataLog.apply(new StorageSchemaSync(engine));
    this.metadata.listen((entry, after) -> strategies.clear());
  }

  /**
   * A coordinator over {@code engine} for a node in data centre {@code datacenter} (null:
   * {@code datacenter1}); opens and replays the metadata log.
   */
  public static LocalCoordinator open(Engine engine, String datacenter) {
    return new LocalCoordinator(engine, Topology.singleNode(datacenter), sync -> LocalMetadataLog.open(engine, sync));
  }

  /**
   * A coordinator whose metadata log is made by {@code metadataLog} (the ring's, replicated),
   * given the function that makes storage match a metadata change {@code (before, after)}:
   * the log calls it for every entry it applies, whichever node committed it.
   */
  public static LocalCoordinator open(Engine engine, String datacenter,
                                      Function<BiConsumer<ClusterMetadata, ClusterMetadata>, MetadataLog> metadataLog) {
    return new LocalCoordinator(engine, Topology.singleNode(datacenter), metadataLog);
  }

  @Override
  public ViewRegistry views() {
    return views;
  }

  /** Where this node, as a base replica, sends view updates (the ring sets its paired-replica routing). */
  public void viewUpdateSink(ViewUpdateSink sink) {
    this.viewSink = sink;
  }

  /** The node's view of the ring (one node, alive). */
  public Topology topology() {
    return topology;
  }

  @Override
  public MetadataLog metadata() {
    return metadata;
  }

  @Override
  public Optional<TableSpec> table(String keyspace, String name) {
    return engine.table(keyspace, name).map(Table::spec);
  }

  // ------------------------------------------------------------------ data

  @Override
  public Optional<Table> localTable(String keyspace, String name) {
    return engine.table(keyspace, name);
  }

  @Override
  public PartitionView read(String keyspace, String table, byte[] partitionKey, ReadQuery query,
                            Request request) {
    ConsistencyLevel cl = request.consistency();
    checkRead(cl);
    if (cl.isSerial()) {
      // A serial read is a Paxos round: Cassandra reports its QUORUM / LOCAL_QUORUM.
      check(keyspace, cl == ConsistencyLevel.SERIAL ? ConsistencyLevel.QUORUM : ConsistencyLevel.LOCAL_QUORUM);
      ReentrantLock lock = lock(keyspace, table, partitionKey, request, null);
      try {
        return local(keyspace, table).read(partitionKey, query);
      } finally {
        lock.unlock();
      }
    }
    check(keyspace, cl);
    return local(keyspace, table).read(partitionKey, query);
  }

  /**
   * One partition with its tombstones ({@link Table#readUnfiltered}): what a replica answers a
   * ring coordinator with, so that deletions reconcile. Not a serial read.
   */
  public PartitionUpdate readUnfiltered(String keyspace, String table, byte[] partitionKey, ReadQuery query,
                                        Request request) {
    checkRead(request.consistency());
    check(keyspace, request.consistency());
    return local(keyspace, table).readUnfiltered(partitionKey, query);
  }

  /** Partitions of a range with their tombstones ({@link Table#scanUnfiltered}): a replica's page of a ring scan. */
  public Table.CloseableIterator<PartitionUpdate> scanUnfiltered(String keyspace, String table, KeyRange range,
                                                                 ReadQuery query, Request request) {
    checkRead(request.consistency());
    check(keyspace, request.consistency());
    return local(keyspace, table).scanUnfiltered(range, query);
  }

  @Override
  public Table.CloseableIterator<PartitionView> indexScan(String keyspace, String table, KeyRange range,
                                                          ReadQuery query, io.cassette.storage.index.IndexQuery index,
                                                          Request request) {
    checkRead(request.consistency());
    check(keyspace, request.consistency());
    return io.cassette.storage.index.IndexedScan.live(local(keyspace, table), range, query, index);
  }

  /** As {@link #indexScan}, with tombstones: a replica's page of an index read several replicas answer. */
  public Table.CloseableIterator<PartitionUpdate> indexScanUnfiltered(String keyspace, String table, KeyRange range,
                                                                      ReadQuery query,
                                                                      io.cassette.storage.index.IndexQuery index,
                                                                      Request request) {
    checkRead(request.consistency());
    check(keyspace, request.consistency());
    return io.cassette.storage.index.IndexedScan.unfiltered(local(keyspace, table), range, query, index);
  }

  @Override
  public Table.CloseableIterator<PartitionView> scan(String keyspace, String table, KeyRange range,
                                                     ReadQuery query, Request request) {
    checkRead(request.consistency());
    check(keyspace, request.consistency());
    return local(keyspace, table).scan(range, query);
  }

  @Override
  public void write(Mutation mutation, Request request) {
    ConsistencyLevel cl = request.consistency();
    LevelRules.forWrite(cl);
    if (mutation.updates().size() == 1 && views.isEmpty()) { // the common case, without building a set of one
      PartitionUpdate u = mutation.updates().get(0);
      check(u.keyspace(), cl);
      local(u.keyspace(), u.table()).apply(u);
      return;
    }
    for (String ks : keyspaces(mutation.updates())) {
      check(ks, cl);
    }
    apply(mutation.updates(), request);
  }

  @Override
  public void batch(List<PartitionUpdate> updates, BatchType type, Request request) {
    // A batch at SERIAL is a write that needs a serial quorum (Cassandra: Unavailable, not
    // "use conditional updates").
    for (String ks : keyspaces(updates)) {
      check(ks, request.consistency());
    }
    // One node: logged and unlogged alike are one commit-log record (without views).
    apply(updates, request);
  }

  @Override
  public <R> R compareAndSet(String keyspace, String table, byte[] partitionKey,
                             PartitionOperation<R> operation, Request request) {
    ConsistencyLevel commit = request.consistency();
    LevelRules.forCasCommit(commit);
    ConsistencyLevel serial = request.serialConsistency();
    // Paxos prepare needs a quorum; Cassandra's Unavailable names QUORUM / LOCAL_QUORUM.
    check(keyspace, LevelRules.paxosRound(serial));
    if (commit != ConsistencyLevel.ANY) {
      check(keyspace, commit);
    }
    return underLock(keyspace, table, partitionKey, operation, request, "CAS");
  }

  @Override
  public <R> R readModifyWrite(String keyspace, String table, byte[] partitionKey, boolean counter,
                               PartitionOperation<R> operation, Request request) {
    ConsistencyLevel cl = request.consistency();
    LevelRules.forReadModifyWrite(cl, counter, table);
    check(keyspace, cl);
    return underLock(keyspace, table, partitionKey, operation, request, counter ? "COUNTER" : "SIMPLE");
  }

  @Override
  public void truncate(String keyspace, String table, Request request) {
    // Cassandra needs every node up for TRUNCATE, not a number of replicas: one node always is.
    local(keyspace, table).truncate();
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Applies {@code updates}: as one commit-log record when no table written has views; else
   * the others as one record and each base partition on its own, held by its partition lock
   * while it is read, its view updates computed and both applied ({@link #applyWithViews}).
   */
  private void apply(List<PartitionUpdate> updates, Request request) {
    if (updates.isEmpty()) {
      return;
    }
    if (!views.isEmpty()) {
      List<PartitionUpdate> plain = new ArrayList<>(updates.size());
      List<PartitionUpdate> bases = new ArrayList<>(1);
      long now = System.currentTimeMillis() / 1000;
      for (PartitionUpdate u : updates) {
        if (views.isView(u.keyspace(), u.table())) {
          // A view update from a base replica (the ring's paired replica, or a view build).
          plain.add(ViewRowRestamp.apply(local(u.keyspace(), u.table()), u, now));
          continue;
        }
        (views.of(u.keyspace(), u.table()) == null ? plain : bases).add(u);
      }
      if (!bases.isEmpty()) {
        if (!plain.isEmpty()) {
          engine.apply(new Mutation(plain));
        }
        for (PartitionUpdate u : bases) {
          applyWithViews(u, views.of(u.keyspace(), u.table()), request);
        }
        return;
      }
      updates = plain;
    }
    if (updates.size() == 1) {
      PartitionUpdate u = updates.get(0);
      local(u.keyspace(), u.table()).apply(u);
    } else {
      engine.apply(new Mutation(updates));
    }
  }

  /**
   * A write to a base table with materialized views, as a base replica does it: with the
   * partition locked (so two writes of one row cannot both compute from the same old row), read
   * what the write changes, compute the views' updates from that, and apply the base write with
   * the view updates this node keeps in one commit-log record (one node: all of them, so a crash
   * never leaves a view behind its base); the rest go to their view replicas ({@link #viewSink}).
   */
  private void applyWithViews(PartitionUpdate update, ViewUpdates viewUpdates, Request request) {
    Table base = local(update.keyspace(), update.table());
    ReentrantLock lock = lock(update.keyspace(), update.table(), update.key(), request, "SIMPLE");
    try {
      long now = System.currentTimeMillis() / 1000;
      PartitionUpdate before = base.readUnfiltered(update.key(), viewUpdates.readBefore(update, now));
      List<PartitionUpdate> computed = viewUpdates.compute(update, before, now);
      List<PartitionUpdate> mine = computed.isEmpty() ? computed : viewSink.route(update, computed);
      if (mine.isEmpty()) {
        base.apply(update);
        return;
      }
      List<PartitionUpdate> all = new ArrayList<>(1 + mine.size());
      all.add(update);
      for (PartitionUpdate v : mine) {
        all.add(ViewRowRestamp.apply(local(v.keyspace(), v.table()), v, now));
      }
      engine.apply(new Mutation(all));
    } finally {
      lock.unlock();
    }
  }

  private <R> R underLock(String keyspace, String table, byte[] key, PartitionOperation<R> operation,
                          Request request, String writeType) {
    Table t = local(keyspace, table);
    ReentrantLock lock = lock(keyspace, table, key, request, writeType);
    try {
      List<PartitionUpdate> writes = new ArrayList<>();
      R answer = operation.run(q -> t.read(key, q), writes);
      apply(writes, request);
      return answer;
    } finally {
      lock.unlock();
    }
  }

  /** Takes the partition's lock within the request's timeout (Cassandra: a CAS write timeout). */
  private ReentrantLock lock(String keyspace, String table, byte[] key, Request request, String writeType) {
    ReentrantLock lock = locks.lockFor(keyspace, table, key);
    try {
      if (!lock.tryLock(Math.max(1, request.timeout().toNanos()), TimeUnit.NANOSECONDS)) {
        throw new CoordinatorException.Timeout(request.consistency(), 0, 1, writeType);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CoordinatorException.Timeout(request.consistency(), 0, 1, writeType);
    }
    return lock;
  }

  /**
   * Repair's validation: the content digests of this node's partitions of a token range of the
   * table ({@link Table#digests}), in token order; close it.
   */
  public Table.CloseableIterator<io.cassette.storage.TokenDigest> digests(String keyspace, String table,
      long startTokenExclusive, long endToken, long nowInSeconds) {
    return local(keyspace, table).digests(startTokenExclusive, endToken, nowInSeconds);
  }

  /** A sink writing streamed partitions of the table straight into SSTables ({@link Table#sink}). */
  public io.cassette.storage.SSTableSink streamSink(String keyspace, String table) {
    return local(keyspace, table).sink();
  }

  private Table local(String keyspace, String table) {
    return engine.table(keyspace, table).orElseThrow(() -> new CoordinatorException.UnknownTable(keyspace, table));
  }

  private static void checkRead(ConsistencyLevel cl) {
    LevelRules.forRead(cl);
  }

  private void check(String keyspace, ConsistencyLevel cl) {
    if (cl == ConsistencyLevel.ONE || cl == ConsistencyLevel.LOCAL_ONE || cl == ConsistencyLevel.ANY) {
      return; // the common case: this node is a live replica of everything
    }
    ReplicaCount.check(cl, strategy(keyspace), topology);
  }

  /** The keyspace's strategy; node-local keyspaces (not in the metadata) have one copy. */
  public ReplicationStrategy strategy(String keyspace) {
    ReplicationStrategy known = strategies.get(keyspace); // per request: no capturing lambda
    if (known != null) {
      return known;
    }
    return strategies.computeIfAbsent(keyspace, ks -> {
      KeyspaceDefinition k = metadata.current().keyspace(ks);
      return k == null ? LocalStrategy.INSTANCE : ReplicationStrategy.of(k.replication());
    });
  }

  private static Set<String> keyspaces(List<PartitionUpdate> updates) {
    if (updates.size() == 1) {
      return Set.of(updates.get(0).keyspace());
    }
    Set<String> out = new LinkedHashSet<>();
    for (PartitionUpdate u : updates) {
      out.add(u.keyspace());
    }
    return out;
  }
}
