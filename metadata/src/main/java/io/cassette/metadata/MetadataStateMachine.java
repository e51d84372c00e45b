package io.cassette.metadata;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;

/**
 * The Raft state machine of the metadata service: applies committed transformations, in
 * log order, with {@link Transformations} (deterministic), and publishes each new snapshot.
 *
 * <p>Rejected transformations stay in the Raft log (they were ordered) but do not advance
 * the epoch. Snapshots are {@link SnapshotFile}s named by Ratis' SimpleStateMachineStorage
 * ({@code sm/snapshot.<term>_<index>}, plus the .md5 file Ratis requires to pick one up).
 * Ratis calls applyTransaction from one thread; the lock pairs the metadata with the Raft
 * index it reflects for snapshots and queries.
 */
final class MetadataStateMachine extends BaseStateMachine {
    /** Entries kept in memory to answer catch-up queries without sending a whole snapshot. */
    private static final int TAIL_ENTRIES = 256;

    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final MetadataPublisher publisher;
    private final ArrayDeque<LogEntry> tail = new ArrayDeque<>(); // guarded by this
    private ClusterMetadata metadata = ClusterMetadata.EMPTY;      // guarded by this

    record LogEntry(Epoch epoch, Transformation transformation) {}

    MetadataStateMachine(MetadataPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        getLifeCycle().startAndTransition(this::loadLatestSnapshot, IOException.class); // NEW -> RUNNING
    }

    /** Ratis pauses the state machine before it installs a snapshot sent by the leader. */
    @Override
    public void pause() {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /** After a snapshot install (state PAUSED): load it and run again. Ratis asserts the PAUSED state. */
    @Override
    public void reinitialize() throws IOException {
        getLifeCycle().startAndTransition(this::loadLatestSnapshot, IOException.class); // PAUSED -> RUNNING
    }

    private void loadLatestSnapshot() throws IOException {
        SingleFileSnapshotInfo snapshot = storage.loadLatestSnapshot(); // rescans: an installed snapshot is new on disk
        if (snapshot == null) return;
        Path path = snapshot.getFile().getPath();
        if (snapshot.getFile().getFileDigest() != null) MD5FileUtil.verifySavedMD5(path.toFile(), snapshot.getFile().getFileDigest());
        ClusterMetadata loaded = SnapshotFile.read(path);
        synchronized (this) {
            metadata = loaded;
            tail.clear();
            setLastAppliedTermIndex(snapshot.getTermIndex());
        }
        LOG.info("metadata: loaded snapshot {} ({}) from {}", snapshot.getTermIndex(), loaded, path);
        publisher.publish(loaded, null);
    }

    @Override
    public SimpleStateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public long takeSnapshot() throws IOException {
        ClusterMetadata m;
        TermIndex applied;
        synchronized (this) {
            m = metadata;
            applied = getLastAppliedTermIndex();
        }
        if (applied == null || applied.getIndex() < 0) return -1;
        File file = storage.getSnapshotFile(applied.getTerm(), applied.getIndex());
        SnapshotFile.write(file.toPath(), m);
        FileInfo info = new FileInfo(file.toPath(), MD5FileUtil.computeAndSaveMd5ForFile(file));
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(info, applied));
        LOG.info("metadata: snapshot of {} at {} written to {}", m.epoch(), applied, file);
        return applied.getIndex();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        TermIndex termIndex = TermIndex.valueOf(entry);
        Transformation t = null;
        ApplyResult result;
        ClusterMetadata next = null;
        synchronized (this) {
            try {
                t = MetadataCodec.decodeTransformation(entry.getStateMachineLogEntry().getLogData().toByteArray());
                result = Transformations.apply(metadata, t);
            } catch (IllegalArgumentException e) {
                result = new ApplyResult.Rejected("malformed metadata log entry: " + e.getMessage());
            }
            if (result instanceof ApplyResult.Applied a) {
                next = a.metadata();
                metadata = next;
                tail.addLast(new LogEntry(next.epoch(), t));
                if (tail.size() > TAIL_ENTRIES) tail.removeFirst();
            }
            updateLastAppliedTermIndex(termIndex);
        }
        if (next != null) publisher.publish(next, t);
        return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(MetadataMessages.commitReply(result))));
    }

    /** Read-only queries (from nodes that follow the log, and stale reads from any member). */
    @Override
    public CompletableFuture<Message> query(Message request) {
        try {
            Epoch since = MetadataMessages.decodeLogSince(request.getContent().toByteArray());
            return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(logSince(since))));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Entries after {@code since}, or the whole snapshot when they are no longer all in the tail. */
    synchronized byte[] logSince(Epoch since) {
        List<LogEntry> entries = new ArrayList<>();
        if (!since.isAfter(metadata.epoch()) && !since.equals(metadata.epoch())) {
            boolean inTail = !tail.isEmpty() && tail.peekFirst().epoch().value() <= since.value() + 1;
            if (!inTail) return MetadataMessages.logState(metadata, List.of());
            for (LogEntry e : tail) if (e.epoch().isAfter(since)) entries.add(e);
        }
        return MetadataMessages.logState(null, entries);
    }
}
