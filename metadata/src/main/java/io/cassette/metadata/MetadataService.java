package io.cassette.metadata;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.RaftConfigKeys;
import io.cassette.metadata.rpc.TlsNettyRpcType;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata log of one node, replicated with Apache Ratis.
 *
 * <p>On a member of the metadata service (its address is in {@code members}) this runs a
 * Raft server whose state machine ({@link MetadataStateMachine}) applies every committed
 * transformation; the Raft log and snapshots live under {@code dataDir}, so a restarted
 * member replays them and then catches up from the leader. Any other node follows the log:
 * it asks a member for what follows its epoch (a Ratis stale read, which any member can
 * answer without a leader) every {@code followerPollInterval} and at once when
 * {@link #awaitEpoch} needs a newer epoch. Both kinds of node commit through a Ratis client,
 * which finds the leader.
 *
 * <p>Every node keeps its newest snapshot in {@code dataDir/metadata.db} (written after each
 * new epoch, coalesced), and {@link #start()} publishes it at once: a restarted node serves
 * reads (schema, ring) from its last state within milliseconds, while the Raft server, which
 * loads some 2,000 classes, starts on the {@code metadata-worker} thread. Commits wait for
 * that start; {@link #awaitReady} waits for a leader.
 *
 * <p>Life cycle: {@link #start()} once, {@link #close()} once. Thread-safe.
 */
public final class MetadataService implements MetadataLog, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataService.class);
    /** One Raft group per cluster, the same id everywhere: the member list is all that varies. */
    static final RaftGroupId GROUP_ID = RaftGroupId.valueOf(
            UUID.nameUUIDFromBytes("cassette-cluster-metadata".getBytes(StandardCharsets.US_ASCII)));
    /** This node's newest snapshot, for reads at start (not the Raft snapshots, which live under the group's directory). */
    static final String CACHE_FILE = "metadata.db";
    /** How long to wait for a member's port when counting who is reachable for an error message. */
    private static final int PROBE_TIMEOUT_MILLIS = 300;
    /** Pause between a Ratis client's attempts (it tries the members in turn to find the leader). */
    private static final Duration CLIENT_RETRY_SLEEP = Duration.ofMillis(100);
    /**
     * Catch-up reads failing this many times in a row get a new client. A follower once never
     * caught up after the leader applied its REGISTER (MembershipProcessTest, 1 run of 5): every
     * later read failed on the same client until the test gave up.
     */
    static final int READER_FAILURES_BEFORE_RENEWAL = 5;

    private final MetadataServiceConfig config;
    private final MetadataPublisher publisher = new MetadataPublisher();
    private final RaftGroup group;
    private final List<RaftPeer> peers;
    private volatile RaftServer server;        // members only; set by the worker thread
    private volatile RaftClient client;
    /**
     * Followers: the client of the catch-up reads, apart from {@link #client} so that a read
     * never waits behind a commit's retries, without retries of its own (the next poll is the
     * retry), and built anew after {@link #READER_FAILURES_BEFORE_RENEWAL} failures in a row.
     */
    private volatile RaftClient reader;
    private int readerFailures;                // worker thread only
    private volatile RaftProperties clientProperties;   // for a new reader or commit client
    private volatile Parameters clientParameters;
    /**
     * Commits that failed in a row; after {@link #READER_FAILURES_BEFORE_RENEWAL} the commit
     * client is built anew, as the reader is: a Ratis async client whose requests to a member
     * that was not up yet never complete keeps their permits, and its {@code send} then blocks
     * its caller for good (a join stuck at REGISTER, silent, in MembershipProcessTest).
     */
    private final java.util.concurrent.atomic.AtomicInteger commitFailures = new java.util.concurrent.atomic.AtomicInteger();
    /** Runs the Ratis client's {@code send} (which may block on its outstanding-request permits) off the caller's thread. */
    private final java.util.concurrent.ExecutorService sender = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "metadata-commit-send");
        t.setDaemon(true);
        return t;
    });
    /** One thread for the background start, follower polling and cache writes. */
    private ScheduledExecutorService worker;
    private volatile CompletableFuture<Void> started = new CompletableFuture<>();
    private final java.util.concurrent.atomic.AtomicBoolean cacheDirty = new java.util.concurrent.atomic.AtomicBoolean();
    private int nextPeer;                      // worker thread only: the member a follower asks next
    private volatile boolean running;
    private boolean used;                      // guarded by this: start() was called
    private volatile boolean followerReady;
    private volatile long startNanos;
    /** TLS on the metadata port (server_encryption_options), or null for plain text. */
    private volatile MetadataTls tls;

    public MetadataService(MetadataServiceConfig config) {
        this.config = config;
        List<RaftPeer> list = new ArrayList<>();
        for (String m : config.members()) {
            String host = MetadataServiceConfig.hostOf(m);
            int port = MetadataServiceConfig.portOf(m);
            list.add(RaftPeer.newBuilder().setId(MetadataServiceConfig.peerId(host, port)).setAddress(m).build());
        }
        this.peers = List.copyOf(list);
        this.group = RaftGroup.valueOf(GROUP_ID, peers);
    }

    /**
     * Speaks TLS on the metadata port and to the members (call before {@link #start()}); every
     * member and follower of one ring must agree (a plain-text node cannot talk to a TLS one).
     */
    public MetadataService useTls(MetadataTls tls) {
        synchronized (this) {
            if (used) throw new IllegalStateException("useTls must come before start()");
        }
        this.tls = tls;
        return this;
    }

    public MetadataServiceConfig config() {
        return config;
    }

    public boolean isMember() {
        return config.isMember();
    }

    /**
     * Publishes the cached snapshot, then starts the Raft server (members) or the follower
     * (others) in the background; returns in milliseconds. A failure to start (e.g. the port
     * is taken) completes {@link #started()} exceptionally and is thrown by {@link #awaitReady}.
     */
    public synchronized void start() throws IOException {
        if (used) throw new IllegalStateException("a MetadataService starts once; make a new one to restart");
        used = true;
        startNanos = System.nanoTime();
        Files.createDirectories(config.dataDir());
        Path cached = config.dataDir().resolve(CACHE_FILE);
        if (Files.exists(cached)) publisher.publish(SnapshotFile.read(cached), null);
        publisher.addListener((previous, next, applied) -> scheduleCacheWrite());
        worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "metadata-worker");
            t.setDaemon(true);
            return t;
        });
        running = true;
        CompletableFuture<Void> done = started;
        worker.execute(() -> {
            try {
                startRaft();
                done.complete(null);
            } catch (IOException | RuntimeException e) {
                LOG.error("metadata service {} failed to start", config.nodeId(), e); // the cause chain names the port or file
                done.completeExceptionally(e);
            }
        });
    }

    /** Completes when the Raft server (or follower) has started; not when a leader is known. */
    public CompletableFuture<Void> started() {
        return started;
    }

    private void startRaft() throws IOException {
        RaftProperties properties = properties();
        Parameters parameters = new Parameters();
        if (tls != null) TlsNettyRpcType.configure(properties, parameters, tls);
        if (isMember()) {
            RaftServer s = RaftServer.newBuilder()
                    .setGroup(group)
                    .setProperties(properties)
                    .setParameters(parameters)
                    .setServerId(RaftPeerId.valueOf(config.nodeId()))
                    .setStateMachine(new MetadataStateMachine(publisher))
                    .setOption(RaftStorage.StartupOption.RECOVER)
                    .build();
            s.start();
            server = s;
        }
        clientProperties = properties;
        clientParameters = parameters;
        client = newCommitClient();
        if (!isMember()) {
            reader = newReader();
            long poll = config.tuning().followerPollInterval().toMillis();
            worker.scheduleWithFixedDelay(this::catchUp, 0, poll, TimeUnit.MILLISECONDS);
        }
        LOG.info("metadata service {}{} as {} of {} in {} ms (data {})", isMember() ? "member started" : "follower started",
                tls == null ? "" : " with TLS",
                config.nodeId(), config.members(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), config.dataDir());
    }

    /** Writes the newest snapshot to the cache file soon, once for any number of new epochs. */
    private void scheduleCacheWrite() {
        ScheduledExecutorService w = worker;
        if (w == null || !cacheDirty.compareAndSet(false, true)) return;
        try {
            w.execute(this::writeCache);
        } catch (RuntimeException e) {
            cacheDirty.set(false); // shutting down: close() writes it
        }
    }

    private void writeCache() {
        cacheDirty.set(false);
        ClusterMetadata m = publisher.current();
        try {
            SnapshotFile.write(config.dataDir().resolve(CACHE_FILE), m);
        } catch (IOException e) {
            LOG.warn("metadata: could not save {} to {}: {}", m.epoch(), config.dataDir(), e.toString());
        }
    }

    /**
     * Waits until this node can commit: a leader is known (members; on a lone member, itself,
     * ready) or a first answer came from a member (followers). Returns false on timeout.
     */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (started.isCompletedExceptionally()) {
                throw new IllegalStateException("metadata service did not start", started.handle((v, e) -> e).join());
            }
            if (isReady()) {
                LOG.info("metadata service ready {} ms after start, at {}",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos), current().epoch());
                return true;
            }
            Thread.sleep(2);
        }
        return false;
    }

    boolean isReady() {
        if (!running || !started.isDone()) return false;
        if (!isMember()) return followerReady;
        DivisionInfo info = division();
        if (info == null || info.getLeaderId() == null) return false;
        return !info.isLeader() || info.isLeaderReady();
    }

    /** This member's Raft role and leader, for status pages; null on followers. */
    public String raftStatus() {
        DivisionInfo info = division();
        return info == null ? null : info.getCurrentRole() + " term " + info.getCurrentTerm() + " leader " + info.getLeaderId()
                + " applied index " + info.getLastAppliedIndex();
    }

    private DivisionInfo division() {
        RaftServer s = server;
        if (s == null) return null;
        try {
            return s.getDivision(GROUP_ID).getInfo();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public ClusterMetadata current() {
        return publisher.current();
    }

    @Override
    public CompletableFuture<ClusterMetadata> commit(Transformation t) {
        if (!running) return CompletableFuture.failedFuture(new IllegalStateException("metadata service is not running"));
        if (!started.isDone()) return started.thenCompose(v -> commit(t));
        RaftClient c = client;
        if (c == null) return CompletableFuture.failedFuture(new IllegalStateException("metadata service is not running"));
        long timeoutMillis = config.tuning().commitTimeout().toMillis();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(MetadataCodec.encode(t)));
        return CompletableFuture.supplyAsync(() -> c.async().send(message), sender).thenCompose(f -> f)
                .orTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .handleAsync((reply, error) -> {
                    commitOutcome(c, error == null && reply != null && reply.isSuccess());
                    return epochOf(reply, error, timeoutMillis);
                })
                .thenCompose(epoch -> {
                    long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                    return awaitEpoch(epoch, Duration.ofMillis(Math.max(left, 1000))).handle((m, e) -> {
                        if (e == null) return publisher.at(epoch);
                        // Ordered and applied by the service, but this node has not caught up (yet).
                        throw new MetadataUnavailableException("committed at " + epoch + ", but this node is still at "
                                + current().epoch() + " (behind the metadata service)", unwrap(e));
                    });
                });
    }

    /** The epoch a commit reply names, or the exception that says why there is none. */
    private Epoch epochOf(RaftClientReply reply, Throwable error, long timeoutMillis) {
        if (error == null && reply != null && reply.isSuccess()) {
            return MetadataMessages.decodeCommitReply(reply.getMessage().getContent().toByteArray());
        }
        Throwable cause = error != null ? unwrap(error) : reply != null ? reply.getException() : null;
        int reachable = reachableMembers();
        int majority = peers.size() / 2 + 1;
        String message = reachable < majority
                ? "metadata service unavailable: no quorum (" + reachable + " of " + peers.size() + " members reachable)"
                : "metadata service unavailable: no answer within " + timeoutMillis + " ms (" + reachable + " of "
                        + peers.size() + " members reachable; electing a leader?)";
        throw new MetadataUnavailableException(message, cause);
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) t = t.getCause();
        return t;
    }

    /** Members whose metadata port accepts a connection now (this node counts if it runs one). */
    int reachableMembers() {
        int n = 0;
        for (RaftPeer p : peers) {
            if (server != null && p.getId().toString().equals(config.nodeId())) {
                n++;
                continue;
            }
            InetSocketAddress address = new InetSocketAddress(MetadataServiceConfig.hostOf(p.getAddress()),
                    MetadataServiceConfig.portOf(p.getAddress()));
            try (Socket s = new Socket()) {
                s.connect(address, PROBE_TIMEOUT_MILLIS);
                n++;
            } catch (IOException ignored) {
                // unreachable
            }
        }
        return n;
    }

    @Override
    public CompletableFuture<ClusterMetadata> awaitEpoch(Epoch epoch, Duration timeout) {
        CompletableFuture<ClusterMetadata> f = publisher.await(epoch, timeout);
        ScheduledExecutorService ex = worker;
        if (!f.isDone() && ex != null && !isMember() && started.isDone()) {
            try {
                ex.execute(this::catchUp);
            } catch (RuntimeException e) {
                // shutting down: the timeout answers
            }
        }
        return f;
    }

    @Override
    public void addListener(MetadataListener listener) {
        publisher.addListener(listener);
    }

    @Override
    public void removeListener(MetadataListener listener) {
        publisher.removeListener(listener);
    }

    private RaftClient newCommitClient() {
        int attempts = (int) Math.max(3, config.tuning().commitTimeout().toMillis() / CLIENT_RETRY_SLEEP.toMillis());
        return RaftClient.newBuilder()
                .setRaftGroup(group)
                .setProperties(clientProperties)
                .setParameters(clientParameters)
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(attempts,
                        TimeDuration.valueOf(CLIENT_RETRY_SLEEP.toMillis(), TimeUnit.MILLISECONDS)))
                .build();
    }

    /** Counts a commit's outcome; after enough failures in a row, replaces the commit client {@code failed}. */
    private void commitOutcome(RaftClient failed, boolean ok) {
        if (ok) {
            commitFailures.set(0);
            return;
        }
        if (commitFailures.incrementAndGet() % READER_FAILURES_BEFORE_RENEWAL != 0 || !running || client != failed) {
            return;
        }
        synchronized (this) {
            if (client != failed || !running) return;
            LOG.warn("metadata: {} commits in a row failed; trying a new client", commitFailures.get());
            client = newCommitClient();
        }
        sender.execute(() -> {
            try {
                failed.close();
            } catch (IOException | RuntimeException ignored) {
                // a broken client: replaced anyway
            }
        });
    }

    private RaftClient newReader() {
        return RaftClient.newBuilder()
                .setRaftGroup(group)
                .setProperties(clientProperties)
                .setParameters(clientParameters)
                .setRetryPolicy(RetryPolicies.noRetry())
                .build();
    }

    /** Follower thread: asks one member (in turn) for what follows our epoch and applies it. */
    private void catchUp() {
        RaftClient c = reader;
        if (client == null || c == null) return;
        ClusterMetadata before = publisher.current();
        RaftPeer peer = peers.get(Math.floorMod(nextPeer, peers.size()));
        try {
            RaftClientReply reply = c.async()
                    .sendStaleRead(Message.valueOf(UnsafeByteOperations.unsafeWrap(MetadataMessages.logSince(before.epoch()))),
                            0, peer.getId())
                    .get(config.tuning().rpcRequestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (!reply.isSuccess()) throw new IOException(String.valueOf(reply.getException()));
            apply(MetadataMessages.decodeLogState(reply.getMessage().getContent().toByteArray()));
            followerReady = true;
            readerFailures = 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | IOException | RuntimeException e) {
            nextPeer++; // try another member next time
            LOG.debug("metadata: catching up from {} failed: {}", peer.getId(), e.toString());
            if (++readerFailures % READER_FAILURES_BEFORE_RENEWAL == 0 && running) {
                LOG.warn("metadata: {} catch-up reads in a row failed (last from {}: {}); at {}, trying a new client",
                        readerFailures, peer.getId(), e.toString(), before.epoch());
                try {
                    c.close();
                } catch (IOException | RuntimeException ignored) {
                    // a broken client: replaced anyway
                }
                reader = newReader();
            }
        }
    }

    /** Applies a member's answer: skip ahead to its snapshot if any, then apply its entries in order. */
    private void apply(MetadataMessages.LogState state) {
        if (state.snapshot() != null) publisher.publish(state.snapshot(), null);
        for (MetadataStateMachine.LogEntry e : state.entries()) {
            ClusterMetadata now = publisher.current();
            if (e.epoch().compareTo(now.epoch()) <= 0) continue;
            if (e.epoch().value() != now.epoch().value() + 1) break; // a gap: ask again
            ApplyResult r = Transformations.apply(now, e.transformation());
            if (!(r instanceof ApplyResult.Applied a) || !a.metadata().epoch().equals(e.epoch())) {
                // Cannot happen with one release everywhere: a member applied it. Stop rather than diverge.
                LOG.error("metadata: entry at {} ({}) does not apply here: {}", e.epoch(), e.transformation(), r);
                return;
            }
            publisher.publish(a.metadata(), e.transformation());
        }
    }

    private RaftProperties properties() {
        MetadataServiceConfig.RaftTuning t = config.tuning();
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setHost(p, config.listenAddress());
        NettyConfigKeys.Server.setPort(p, config.port());
        // Pure Java NIO: no native transport (Cassette loads no native library).
        NettyConfigKeys.Server.setUseEpoll(p, false);
        NettyConfigKeys.Client.setUseEpoll(p, false);
        RaftServerConfigKeys.setStorageDir(p, List.of(config.dataDir().toFile()));
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, millis(t.electionTimeoutMin()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, millis(t.electionTimeoutMax()));
        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(p, millis(t.firstElectionTimeoutMin()));
        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(p, millis(t.firstElectionTimeoutMax()));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, millis(t.rpcRequestTimeout()));
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, millis(t.rpcRequestTimeout()));
        // The async client's first "dummy" watch request held the first commit's reply back for a
        // whole request timeout (measured: 3 s); the connection is made by the first real request anyway.
        RaftClientConfigKeys.Async.Experimental.setSendDummyRequest(p, false);
        // A leader that cannot reach a majority for this long steps down (Ratis' default: 10 s).
        RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(p, millis(t.electionTimeoutMax().multipliedBy(2)));
        // Memory: Ratis' defaults (200 MB segment cache, 64 MB queues, 8 MB write buffer) are for servers.
        long writeBuffer = t.writeBufferBytes();
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(t.segmentSizeBytes()));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(Math.min(t.segmentSizeBytes(), 64 << 10)));
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(p, 2);
        RaftServerConfigKeys.Log.setSegmentCacheSizeMax(p, SizeInBytes.valueOf(t.segmentCacheBytes()));
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(writeBuffer));
        // Largest entry (or batch of entries) sent at once; the write buffer must hold it plus 8 bytes.
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(writeBuffer - 1024));
        RaftServerConfigKeys.Log.Appender.setSnapshotChunkSizeMax(p, SizeInBytes.valueOf(writeBuffer - 1024));
        RaftServerConfigKeys.Log.setQueueByteLimit(p, SizeInBytes.valueOf(t.queueBytes()));
        RaftServerConfigKeys.Log.setQueueElementLimit(p, 1024);
        RaftServerConfigKeys.Write.setByteLimit(p, SizeInBytes.valueOf(Math.max(1 << 20, t.queueBytes())));
        RaftServerConfigKeys.Write.setElementLimit(p, 1024);
        // Snapshots: taken every N entries and at shutdown; the log before one is purged.
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, t.snapshotEveryEntries());
        RaftServerConfigKeys.Snapshot.setCreationGap(p, Math.max(1, Math.min(1024, t.snapshotEveryEntries())));
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.max(1, Math.min(1024, t.snapshotEveryEntries())));
        return p;
    }

    private static TimeDuration millis(Duration d) {
        return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the Raft server (taking a snapshot) or the follower, and saves the cache file; idempotent. */
    @Override
    public synchronized void close() throws IOException {
        if (worker == null) return;
        running = false;
        try {
            started.get(30, TimeUnit.SECONDS); // a start in progress finishes first, so that it can be stopped
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // nothing started, or it hangs: close what there is
        }
        // No interrupts: a Ratis client interrupted while connecting logs a stack trace per peer.
        worker.shutdown();
        IOException failure = null;
        try {
            if (client != null) client.close();
            if (reader != null) reader.close();
        } catch (IOException e) {
            failure = e;
        }
        if (server != null) server.close();
        sender.shutdown();
        try {
            worker.awaitTermination(config.tuning().rpcRequestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writeCache();
        client = null;
        reader = null;
        server = null;
        worker = null;
        started = new CompletableFuture<>();
        if (failure != null) throw failure;
    }
}
