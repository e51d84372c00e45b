package io.cassette.metadata;

import static io.cassette.metadata.Fixtures.host;
import static io.cassette.metadata.Fixtures.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class LocalMetadataLogTest {
    @Test
    void commitsInOrderRejectsWithReasonsAndWaitsForEpochs() throws Exception {
        LocalMetadataLog log = new LocalMetadataLog();
        List<String> seen = new CopyOnWriteArrayList<>();
        log.addListener((prev, next, t) -> seen.add(prev.epoch().value() + "->" + next.epoch().value() + " " + t.kind()));
        var waiter = log.awaitEpoch(Epoch.of(2), Duration.ofSeconds(5));
        assertThat(waiter).isNotDone();

        log.commit(Transformation.register("ring", member(1))).get();
        assertThatThrownBy(() -> log.commit(Transformation.finishJoin(host(1))).get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(MetadataRejectedException.class);
        ClusterMetadata m = log.commit(Transformation.prepareJoin(host(1), List.of(1L))).get();

        assertThat(waiter.get()).isSameAs(m);
        assertThat(seen).containsExactly("0->1 REGISTER", "1->2 PREPARE_JOIN");
        assertThatThrownBy(() -> log.awaitEpoch(Epoch.of(9), Duration.ofMillis(20)).get())
                .hasCauseInstanceOf(TimeoutException.class).hasMessageContaining("this node is at epoch 2");
    }
}
