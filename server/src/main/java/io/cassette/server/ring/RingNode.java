package io.cassette.server.ring;

import io.cassette.cluster.liveness.HeartbeatService;
import io.cassette.cluster.liveness.LivenessConfig;
import io.cassette.cluster.liveness.LivenessListener;
import io.cassette.cluster.net.MessagingConfig;
import io.cassette.cluster.net.MessagingService;
import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.metadata.ClusterMetadata;
import io.cassette.metadata.Epoch;
import io.cassette.metadata.InProgressPlan;
import io.cassette.metadata.Member;
import io.cassette.metadata.MetadataRejectedException;
import io.cassette.metadata.MetadataService;
import io.cassette.metadata.MetadataServiceConfig;
import io.cassette.metadata.NodeState;
import io.cassette.metadata.TokenAllocator;
import io.cassette.metadata.Transformation;
import io.cassette.metrics.NodeMetrics;
import io.cassette.server.CassetteNode.StartException;
import io.cassette.server.NodeIdentity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node as a member of a ring: the metadata service (Raft member or follower), internode
 * messaging on {@code storage_port}, heartbeats for liveness, and the join (REGISTER, then
 * PREPARE / START / FINISH join, or a REPLACE plan with replace_address_first_boot; between START and FINISH
 * the node gets writes for its pending ranges and streams them from the current replicas), decommission
 * and removenode (LEAVE plans), one ring change at a time.
 *
 * <p>Life cycle: {@link #startMetadata()} (returns at once; Raft starts beside storage),
 * {@link #startMessaging()}, {@link #join(String, int, int)} (blocks until NORMAL),
 * {@link #close()}. Liveness (UP/DOWN) comes from the failure detector only and never changes
 * metadata. Thread-safe after start.
 */
public final class RingNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RingNode.class);
  /** How long a metadata commit may wait for a quorum. */
  static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);
  /** Pause between attempts of a join step the metadata service could not take. */
  private static final long RETRY_MILLIS = 500;
  /** How often a join waiting for the metadata service says so in the log. */
  private static final long WAIT_LOG_MILLIS = 10_000;
  /** How often {@link #awaitPeers} looks at the failure detector (a heartbeat is ~1 s). */
  private static final long PEER_POLL_MILLIS = 50;

  /** Told of ring changes and liveness, with the native (CQL) address of the node. */
  public interface Events {
    void topologyChanged(String change, Member member);

    void statusChanged(String change, Member member);
  }

  private final RingSettings settings;
  private final Path dataDirectory;
  private volatile NodeIdentity identity;
  private final MetadataService metadata;
  private MessagingService messaging;
  private java.util.function.Function<java.util.function.Predicate<InetSocketAddress>,
      io.cassette.cluster.net.InternodeEncryption> encryption = sameDc -> null;
  private HeartbeatService heartbeats;
  private volatile Events events = new Events() {
    @Override
    public void topologyChanged(String change, Member member) {}

    @Override
    public void statusChanged(String change, Member member) {}
  };
  private volatile boolean closed;
  /** The coordinator's ring snapshot, rebuilt after a new epoch or a liveness change. */
  private final DerivedValue<io.cassette.coordinator.ring.TokenRing> tokenRing = new DerivedValue<>(this::buildTokenRing);
  private volatile long joinedMillis = -1;
  /** Told (host id, UP?) of each liveness change of a member (hinted handoff). */
  private final List<java.util.function.BiConsumer<UUID, Boolean>> livenessListeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  /** This node's data bytes on disk, reported to peers in heartbeat answers. */
  private volatile java.util.function.LongSupplier localLoad = () -> -1;
  /** This node's CQL schema version (null: not known yet), reported to peers in heartbeat answers. */
  private volatile java.util.function.Supplier<UUID> localSchemaVersion = () -> null;
  /** The load last sampled and when: heartbeat answers reuse it for a second (they run on the event loop). */
  private volatile long sampledLoad = -1;
  private volatile long loadSampledNanos;
  private static final long LOAD_SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(1);
  /**
   * Crash tests only ({@code -Dcassette.test_fault.join_pause_at=STEP}): the join stops at that
   * step (logging "join paused at STEP") so a test can kill the node there. Steps, in order:
   * REGISTERED (a member, no plan yet), PREPARED (tokens reserved), STARTED (writes reach it,
   * nothing streamed), STREAMED (its ranges streamed, FINISH_JOIN not yet committed), NORMAL
   * (FINISH_JOIN applied, tokens not yet saved, doors closed).
   */
  static final String TEST_FAULT_JOIN_PAUSE_AT = System.getProperty("cassette.test_fault.join_pause_at");
  /** How long a ring change waits for live peers to apply its START step before data moves. */
  static final Duration PEERS_CATCH_UP = Duration.ofSeconds(10);
  /** How long a joining node waits to hear from its sources before it streams (see awaitSourcesUp). */
  static final Duration SOURCES_UP = Duration.ofSeconds(5);
  /** The metadata epoch each peer last reported in a heartbeat answer. */
  private final java.util.Map<InetSocketAddress, Long> peerEpochs = new java.util.concurrent.ConcurrentHashMap<>();
  /** Streams the data of ring changes (set before {@link #join}); null: no data moves (tests of metadata only). */
  private volatile io.cassette.coordinator.ring.repair.RepairService repair;
  private volatile io.cassette.coordinator.local.LocalCoordinator local;
  /** What only this node holds (batch log, hints), handed to the ring before its decommission finishes. */
  private volatile java.util.function.Consumer<java.util.function.Consumer<String>> handOver = progress -> {};
  /** Completes the Paxos rounds in progress on moving ranges before a ring change finishes (null: none). */
  private volatile io.cassette.coordinator.ring.membership.PaxosTopologyRepair paxosRepair;
  /** replace_address_first_boot: the dead node this node replaces on its first boot, or null. */
  private volatile java.net.InetAddress replaceAddress;
  /** A decommission, removenode or the join's streaming: one ring change from this node at a time. */
  private final Object ringChange = new Object();

  public RingNode(RingSettings settings, NodeIdentity identity, Path dataDirectory) {
    this.settings = settings;
    this.identity = identity;
    this.dataDirectory = dataDirectory;
    MetadataServiceConfig config = MetadataServiceConfig.of(settings.listenAddress().getHostAddress(),
        settings.metadataPort(), settings.members(), dataDirectory.resolve("metadata"));
    // A DDL statement must fail with "no quorum" before the driver gives up on it (10 s in
    // the Java driver), so the operator reads the reason instead of a client timeout.
    config = config.withTuning(config.tuning().withCommitTimeout(COMMIT_TIMEOUT));
    this.metadata = new MetadataService(config);
  }

  public RingSettings settings() {
    return settings;
  }

  public UUID hostId() {
    return identity.hostId();
  }

  public MetadataService metadata() {
    return metadata;
  }

  /**
   * server_encryption_options for {@link #startMessaging()}: given "is this peer in my
   * datacenter", the encryption to use (null: none). Set before startMessaging.
   */
  public void internodeEncryption(java.util.function.Function<java.util.function.Predicate<InetSocketAddress>,
      io.cassette.cluster.net.InternodeEncryption> encryption) {
    this.encryption = encryption;
  }

  /** The messaging service (after {@link #startMessaging()}). */
  public MessagingService messaging() {
    return messaging;
  }

  public void events(Events events) {
    this.events = events;
  }

  /** Calls {@code listener} with a member's host id and true (UP) or false (DOWN) at each change. */
  public void onLiveness(java.util.function.BiConsumer<UUID, Boolean> listener) {
    livenessListeners.add(listener);
  }

  /** Publishes the cached metadata and starts Raft (or the follower) in the background. */
  public void startMetadata() {
    try {
      metadata.start();
    } catch (IOException e) {
      throw new StartException("Cannot start the metadata service in " + dataDirectory.resolve("metadata") + ": " + e);
    }
    metadata.addListener(this::onEpoch);
    LOG.info("Ring: metadata service {} {} (members {}), seeds {}", metadata.isMember() ? "member" : "follower",
        metadata.config().nodeId(), settings.members(), settings.seeds());
  }

  /** The coordinator's schema log on the replicated metadata, for {@code LocalCoordinator.open}. */
  public MetadataLog schemaLog(BiConsumer<io.cassette.coordinator.metadata.ClusterMetadata,
      io.cassette.coordinator.metadata.ClusterMetadata> storageSync) {
    return RingMetadataLog.open(metadata, storageSync);
  }

  /** Where this node's load comes from (before {@link #startMessaging()}): peers learn it from heartbeats. */
  public void localLoad(java.util.function.LongSupplier load) {
    this.localLoad = load;
  }

  /** Where this node's CQL schema version comes from: peers report it in system.peers. */
  public void localSchemaVersion(java.util.function.Supplier<UUID> version) {
    this.localSchemaVersion = version;
  }

  private long loadNow() {
    long now = System.nanoTime();
    if (loadSampledNanos == 0 || now - loadSampledNanos > LOAD_SAMPLE_NANOS) {
      sampledLoad = localLoad.getAsLong();
      loadSampledNanos = now;
    }
    return sampledLoad;
  }

  /** Binds storage_port and starts heartbeats to every member known. */
  public void startMessaging() {
    MessagingConfig config = MessagingConfig.builder(settings.listenAddress())
        .storagePort(settings.storagePort())
        .clusterName(settings.clusterName())
        .hostId(identity.hostId())
        .epoch(() -> metadata.current().epoch().value())
        .metrics(NodeMetrics.global().registry())
        .build();
    try {
      messaging = new MessagingService(config).encryption(encryption.apply(peer -> {
        Member m = memberAt(peer);
        return m != null && m.dataCenter().equals(settings.dataCenter());
      })).start();
    } catch (RuntimeException e) {
      throw new StartException("Cannot listen for internode messages on " + settings.listenAddress().getHostAddress()
          + ":" + settings.storagePort() + " (storage_port): " + rootMessage(e));
    }
    heartbeats = new HeartbeatService(messaging, new LivenessConfig(settings.phiConvictThreshold(),
        settings.heartbeatInterval()));
    heartbeats.localState(() -> new HeartbeatState(loadNow(), localSchemaVersion.get()).encode());
    // A peer ahead of this node's metadata (a follower polls once a second): catch up now, so
    // a schema change made there is served here sooner.
    heartbeats.onAnswer((peer, answer) -> {
      peerEpochs.put(peer, answer.epoch());
      if (answer.epoch() > metadata.current().epoch().value()) {
        metadata.awaitEpoch(Epoch.of(answer.epoch()), Duration.ofSeconds(5)).exceptionally(e -> null);
      }
    });
    heartbeats.detector().addListener(new LivenessListener() {
      @Override
      public void onUp(InetSocketAddress peer) {
        tokenRing.invalidate();
        Member m = memberAt(peer);
        if (m != null) {
          events.statusChanged("UP", m);
          livenessListeners.forEach(l -> l.accept(m.hostId(), true));
        }
      }

      @Override
      public void onDown(InetSocketAddress peer) {
        tokenRing.invalidate();
        Member m = memberAt(peer);
        if (m != null) {
          events.statusChanged("DOWN", m);
          livenessListeners.forEach(l -> l.accept(m.hostId(), false));
        }
      }
    });
    watchMembers(metadata.current());
    heartbeats.start();
  }

  private static String rootMessage(Throwable e) {
    while (e.getCause() != null) {
      e = e.getCause();
    }
    return e.getMessage();
  }

  /**
   * Registers this node and walks its join plan to NORMAL, retrying while the metadata
   * service cannot answer (its members may start after this node). Returns when NORMAL.
   *
   * @throws StartException when the cluster refuses the node (another cluster_name, a host id
   *     that left): the operator must act
   */
  public void join(String releaseVersion, int nativePort, int respPort) throws InterruptedException {
    long start = System.nanoTime();
    long lastWaitLog = System.currentTimeMillis();
    String lastProblem = null;
    while (!closed) {
      if (metadata.started().isCompletedExceptionally()) { // a dead Raft server never recovers: stop, say why
        Throwable cause = metadata.started().handle((ok, e) -> e).join();
        throw new StartException("Cannot start the metadata service on " + settings.listenAddress().getHostAddress()
            + " (metadata_port " + metadata.config().port() + "): " + rootMessage(cause));
      }
      ClusterMetadata m = metadata.current();
      if (!m.clusterName().isEmpty() && !m.clusterName().equals(settings.clusterName())) {
        throw mismatch(m.clusterName());
      }
      Member me = m.member(identity.hostId());
      Member wanted = new Member(identity.hostId(), settings.listenAddress(), settings.listenAddress(),
          nativePort, respPort, settings.storagePort(), settings.dataCenter(), settings.rack(),
          NodeState.REGISTERED, releaseVersion);
      Transformation next;
      if (me == null) {
        next = Transformation.register(settings.clusterName(), wanted);
      } else if (me.state() == NodeState.LEFT) {
        throw new StartException("This node (host id " + identity.hostId() + ") has left the ring; start it with an "
            + "empty data directory to join as a new node");
      } else if (!wanted.withState(me.state()).equals(me)) {
        next = Transformation.updateMember(wanted);
      } else if (me.state() == NodeState.REGISTERED) {
        if (pausedForTest("REGISTERED")) {
          return;
        }
        Member replaced = replaceAddress == null ? null : replacedMember(m);
        if (replaceAddress != null && replaced == null) {
          throw new StartException("Cannot replace " + replaceAddress.getHostAddress() + " (replace_address_first_boot): "
              + "no NORMAL member has that address");
        }
        if (replaced != null && isAlive(replaced)) {
          throw new StartException("Cannot replace a live node: " + replaceAddress.getHostAddress() + " is UP");
        }
        next = replaced != null ? Transformation.prepareReplace(identity.hostId(), replaced.hostId())
            : Transformation.prepareJoin(identity.hostId(), TokenAllocator.allocate(m, settings.dataCenter(), settings.numTokens(),
                settings.allocateTokensForRf()));
      } else if (me.state() == NodeState.JOINING) {
        InProgressPlan plan = m.plan(identity.hostId());
        if (plan != null && pausedForTest(plan.step().name())) {
          return;
        }
        if (plan != null && plan.step() == InProgressPlan.Step.PREPARED) {
          next = Transformation.startJoin(identity.hostId());
        } else {
          // STARTED: writes reach this node; now its ranges stream in (again after a crash:
          // streaming is idempotent), then it takes ownership.
          String problem = streamForJoin(plan);
          if (problem != null) {
            LOG.warn("Ring: {} streaming failed, retrying: {}", plan == null ? "join" : plan.kind(), problem);
            Thread.sleep(RETRY_MILLIS * 4);
            continue;
          }
          if (pausedForTest("STREAMED")) {
            return;
          }
          next = Transformation.finishJoin(identity.hostId());
        }
      } else {
        if (me.state() == NodeState.NORMAL && pausedForTest("NORMAL")) {
          return;
        }
        identity = identity.withTokensSaved(dataDirectory, m.tokensOf(identity.hostId()));
        joinedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        LOG.info("Ring: {} is {} at {} with {} tokens ({} ms); {} members", settings.listenAddress().getHostAddress(),
            me.state(), m.epoch(), m.tokensOf(identity.hostId()).size(), joinedMillis, m.members().size());
        watchMembers(m);
        return;
      }
      String problem = commitStep(next);
      if (problem != null) {
        if (!problem.equals(lastProblem) || System.currentTimeMillis() - lastWaitLog > WAIT_LOG_MILLIS) {
          LOG.info("Ring: waiting to {} ({})", next.kind(), problem);
          lastWaitLog = System.currentTimeMillis();
          lastProblem = problem;
        }
        Thread.sleep(RETRY_MILLIS);
      }
    }
  }

  /** Crash tests: when the join is to pause at {@code step}, logs it and waits until closed; true then. */
  private boolean pausedForTest(String step) throws InterruptedException {
    if (!step.equals(TEST_FAULT_JOIN_PAUSE_AT)) {
      return false;
    }
    LOG.warn("Ring: test fault: join paused at {}", step);
    while (!closed) {
      Thread.sleep(1000);
    }
    return true;
  }

  /** Commits one join step; null when done, else why it must be retried. */
  private String commitStep(Transformation t) throws InterruptedException {
    CompletableFuture<ClusterMetadata> f = metadata.commit(t);
    try {
      f.get(metadata.config().tuning().commitTimeout().toMillis() + 5_000, TimeUnit.MILLISECONDS);
      return null;
    } catch (TimeoutException e) {
      return "no answer from the metadata service " + settings.members();
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e;
      while ((cause instanceof ExecutionException || cause instanceof CompletionException) && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof MetadataRejectedException r) {
        String reason = String.valueOf(r.getMessage());
        if (reason.contains("cluster name mismatch")) {
          throw new StartException("Refusing to join: " + reason + " (cluster_name must be the same on every node)");
        }
        // A race with another node's join (a token taken meanwhile): look again once caught up.
        metadata.awaitEpoch(metadata.current().epoch().next(), Duration.ofSeconds(2));
        return "refused: " + reason;
      }
      return String.valueOf(cause.getMessage());
    }
  }

  private StartException mismatch(String clusterName) {
    return new StartException("Refusing to join: cluster name mismatch: the cluster is '" + clusterName
        + "', this node is configured with '" + settings.clusterName() + "' (cluster_name)");
  }

  /**
   * Where ring changes get their data from: repair's streaming (checksummed batches, retried)
   * and the local tables. {@code replaceAddress}: replace_address_first_boot, or null.
   */
  public void streaming(io.cassette.coordinator.ring.repair.RepairService repair,
                        io.cassette.coordinator.local.LocalCoordinator local, java.net.InetAddress replaceAddress) {
    this.repair = repair;
    this.local = local;
    this.replaceAddress = replaceAddress;
  }

  /**
   * Paxos repair of ring changes: before this node's join, replace or leave streams, the Paxos
   * rounds in progress on the ranges that move are completed (Cassandra 5.0 runs its
   * topology-change paxos repair at the same point), so a new replica never misses a value a
   * quorum of the old ones accepted.
   */
  public void paxosRepair(io.cassette.coordinator.ring.membership.PaxosTopologyRepair paxosRepair) {
    this.paxosRepair = paxosRepair;
  }

  /**
   * Called by a decommission of this node after its ranges streamed and before it is LEFT:
   * hands over what only this node holds (its batch log replayed, its hints passed on), with
   * progress lines; throws to stop the decommission (it can be run again).
   */
  public void onHandOver(java.util.function.Consumer<java.util.function.Consumer<String>> handOver) {
    this.handOver = handOver;
  }

  /** The Paxos repair of ring changes (null: none), also {@code nodetool repair --paxos-only}. */
  public io.cassette.coordinator.ring.membership.PaxosTopologyRepair paxosRepair() {
    return paxosRepair;
  }

  private Member replacedMember(ClusterMetadata m) {
    for (Member x : m.members().values()) {
      if (x.state() == NodeState.NORMAL && x.broadcastAddress().equals(replaceAddress)
          && !x.hostId().equals(identity.hostId())) {
        return x;
      }
    }
    return null;
  }

  /** Streams this node's new ranges of a STARTED join or replace; null when done, else why not. */
  private String streamForJoin(InProgressPlan plan) {
    if (repair == null || plan == null) {
      return null;
    }
    java.util.UUID dead = plan.kind() == InProgressPlan.Kind.REPLACE
        ? io.cassette.metadata.Transformations.replaced(metadata.current(), plan) : null;
    String purpose = dead != null ? "Replace" : "Bootstrap";
    awaitSourcesUp(dead, purpose);
    awaitPeersAt(metadata.current().epoch().value());
    io.cassette.coordinator.ring.TokenRing now = tokenRing();
    if (now.future() == null) {
      return null;
    }
    java.util.Set<io.cassette.coordinator.ring.Endpoint> unusable = new java.util.HashSet<>();
    for (io.cassette.coordinator.ring.TokenRing.Member x : now.members()) {
      if (x.endpoint().hostId().equals(dead)) {
        unusable.add(x.endpoint());
      }
    }
    try {
      synchronized (ringChange) {
        if (paxosRepair != null) {
          paxosRepair.run(now, purpose, LOG::info);
        }
        io.cassette.coordinator.ring.membership.RingChangeStreams.Summary s =
            io.cassette.coordinator.ring.membership.RingChangeStreams.run(repair, local, now,
                e -> e.equals(now.self()), unusable, purpose, LOG::info);
        LOG.info("Ring: {} streamed {}", purpose, s);
      }
      return null;
    } catch (RuntimeException e) {
      return e.getMessage() == null ? e.toString() : e.getMessage();
    }
  }

  /**
   * Waits (bounded by {@link #SOURCES_UP}) until this joining node's failure detector has marked
   * UP every other member that owns tokens (the stream's sources and the Paxos repair's
   * replicas), except {@code replaced}. A node that has just started learns its peers from the
   * metadata log and hears their first heartbeat a moment later: a join that streamed at once
   * found "no live replica", slept and tried again (about 2 s of every bootstrap). A member
   * still DOWN at the bound is left to the stream's choice of sources.
   */
  private void awaitSourcesUp(UUID replaced, String purpose) {
    long started = System.nanoTime();
    long deadline = started + SOURCES_UP.toNanos();
    List<String> down = new ArrayList<>();
    while (true) {
      down.clear();
      ClusterMetadata m = metadata.current();
      for (Member x : m.members().values()) {
        if (!x.hostId().equals(identity.hostId()) && !x.hostId().equals(replaced) && !m.tokensOf(x.hostId()).isEmpty()
            && !isAlive(x)) {
          down.add(x.listenAddress().getHostAddress());
        }
      }
      if (down.isEmpty() || System.nanoTime() > deadline) {
        break;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    long waited = (System.nanoTime() - started) / 1_000_000;
    if (down.isEmpty()) {
      LOG.info("Ring: {}: every source UP after {} ms", purpose, waited);
    } else {
      LOG.info("Ring: {}: still DOWN after {} ms: {}; going on", purpose, waited, down);
    }
  }

  /**
   * Waits (bounded) until every live peer has reported applying {@code epoch}: a START step
   * must be seen by the coordinators before data moves, or a write routed by an older ring
   * could miss both the stream and the new replica.
   */
  private void awaitPeersAt(long epoch) {
    long deadline = System.nanoTime() + PEERS_CATCH_UP.toNanos();
    while (System.nanoTime() < deadline) {
      boolean behind = false;
      for (Member m : metadata.current().members().values()) {
        if (m.isActive() && !m.hostId().equals(identity.hostId()) && isAlive(m)
            && peerEpochs.getOrDefault(storageAddress(m), -1L) < epoch) {
          behind = true;
        }
      }
      if (!behind) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    LOG.info("Ring: some peers did not report epoch {} within {} s; going on", epoch, PEERS_CATCH_UP.toSeconds());
  }

  /**
   * {@code nodetool decommission}: this node's LEAVE plan (PREPARE, START: writes also go to the
   * nodes taking its ranges), its ranges stream to them, FINISH (LEFT). A plan left by a crash
   * is resumed from its step. Blocks until done; progress lines go to {@code progress}.
   *
   * @throws IllegalStateException when refused (another ring change, the last node)
   */
  public void decommission(java.util.function.Consumer<String> progress) {
    leave(identity.hostId(), "Unbootstrap", progress);
  }

  /**
   * {@code nodetool removenode HOSTID}: a LEAVE plan for a dead node, run by this node; the
   * remaining replicas of its ranges stream them to the nodes that take them, then it is LEFT.
   * A dead node's unfinished join or replace is cancelled instead (rolled back); its unfinished
   * decommission is taken over from its step.
   */
  public void removeNode(UUID hostId, java.util.function.Consumer<String> progress) {
    if (hostId.equals(identity.hostId())) {
      throw new IllegalStateException("Cannot remove self");
    }
    Member m = metadata.current().member(hostId);
    if (m == null || !m.isActive()) {
      throw new IllegalStateException("Host ID not found.");
    }
    if (isAlive(m)) {
      throw new IllegalStateException("Node /" + m.broadcastAddress().getHostAddress()
          + " is alive and owns this ID. Use decommission command to remove it from the ring");
    }
    InProgressPlan plan = metadata.current().plan(hostId);
    if (plan != null && plan.kind() != InProgressPlan.Kind.LEAVE) {
      // A join or replace that will not finish (its node is dead): roll it back. The node, if
      // it ever comes back, starts its join again from REGISTERED.
      synchronized (ringChange) {
        commitOrThrow(Transformation.cancelPlan(hostId));
      }
      progress.accept("Removenode: cancelled the " + plan.kind() + " of " + hostId + " (" + plan.step()
          + ") at " + metadata.current().epoch() + "; its tokens are free again");
      return;
    }
    leave(hostId, "Removenode", progress);
  }

  private void leave(UUID hostId, String purpose, java.util.function.Consumer<String> progress) {
    synchronized (ringChange) {
      ClusterMetadata m = metadata.current();
      InProgressPlan plan = m.plan(hostId);
      if (plan != null && plan.kind() != InProgressPlan.Kind.LEAVE) {
        throw new IllegalStateException("host " + hostId + " has a " + plan.kind() + " in progress");
      }
      if (plan == null) {
        commitOrThrow(Transformation.prepareLeave(hostId));
        progress.accept(purpose + ": prepared (LEAVING) at " + metadata.current().epoch());
        plan = metadata.current().plan(hostId);
      }
      if (plan.step() == InProgressPlan.Step.PREPARED) {
        commitOrThrow(Transformation.startLeave(hostId));
        progress.accept(purpose + ": started at " + metadata.current().epoch() + " (writes go to the new replicas too)");
      }
      awaitPeersAt(metadata.current().epoch().value());
      io.cassette.coordinator.ring.TokenRing now = tokenRing();
      java.util.Set<io.cassette.coordinator.ring.Endpoint> unusable = new java.util.HashSet<>();
      if (!hostId.equals(identity.hostId())) {
        for (io.cassette.coordinator.ring.TokenRing.Member x : now.members()) {
          if (x.endpoint().hostId().equals(hostId)) {
            unusable.add(x.endpoint());
          }
        }
      }
      if (paxosRepair != null && now.future() != null) {
        paxosRepair.run(now, purpose, line -> {
          LOG.info("Ring: {}", line);
          progress.accept(line);
        });
      }
      if (repair != null && now.future() != null) {
        io.cassette.coordinator.ring.membership.RingChangeStreams.Summary s =
            io.cassette.coordinator.ring.membership.RingChangeStreams.run(repair, local, now, e -> true, unusable,
                purpose, line -> {
                  LOG.info("Ring: {}", line);
                  progress.accept(line);
                });
        progress.accept(purpose + ": streamed " + s);
      }
      if (hostId.equals(identity.hostId())) {
        handOver.accept(progress);
      }
      commitOrThrow(Transformation.finishLeave(hostId));
      progress.accept(purpose + ": finished at " + metadata.current().epoch() + " (LEFT)");
    }
  }

  private void commitOrThrow(Transformation t) {
    try {
      metadata.commit(t).get(metadata.config().tuning().commitTimeout().toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    } catch (TimeoutException e) {
      throw new IllegalStateException("no answer from the metadata service " + settings.members());
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause() == null ? e.toString() : e.getCause().getMessage());
    }
  }

  /** Cassandra's operation mode for nodetool info/netstats: JOINING, LEAVING, NORMAL, DECOMMISSIONED. */
  public String mode() {
    Member me = metadata.current().member(identity.hostId());
    if (me == null) {
      return "STARTING";
    }
    return switch (me.state()) {
      case REGISTERED, JOINING -> "JOINING";
      case LEAVING -> "LEAVING";
      case LEFT -> "DECOMMISSIONED";
      case NORMAL -> "NORMAL";
    };
  }

  /** Streaming of ring changes and repair (null before {@link #streaming}). */
  public io.cassette.coordinator.ring.repair.RepairService repair() {
    return repair;
  }

  /** How long the join took, or -1 before it finished. */
  public long joinedMillis() {
    return joinedMillis;
  }

  private void onEpoch(ClusterMetadata previous, ClusterMetadata next, Transformation applied) {
    tokenRing.invalidate();
    if (heartbeats != null) {
      watchMembers(next);
    }
    for (Member m : next.members().values()) {
      if (m.hostId().equals(identity.hostId())) {
        continue;
      }
      Member before = previous.member(m.hostId());
      boolean wasNormal = before != null && (before.state() == NodeState.NORMAL || before.state() == NodeState.LEAVING);
      boolean isNormal = m.state() == NodeState.NORMAL || m.state() == NodeState.LEAVING;
      if (isNormal && !wasNormal) {
        events.topologyChanged("NEW_NODE", m);
      } else if (wasNormal && m.state() == NodeState.LEFT) {
        events.topologyChanged("REMOVED_NODE", m);
        if (heartbeats != null) {
          heartbeats.forget(storageAddress(m));
        }
      }
    }
  }

  private void watchMembers(ClusterMetadata m) {
    HeartbeatService hb = heartbeats;
    if (hb == null) {
      return;
    }
    for (Member member : m.members().values()) {
      if (member.isActive() && !member.hostId().equals(identity.hostId())) {
        hb.watch(storageAddress(member));
      }
    }
  }

  static InetSocketAddress storageAddress(Member m) {
    return new InetSocketAddress(m.listenAddress(), m.storagePort());
  }

  private Member memberAt(InetSocketAddress storage) {
    for (Member m : metadata.current().members().values()) {
      if (m.isActive() && storageAddress(m).equals(storage)) {
        return m;
      }
    }
    return null;
  }

  /** Whether {@code m} is up: this node always, others by the failure detector. */
  public boolean isAlive(Member m) {
    if (m.hostId().equals(identity.hostId())) {
      return true;
    }
    HeartbeatService hb = heartbeats;
    return hb != null && hb.isAlive(storageAddress(m));
  }

  /**
   * {@code m}'s load (data bytes on disk): this node's own now, a peer's as its last heartbeat
   * answer reported it (also while it is DOWN), or -1 if it never reported one.
   */
  public long load(Member m) {
    if (m.hostId().equals(identity.hostId())) {
      return localLoad.getAsLong();
    }
    return reported(m).load();
  }

  /** The CQL schema version {@code m} last reported in a heartbeat answer, or null (not known yet). */
  public UUID schemaVersion(Member m) {
    return m.hostId().equals(identity.hostId()) ? localSchemaVersion.get() : reported(m).schemaVersion();
  }

  private HeartbeatState reported(Member m) {
    HeartbeatService hb = heartbeats;
    return hb == null ? HeartbeatState.UNKNOWN : HeartbeatState.decode(hb.state(storageAddress(m)));
  }

  /** The tokens {@code m} owns, or has reserved while it joins. */
  public static List<Long> tokensOf(ClusterMetadata md, Member m) {
    List<Long> tokens = md.tokensOf(m.hostId());
    if (tokens.isEmpty() && md.plan(m.hostId()) != null) {
      return md.plan(m.hostId()).tokens();
    }
    return tokens;
  }

  /**
   * The ring as the coordinator routes by it: members that own tokens (NORMAL, LEAVING) and
   * whether each is up. Cached between metadata and liveness changes: requests call it.
   */
  public io.cassette.coordinator.ring.TokenRing tokenRing() {
    return tokenRing.get();
  }

  private io.cassette.coordinator.ring.TokenRing buildTokenRing() {
    ClusterMetadata m = metadata.current();
    io.cassette.coordinator.ring.Endpoint self =
        new io.cassette.coordinator.ring.Endpoint(identity.hostId(), settings.listenAddress());
    java.util.Map<UUID, List<Long>> owned = new java.util.TreeMap<>();
    for (Member member : m.members().values()) {
      List<Long> tokens = m.tokensOf(member.hostId());
      if (!tokens.isEmpty()) {
        owned.put(member.hostId(), tokens);
      }
    }
    io.cassette.coordinator.ring.TokenRing.Builder b = ringOf(m, owned, self);
    // A STARTED plan (one at a time): the ring after it, whose new replicas get writes now.
    for (InProgressPlan plan : m.plans().values()) {
      if (plan.step() != InProgressPlan.Step.STARTED) {
        continue;
      }
      java.util.Map<UUID, List<Long>> after = new java.util.TreeMap<>(owned);
      switch (plan.kind()) {
        case JOIN -> after.put(plan.hostId(), plan.tokens());
        case LEAVE -> after.remove(plan.hostId());
        case REPLACE -> {
          after.remove(io.cassette.metadata.Transformations.replaced(m, plan));
          after.put(plan.hostId(), plan.tokens());
        }
      }
      b.future(ringOf(m, after, self).build());
    }
    return b.build();
  }

  private io.cassette.coordinator.ring.TokenRing.Builder ringOf(ClusterMetadata m, java.util.Map<UUID, List<Long>> owned,
                                                                io.cassette.coordinator.ring.Endpoint self) {
    io.cassette.coordinator.ring.TokenRing.Builder b = io.cassette.coordinator.ring.TokenRing.builder(
        m.epoch().value(), self);
    for (Member member : m.members().values()) {
      io.cassette.coordinator.ring.Endpoint e = member.hostId().equals(identity.hostId()) ? self
          : new io.cassette.coordinator.ring.Endpoint(member.hostId(), member.listenAddress());
      List<Long> tokens = owned.get(member.hostId());
      if (tokens != null) {
        b.add(e, member.dataCenter(), member.rack(), tokens);
      }
      if (member.isActive()) {
        b.alive(e, isAlive(member)); // pending replicas too: a joining node has no tokens yet
      }
    }
    return b;
  }

  /** Completes when this node has applied the metadata log up to {@code epoch} (before acting on a newer message). */
  public CompletableFuture<?> awaitEpoch(long epoch) {
    return metadata.awaitEpoch(Epoch.of(epoch), Duration.ofSeconds(10));
  }

  /**
   * Waits once, at most {@code timeout}, before the front doors open: until every other member
   * of this data centre that owns tokens is UP and the metadata service can commit. A node
   * that opened its doors at once answered its first requests (and its Redis door's own
   * start-up reads) with Unavailable for replicas that were up but not heard from yet, or
   * timed out committing a schema entry while Raft still elected a leader. As Cassandra's
   * {@code block_for_peers_timeout_in_secs} (remote data centres are not waited for): at the
   * deadline the doors open anyway and the peers still DOWN are logged.
   *
   * @return the peers still DOWN (empty when all came UP)
   */
  public List<Member> awaitPeers(Duration timeout) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    boolean metadataReady = metadata.awaitReady(timeout);
    List<Member> down = downPeers();
    while (!down.isEmpty() && !closed && System.nanoTime() - deadline < 0) {
      Thread.sleep(PEER_POLL_MILLIS);
      down = downPeers();
    }
    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    if (!down.isEmpty() || !metadataReady) {
      List<String> names = new ArrayList<>();
      down.forEach(m -> names.add(m.listenAddress().getHostAddress()));
      LOG.warn("Ring: opening the front doors after {} ms (block_for_peers_timeout_in_secs) with {}{}", waited,
          down.isEmpty() ? "every peer UP" : "peers still DOWN: " + names,
          metadataReady ? "" : "; the metadata service has no leader yet");
    } else {
      LOG.info("Ring: {} peers UP after {} ms; opening the front doors", peers().size(), waited);
    }
    return down;
  }

  /** Token-owning members of this data centre the failure detector does not see UP yet. */
  private List<Member> downPeers() {
    List<Member> down = new ArrayList<>();
    for (Member m : peers()) {
      if (m.dataCenter().equals(settings.dataCenter()) && !isAlive(m)) {
        down.add(m);
      }
    }
    return down;
  }

  /** Active members other than this node that own tokens: system.peers' rows. */
  public List<Member> peers() {
    ClusterMetadata m = metadata.current();
    List<Member> out = new ArrayList<>();
    for (Member member : m.members().values()) {
      if (!member.hostId().equals(identity.hostId())
          && (member.state() == NodeState.NORMAL || member.state() == NodeState.LEAVING)) {
        out.add(member);
      }
    }
    return out;
  }

  /** system.local's ring tokens and system.peers' rows, from the newest metadata. */
  public io.cassette.cql.language.RingView view() {
    return new io.cassette.cql.language.RingView() {
      @Override
      public List<Long> localTokens() {
        List<Long> t = metadata.current().tokensOf(identity.hostId());
        return t.isEmpty() ? null : t;
      }

      @Override
      public int storagePort() {
        return settings.storagePort();
      }

      @Override
      public List<Peer> peers() {
        ClusterMetadata m = metadata.current();
        List<Peer> out = new ArrayList<>();
        for (Member p : RingNode.this.peers()) {
          out.add(new Peer(p.broadcastAddress(), p.storagePort(), p.dataCenter(), p.rack(), p.hostId(),
              p.broadcastAddress(), p.nativePort(), p.releaseVersion(), m.tokensOf(p.hostId()), schemaVersion(p)));
        }
        return out;
      }
    };
  }

  /** Follows schema entries committed by other nodes (for SCHEMA_CHANGE events). */
  public void onRemoteSchemaChange(MetadataLog schemaLog,
                                   java.util.function.Consumer<io.cassette.cql.Result.SchemaChange> announce) {
    ((RingMetadataLog) schemaLog).listenRemote((before, after) -> {
      for (io.cassette.cql.Result.SchemaChange e : SchemaChangeEvents.between(before, after)) {
        announce.accept(e);
      }
    });
  }

  public Epoch epoch() {
    return metadata.current().epoch();
  }

  @Override
  public void close() {
    closed = true;
    if (heartbeats != null) {
      heartbeats.stop();
    }
    if (messaging != null) {
      messaging.stop();
    }
    try {
      metadata.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Error while stopping the metadata service: {}", e.toString());
    }
  }
}
