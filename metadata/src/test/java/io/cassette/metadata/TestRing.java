package io.cassette.metadata;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Metadata service nodes in one JVM: node i listens on 127.0.0.i with a free port, and the
 * first {@code members} nodes form the metadata service. Nodes can be stopped ("killed")
 * and started again on the same address, port and data directory.
 */
final class TestRing implements AutoCloseable {
    /** Shorter than the board defaults so that failover tests stay quick; still Wi-Fi-like ratios. */
    static final MetadataServiceConfig.RaftTuning TEST_TUNING = MetadataServiceConfig.RaftTuning.board()
            .withElectionTimeouts(Duration.ofMillis(700), Duration.ofMillis(1400))
            .withCommitTimeout(Duration.ofSeconds(10));

    /** Ratis logs every Netty read at INFO; keep test logs readable (strong reference: JUL keeps weak ones). */
    private static final java.util.logging.Logger RATIS_LOG = java.util.logging.Logger.getLogger("org.apache.ratis");

    static {
        RATIS_LOG.setLevel(java.util.logging.Level.parse(System.getProperty("metadata.test.ratisLog", "WARNING")));
    }

    final List<MetadataServiceConfig> configs = new ArrayList<>();
    final MetadataService[] nodes;

    TestRing(Path dir, int members, int followers, MetadataServiceConfig.RaftTuning tuning) throws IOException {
        int total = members + followers;
        int[] ports = new int[total];
        List<String> memberList = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            ports[i] = freePort(address(i));
            if (i < members) memberList.add(address(i) + ":" + ports[i]);
        }
        for (int i = 0; i < total; i++) {
            configs.add(MetadataServiceConfig.of(address(i), ports[i], memberList, dir.resolve("node" + (i + 1) + "/metadata"))
                    .withTuning(tuning));
        }
        nodes = new MetadataService[total];
    }

    static String address(int index) {
        return "127.0.0." + (index + 1);
    }

    /**
     * A port free on {@code host}, below the ephemeral range (32768+): Ratis binds it seconds
     * later, and a port the kernel hands out to client sockets could be taken by then.
     */
    static int freePort(String host) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = java.util.concurrent.ThreadLocalRandom.current().nextInt(10_000, 32_000);
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(host))) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port below 32000 on " + host);
    }

    TestRing startAll() throws Exception {
        for (int i = 0; i < nodes.length; i++) start(i);
        for (int i = 0; i < nodes.length; i++) {
            if (!nodes[i].awaitReady(Duration.ofSeconds(20))) throw new AssertionError("node " + i + " not ready");
        }
        return this;
    }

    MetadataService start(int i) throws IOException {
        nodes[i] = new MetadataService(configs.get(i));
        nodes[i].start();
        return nodes[i];
    }

    void kill(int i) throws IOException {
        nodes[i].close();
    }

    MetadataService node(int i) {
        return nodes[i];
    }

    /** Index of the current Raft leader among running members, or -1. */
    int leader() {
        for (int i = 0; i < nodes.length; i++) if (isLeader(i)) return i;
        return -1;
    }

    boolean isLeader(int i) {
        String s = nodes[i] == null ? null : nodes[i].raftStatus();
        return s != null && s.startsWith("LEADER");
    }

    @Override
    public void close() {
        for (MetadataService n : nodes) {
            try {
                if (n != null) n.close();
            } catch (IOException | RuntimeException e) {
                // keep closing the others
            }
        }
    }
}
