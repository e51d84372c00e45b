package io.cassette.metadata;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Measures what the metadata service costs a node, in a fresh JVM (run it as a program, see
 * the README): start to ready of a lone member, threads, live heap after commits, and the
 * time per commit. Arguments: members (1 or 3), commits.
 */
public final class MetadataFootprintProbe {
    public static void main(String[] args) throws Exception {
        java.util.logging.Logger ratis = java.util.logging.Logger.getLogger("org.apache.ratis");
        ratis.setLevel(java.util.logging.Level.WARNING);
        int members = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int commits = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        Path dir = Files.createTempDirectory("metadata-probe");
        int threadsBefore = Thread.activeCount();
        long heapBefore = liveHeap();
        long t0 = System.nanoTime();
        try (TestRing ring = new TestRing(dir, members, 0, MetadataServiceConfig.RaftTuning.board())) {
            for (int i = 0; i < members; i++) ring.start(i);
            for (int i = 0; i < members; i++) ring.node(i).awaitReady(Duration.ofSeconds(30));
            long readyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            long readyCpu = cpuMillis();
            int threadsReady = Thread.activeCount();
            MetadataService node = ring.node(0);
            long c0 = System.nanoTime();
            node.commit(Transformation.register("probe", Fixtures.member(1))).get(30, TimeUnit.SECONDS);
            long firstCommitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - c0);
            long firstCommitCpu = cpuMillis() - readyCpu;
            long s0 = System.nanoTime();
            for (int i = 1; i < commits; i++) {
                node.commit(Transformation.schema("DDL", ("CREATE TABLE ks.t" + i + " (k int PRIMARY KEY, v text)")
                        .getBytes(StandardCharsets.UTF_8), null)).get(30, TimeUnit.SECONDS);
            }
            long perCommitMicros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - s0) / Math.max(1, commits - 1);
            long heapAfter = liveHeap();
            System.out.printf("members=%d start-to-ready=%d ms first-commit=%d ms commit=%d µs (sequential, %d commits)%n",
                    members, readyMillis, firstCommitMillis, perCommitMicros, commits);
            System.out.printf("process CPU: %d ms from JVM start to ready, %d ms for the first commit%n", readyCpu, firstCommitCpu);
            System.out.printf("threads: %d before, %d when ready, %d after commits (all %d nodes in this JVM)%n",
                    threadsBefore, threadsReady, Thread.activeCount(), members);
            System.out.printf("live heap: %.1f MB before, %.1f MB after (metadata at %s)%n",
                    heapBefore / 1e6, heapAfter / 1e6, node.current());
            List<String> names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .map(n -> n.replaceAll("\\d+", "N")).sorted().toList();
            System.out.println("thread names: " + names);
        }
    }

    private static long cpuMillis() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return TimeUnit.NANOSECONDS.toMillis(os.getProcessCpuTime());
    }

    private static long liveHeap() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
