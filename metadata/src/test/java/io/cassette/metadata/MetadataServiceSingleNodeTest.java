package io.cassette.metadata;

import static io.cassette.metadata.Fixtures.host;
import static io.cassette.metadata.Fixtures.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetadataServiceSingleNodeTest {
    @TempDir Path dir;

    @Test
    void aLoneMemberStartsFastCommitsAndRecoversAfterRestart() throws Exception {
        // Warm the classes once so the figure is the service's start, not class loading.
        try (TestRing warm = new TestRing(dir.resolve("warm"), 1, 0, MetadataServiceConfig.RaftTuning.board())) {
            warm.startAll();
        }
        try (TestRing ring = new TestRing(dir.resolve("ring"), 1, 0, MetadataServiceConfig.RaftTuning.board())) {
            long t0 = System.nanoTime();
            MetadataService node = ring.start(0);
            long startMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(startMillis).as("start() returns before Raft has started, ms").isLessThan(1000);
            assertThat(node.awaitReady(Duration.ofSeconds(10))).isTrue();
            long readyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            System.out.println("1-member metadata service: start() " + startMillis + " ms, ready (leader) " + readyMillis + " ms");
            // Well under a second on a quiet machine (246 ms measured); generous here so a loaded CI host does not fail it.
            assertThat(readyMillis).as("start to ready, ms").isLessThan(5000);

            List<Epoch> seen = new CopyOnWriteArrayList<>();
            node.addListener((prev, next, applied) -> seen.add(next.epoch()));
            long c0 = System.nanoTime();
            ClusterMetadata m = node.commit(Transformation.register("ring", member(1))).get(5, TimeUnit.SECONDS);
            System.out.println("first commit " + TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - c0) + " µs");
            assertThat(m.epoch()).isEqualTo(Epoch.of(1));
            m = node.commit(Transformation.prepareJoin(host(1), TokenAllocator.allocate(m, "dc1", 16))).get(5, TimeUnit.SECONDS);
            m = node.commit(Transformation.startJoin(host(1))).get(5, TimeUnit.SECONDS);
            m = node.commit(Transformation.finishJoin(host(1))).get(5, TimeUnit.SECONDS);
            long s0 = System.nanoTime();
            int n = 100;
            for (int i = 0; i < n; i++) {
                m = node.commit(Transformation.schema("DDL", ("stmt " + i).getBytes(StandardCharsets.UTF_8), null)).get(5, TimeUnit.SECONDS);
            }
            System.out.println("sequential commits on 1 member: " + TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - s0) / n + " µs each");
            assertThat(m.epoch()).isEqualTo(Epoch.of(104));
            assertThat(seen).hasSize(104);
            for (int i = 0; i < seen.size(); i++) assertThat(seen.get(i)).isEqualTo(Epoch.of(i + 1));

            ExecutionException rejected = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> node.commit(Transformation.prepareJoin(host(1), List.of(1L))).get(5, TimeUnit.SECONDS));
            assertThat(rejected.getCause()).isInstanceOf(MetadataRejectedException.class)
                    .hasMessageContaining("expected state REGISTERED");
            assertThat(node.current().epoch()).isEqualTo(Epoch.of(104)); // a rejection takes no epoch

            ClusterMetadata before = node.current();
            ring.kill(0);
            assertThatThrownBy(() -> node.commit(Transformation.startJoin(host(1))).get())
                    .hasCauseInstanceOf(IllegalStateException.class);
            long r0 = System.nanoTime();
            MetadataService again = ring.start(0);
            assertThat(again.current()).as("the cached snapshot is served before Raft has started").isEqualTo(before);
            assertThat(again.awaitReady(Duration.ofSeconds(10))).isTrue();
            again.awaitEpoch(before.epoch(), Duration.ofSeconds(5)).get();
            System.out.println("restart to ready with " + before.epoch() + ": " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - r0) + " ms");
            assertThat(again.current()).isEqualTo(before);
            assertThat(again.commit(Transformation.schema("DDL", new byte[0], before.schemaEpoch())).get(5, TimeUnit.SECONDS).epoch())
                    .isEqualTo(Epoch.of(105));
        }
    }
}
