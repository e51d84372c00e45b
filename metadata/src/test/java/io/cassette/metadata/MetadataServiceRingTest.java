package io.cassette.metadata;

import static io.cassette.metadata.Fixtures.host;
import static io.cassette.metadata.Fixtures.member;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Three metadata service members on 127.0.0.1-3 (and a follower on 127.0.0.4) in one JVM. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MetadataServiceRingTest {
    @TempDir Path dir;

    /** Records what a node's listener saw: "epoch kind", or "epoch jump" for a snapshot. */
    static List<String> record(MetadataLog log) {
        List<String> seen = new CopyOnWriteArrayList<>();
        log.addListener((prev, next, applied) -> seen.add(next.epoch().value() + " " + (applied == null ? "jump" : applied.kind())));
        return seen;
    }

    static ClusterMetadata commit(MetadataLog log, Transformation t) throws Exception {
        return log.commit(t).get(20, TimeUnit.SECONDS);
    }

    static Transformation ddl(String text, Epoch expected) {
        return Transformation.schema("DDL", text.getBytes(StandardCharsets.UTF_8), expected);
    }

    static void awaitAll(TestRing ring, Epoch epoch, int... indexes) throws Exception {
        for (int i : indexes) ring.node(i).awaitEpoch(epoch, Duration.ofSeconds(20)).get();
    }

    @Test
    void everyNodeSeesTheSameEpochsInTheSameOrderWhoeverCommits() throws Exception {
        try (TestRing ring = new TestRing(dir, 3, 1, TestRing.TEST_TUNING).startAll()) {
            List<List<String>> seen = new ArrayList<>();
            for (int i = 0; i < 4; i++) seen.add(record(ring.node(i)));
            int leader = ring.leader();
            assertThat(leader).isBetween(0, 2);
            int follower = (leader + 1) % 3;
            assertThat(ring.node(3).isMember()).isFalse();

            ClusterMetadata m = commit(ring.node(leader), Transformation.register("ring", member(1)));
            m = commit(ring.node(follower), Transformation.prepareJoin(host(1), TokenAllocator.allocate(m, "dc1", 16)));
            m = commit(ring.node(3), Transformation.startJoin(host(1)));          // from outside the service
            assertThat(m.epoch()).isEqualTo(Epoch.of(3));
            m = commit(ring.node(follower), Transformation.finishJoin(host(1)));
            for (int i = 0; i < 4; i++) m = commit(ring.node(i), ddl("ddl from node " + i, null));
            assertThat(m.epoch()).isEqualTo(Epoch.of(8));

            awaitAll(ring, Epoch.of(8), 0, 1, 2, 3);
            for (int i = 1; i < 4; i++) assertThat(ring.node(i).current()).isEqualTo(ring.node(0).current());
            List<String> expected = List.of("1 REGISTER", "2 PREPARE_JOIN", "3 START_JOIN", "4 FINISH_JOIN",
                    "5 SCHEMA", "6 SCHEMA", "7 SCHEMA", "8 SCHEMA");
            for (int i = 0; i < 3; i++) assertThat(seen.get(i)).as("node %d", i).isEqualTo(expected);
            // The follower applies the same entries (it may have skipped ahead only by a snapshot at start).
            assertThat(seen.get(3)).isEqualTo(expected);
            assertThat(ring.node(3).current().tokensOf(host(1))).hasSize(16);
        }
    }

    @Test
    void aMinorityDownLeavesCommitsWorkingAMajorityDownFailsClearlyAndRestartsCatchUp() throws Exception {
        var tuning = TestRing.TEST_TUNING.withCommitTimeout(Duration.ofSeconds(3));
        try (TestRing ring = new TestRing(dir, 3, 0, tuning).startAll()) {
            commit(ring.node(0), ddl("one", null));
            int leader = ring.leader();
            ring.kill(leader);                                  // the worst one to lose
            int a = (leader + 1) % 3;
            int b = (leader + 2) % 3;
            long t0 = System.nanoTime();
            // The survivors elect a leader first: the 3 s commit timeout is for the no-quorum case
            // below, and an election on a loaded CI machine can take longer than that.
            long electionDeadline = t0 + TimeUnit.SECONDS.toNanos(20);
            while (!ring.isLeader(a) && !ring.isLeader(b)) {
                assertThat(System.nanoTime()).as("a survivor becomes leader").isLessThan(electionDeadline);
                Thread.sleep(20);
            }
            ClusterMetadata m = commit(ring.node(a), ddl("two", null));
            System.out.println("commit after losing the leader: " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms");
            assertThat(m.epoch()).isEqualTo(Epoch.of(2));
            m = commit(ring.node(b), ddl("three", m.schemaEpoch()));
            assertThat(m.epoch()).isEqualTo(Epoch.of(3));

            ring.kill(b);
            ClusterMetadata before = ring.node(a).current();
            long f0 = System.nanoTime();
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> ring.node(a).commit(ddl("four", null)).get(20, TimeUnit.SECONDS));
            long failMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - f0);
            System.out.println("commit without quorum failed after " + failMillis + " ms: " + e.getCause().getMessage());
            assertThat(e.getCause()).isInstanceOf(MetadataUnavailableException.class)
                    .hasMessage("metadata service unavailable: no quorum (1 of 3 members reachable)");
            assertThat(failMillis).isLessThan(tuning.commitTimeout().toMillis() + 3000);
            assertThat(ring.node(a).current()).isEqualTo(before); // reads of the snapshot still work

            ring.start(leader);
            ring.start(b);
            // Once a majority is back, a commit goes through. The entry that timed out may apply
            // too, before or after it (the client still retries it for a while): at most once.
            m = commit(ring.node(leader), ddl("five", null));
            awaitAll(ring, m.epoch(), 0, 1, 2);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!(ring.node(1).current().equals(ring.node(0).current()) && ring.node(2).current().equals(ring.node(0).current()))) {
                assertThat(System.nanoTime()).as("all three converge").isLessThan(deadline);
                Thread.sleep(50);
            }
            List<String> ddl = ring.node(0).current().schema().stream().map(s -> new String(s.payload(), StandardCharsets.UTF_8)).toList();
            assertThat(ddl).startsWith("one", "two", "three").contains("five").doesNotHaveDuplicates();
            assertThat(ddl).isSubsetOf("one", "two", "three", "four", "five");
        }
    }

    @Test
    void concurrentCommitsFromTwoNodesAreSerialisedAndNeverDiverge() throws Exception {
        try (TestRing ring = new TestRing(dir, 3, 0, TestRing.TEST_TUNING).startAll()) {
            commit(ring.node(0), Transformation.register("ring", member(1)));
            commit(ring.node(0), Transformation.register("ring", member(2)));
            awaitAll(ring, Epoch.of(2), 0, 1, 2);
            List<List<String>> seen = new ArrayList<>();
            for (int i = 0; i < 3; i++) seen.add(record(ring.node(i)));
            // Two joins racing for the same token: exactly one wins.
            var j1 = ring.node(1).commit(Transformation.prepareJoin(host(1), List.of(100L, 200L)));
            var j2 = ring.node(2).commit(Transformation.prepareJoin(host(2), List.of(200L, 300L)));
            int won = 0;
            for (var f : List.of(j1, j2)) {
                try {
                    f.get(20, TimeUnit.SECONDS);
                    won++;
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(MetadataRejectedException.class)
                            .hasMessageContaining("token 200 is already reserved by the join of host");
                }
            }
            assertThat(won).isEqualTo(1);

            // Unconditional changes from two nodes at once: all land, in one order.
            int burst = 10;
            List<CompletableFuture<ClusterMetadata>> futures = new ArrayList<>();
            for (int i = 0; i < burst; i++) {
                for (int n = 1; n <= 2; n++) futures.add(ring.node(n).commit(ddl("burst " + n + "." + i, null)));
            }
            for (var f : futures) f.get(30, TimeUnit.SECONDS);

            // DDL checked against the schema each node saw: the loser of a race is rejected
            // deterministically, re-reads and retries; every statement lands exactly once.
            int perNode = 8;
            int[] rejections = new int[3];
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            for (int n = 1; n <= 2; n++) {
                int node = n;
                writers.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < perNode; i++) {
                        for (int attempt = 0; ; attempt++) {
                            if (attempt == 100) throw new AssertionError("node " + node + " statement " + i + " never landed");
                            MetadataService log = ring.node(node);
                            try {
                                log.commit(ddl("checked " + node + "." + i, log.current().schemaEpoch())).get(30, TimeUnit.SECONDS);
                                break;
                            } catch (ExecutionException e) {
                                assertThat(e.getCause()).isInstanceOf(MetadataRejectedException.class)
                                        .hasMessageStartingWith("schema changed concurrently");
                                rejections[node]++;
                                try { Thread.sleep(5); } catch (InterruptedException ie) { throw new AssertionError(ie); }
                            } catch (Exception e) {
                                throw new AssertionError(e);
                            }
                        }
                    }
                }));
            }
            for (var w : writers) w.get(120, TimeUnit.SECONDS);
            System.out.println("concurrent checked DDL: " + (rejections[1] + rejections[2]) + " rejections before "
                    + 2 * perNode + " statements landed");
            Epoch last = Epoch.of(3 + 2 * burst + 2 * perNode);
            awaitAll(ring, last, 0, 1, 2);
            ClusterMetadata m = ring.node(0).current();
            assertThat(m.epoch()).isEqualTo(last);
            List<String> statements = m.schema().stream().map(e -> new String(e.payload(), StandardCharsets.UTF_8)).toList();
            assertThat(statements).hasSize(2 * burst + 2 * perNode).doesNotHaveDuplicates();
            for (int i = 1; i < 3; i++) {
                assertThat(ring.node(i).current()).isEqualTo(m);
                assertThat(seen.get(i)).isEqualTo(seen.get(0));
            }
        }
    }

    @Test
    void snapshotsLetARestartedMemberCatchUpAndTheWholeServiceRestart() throws Exception {
        // Small segments, so that closed segments exist and are purged after each snapshot: the
        // member restarted later must then be sent a snapshot instead of the entries it missed.
        var tuning = TestRing.TEST_TUNING.withSnapshotEveryEntries(5).withSegmentSizeBytes(1024);
        try (TestRing ring = new TestRing(dir, 3, 1, tuning).startAll()) {
            commit(ring.node(0), ddl("first", null));
            awaitAll(ring, Epoch.of(1), 2);
            int down = ring.leader() == 2 ? 1 : 2;
            int up = 3 - down == 3 ? 0 : (down == 1 ? 2 : 1);
            ring.kill(down);
            ClusterMetadata m = null;
            for (int i = 0; i < 30; i++) m = commit(ring.node(up), ddl("stmt " + i, null));
            assertThat(m.epoch()).isEqualTo(Epoch.of(31));
            // Only the Raft snapshot directory: the cache file next to it is being replaced concurrently.
            Path sm = ring.configs.get(up).dataDir().resolve(MetadataService.GROUP_ID.getUuid().toString()).resolve("sm");
            try (Stream<Path> files = Files.list(sm)) {
                assertThat(files.filter(p -> p.getFileName().toString().matches("snapshot\\.\\d+_\\d+"))).isNotEmpty();
            }

            List<String> seen = new CopyOnWriteArrayList<>();
            MetadataService restarted = ring.start(down);
            restarted.addListener((prev, next, applied) -> seen.add(next.epoch().value() + (applied == null ? " jump" : "")));
            restarted.awaitEpoch(m.epoch(), Duration.ofSeconds(30)).get();
            assertThat(restarted.current()).isEqualTo(m);
            System.out.println("restarted member caught up with: " + seen);
            assertThat(seen).as("a snapshot was installed").anyMatch(e -> e.endsWith("jump"));

            // The whole service stops and starts again: every node recovers the same snapshot.
            ClusterMetadata last = commit(ring.node(3), ddl("from the follower", null));
            awaitAll(ring, last.epoch(), 0, 1, 2, 3);
            for (int i = 0; i < 4; i++) ring.kill(i);
            for (int i = 0; i < 4; i++) ring.start(i);
            for (int i = 0; i < 4; i++) {
                assertThat(ring.node(i).awaitReady(Duration.ofSeconds(20))).isTrue();
                ring.node(i).awaitEpoch(last.epoch(), Duration.ofSeconds(20)).get();
                assertThat(ring.node(i).current()).as("node %d", i).isEqualTo(last);
            }
            assertThat(commit(ring.node(0), ddl("after restart", last.schemaEpoch())).epoch()).isEqualTo(last.epoch().next());
        }
    }
}
