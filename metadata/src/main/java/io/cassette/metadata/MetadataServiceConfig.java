package io.cassette.metadata;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one node runs or follows the metadata service.
 *
 * <p>The metadata service is the nodes listed in {@code members} ("host:port", the same list
 * on every node, 1 to 3 entries for a board ring, at most 7). A node whose
 * {@code listenAddress:port} is in the list runs a Raft server; every other node follows the
 * log by asking a member. The Raft peer id of a member is derived from its address
 * ({@link #peerId(String, int)}), so the list is all a node needs to find its group.
 *
 * @param nodeId        this node's Raft peer id, normally {@code peerId(listenAddress, port)}
 * @param listenAddress the address this node binds (server configuration: listen_address)
 * @param port          the metadata port: configuration key {@code metadata_port}, default
 *                      {@link #DEFAULT_PORT} (storage_port + 1)
 * @param members       the metadata service, "host:port" each
 * @param dataDir       where the Raft log and snapshots live, normally {@code <data>/metadata}
 * @param tuning        Raft sizes and timeouts; {@link RaftTuning#board()} by default
 */
public record MetadataServiceConfig(String nodeId, String listenAddress, int port, List<String> members,
                                    Path dataDir, RaftTuning tuning) {
    /** storage_port (7000) + 1: free, since Cassette serves TLS internode on storage_port itself. */
    public static final int DEFAULT_PORT = 7001;
    /** More members make each commit slower and buy nothing on a board ring. */
    public static final int MAX_MEMBERS = 7;

    public MetadataServiceConfig {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(listenAddress, "listenAddress");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(tuning, "tuning");
        members = List.copyOf(members);
        if (members.isEmpty() || members.size() > MAX_MEMBERS) {
            throw new IllegalArgumentException("metadata service members: " + members.size() + " (expected: 1.." + MAX_MEMBERS + ")");
        }
        for (String m : members) hostOf(m); // validates
        if (members.stream().distinct().count() != members.size()) throw new IllegalArgumentException("metadata service members repeat: " + members);
        if (port < 1 || port > 65535) throw new IllegalArgumentException("metadata_port: " + port + " (expected: 1..65535)");
    }

    /** The usual way to build one: the node id follows from the address. */
    public static MetadataServiceConfig of(String listenAddress, int port, List<String> members, Path dataDir) {
        return new MetadataServiceConfig(peerId(listenAddress, port), listenAddress, port, members, dataDir, RaftTuning.board());
    }

    public MetadataServiceConfig withTuning(RaftTuning t) {
        return new MetadataServiceConfig(nodeId, listenAddress, port, members, dataDir, t);
    }

    /** True when this node is one of the metadata service's members. */
    public boolean isMember() {
        return members.stream().anyMatch(m -> peerId(hostOf(m), portOf(m)).equals(nodeId));
    }

    /** The Raft peer id of the member at host:port ("127.0.0.1_7001"). */
    public static String peerId(String host, int port) {
        return host.replace(':', '-').replace('[', '-').replace(']', '-') + "_" + port;
    }

    static String hostOf(String member) {
        int colon = member.lastIndexOf(':');
        if (colon <= 0 || colon == member.length() - 1) {
            throw new IllegalArgumentException("metadata service member '" + member + "' (expected: host:port)");
        }
        portOf(member);
        String host = member.substring(0, colon);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    static int portOf(String member) {
        String p = member.substring(member.lastIndexOf(':') + 1);
        try {
            int port = Integer.parseInt(p);
            if (port < 1 || port > 65535) throw new NumberFormatException();
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("metadata service member '" + member + "': bad port '" + p + "'");
        }
    }

    /** Sizes and timeouts of the Raft group. */
    public record RaftTuning(Duration electionTimeoutMin, Duration electionTimeoutMax,
                             Duration firstElectionTimeoutMin, Duration firstElectionTimeoutMax,
                             Duration rpcRequestTimeout, Duration commitTimeout, Duration followerPollInterval,
                             long segmentSizeBytes, long segmentCacheBytes, long writeBufferBytes,
                             long queueBytes, long snapshotEveryEntries) {
        /**
         * For boards on Wi-Fi with 64–128 MB heaps: elections after 1–2 s of silence (a GC pause
         * or a Wi-Fi hiccup of a few hundred ms must not depose a leader; Ratis' defaults are
         * 150–300 ms), a first election after 50–150 ms (a lone node is ready at once), a few
         * MB of buffers instead of Ratis' 64–200 MB, and a snapshot every 1,000 entries.
         */
        public static RaftTuning board() {
            return new RaftTuning(Duration.ofMillis(1000), Duration.ofMillis(2000),
                    Duration.ofMillis(50), Duration.ofMillis(150),
                    Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(1),
                    1 << 20, 2 << 20, 64 << 10, 2 << 20, 1000);
        }

        public RaftTuning withElectionTimeouts(Duration min, Duration max) {
            return new RaftTuning(min, max, firstElectionTimeoutMin, firstElectionTimeoutMax, rpcRequestTimeout,
                    commitTimeout, followerPollInterval, segmentSizeBytes, segmentCacheBytes, writeBufferBytes, queueBytes,
                    snapshotEveryEntries);
        }

        public RaftTuning withCommitTimeout(Duration t) {
            return new RaftTuning(electionTimeoutMin, electionTimeoutMax, firstElectionTimeoutMin, firstElectionTimeoutMax,
                    rpcRequestTimeout, t, followerPollInterval, segmentSizeBytes, segmentCacheBytes, writeBufferBytes,
                    queueBytes, snapshotEveryEntries);
        }

        public RaftTuning withSegmentSizeBytes(long bytes) {
            return new RaftTuning(electionTimeoutMin, electionTimeoutMax, firstElectionTimeoutMin, firstElectionTimeoutMax,
                    rpcRequestTimeout, commitTimeout, followerPollInterval, bytes, segmentCacheBytes,
                    writeBufferBytes, queueBytes, snapshotEveryEntries);
        }

        public RaftTuning withSnapshotEveryEntries(long n) {
            return new RaftTuning(electionTimeoutMin, electionTimeoutMax, firstElectionTimeoutMin, firstElectionTimeoutMax,
                    rpcRequestTimeout, commitTimeout, followerPollInterval, segmentSizeBytes, segmentCacheBytes,
                    writeBufferBytes, queueBytes, n);
        }
    }
}
