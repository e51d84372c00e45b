package io.cassette.metadata;

import static io.cassette.metadata.Fixtures.host;
import static io.cassette.metadata.Fixtures.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TokenAllocatorTest {
    private static ClusterMetadata join(ClusterMetadata m, int i, String dc) {
        List<Long> tokens = TokenAllocator.allocate(m, dc, TokenAllocator.DEFAULT_NUM_TOKENS);
        assertThat(tokens).hasSize(TokenAllocator.DEFAULT_NUM_TOKENS).doesNotHaveDuplicates();
        return Transformations.applyAll(m, List.of(Transformation.register("ring", member(i, dc)),
                Transformation.prepareJoin(host(i), tokens), Transformation.startJoin(host(i)), Transformation.finishJoin(host(i))));
    }

    @Test
    void theFirstNodeGetsEvenlySpacedTokens() {
        List<Long> tokens = TokenAllocator.allocate(ClusterMetadata.EMPTY, "dc1", 4);
        assertThat(tokens).containsExactly(-6917529027641081856L, -2305843009213693952L, 2305843009213693952L, 6917529027641081856L);
    }

    @Test
    void ownershipStaysBalancedAsNodesJoin() {
        ClusterMetadata m = ClusterMetadata.EMPTY;
        for (int n = 1; n <= 8; n++) {
            m = join(m, n, "dc1");
            Map<UUID, Double> owns = Ownership.primary(m);
            double sum = owns.values().stream().mapToDouble(Double::doubleValue).sum();
            assertThat(sum).isCloseTo(1.0, within(1e-9));
            double max = Collections.max(owns.values());
            double min = Collections.min(owns.values());
            System.out.printf("%d nodes: min %.3f max %.3f ideal %.3f%n", n, min, max, 1.0 / n);
            assertThat(max).as("max share with %d nodes", n).isLessThan(1.02 / n);
            assertThat(min).as("min share with %d nodes", n).isGreaterThan(0.98 / n);
        }
        Map<UUID, Double> effective = Ownership.effective(m, "dc1", 3);
        assertThat(effective.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(3.0, within(1e-9));
        for (double share : effective.values()) assertThat(share).isBetween(3 * 0.7 / 8, 3 * 1.3 / 8);
    }

    @Test
    void aRingWithRandomTokensGetsCloserToBalanced() {
        java.util.Random random = new java.util.Random(42);
        ClusterMetadata m = ClusterMetadata.EMPTY;
        for (int i = 1; i <= 3; i++) {
            List<Long> tokens = new java.util.ArrayList<>();
            for (int t = 0; t < 16; t++) tokens.add(random.nextLong());
            m = Transformations.applyAll(m, List.of(Transformation.register("ring", member(i)),
                    Transformation.prepareJoin(host(i), tokens), Transformation.startJoin(host(i)), Transformation.finishJoin(host(i))));
        }
        double spreadBefore = spread(Ownership.primary(m));
        m = join(m, 4, "dc1");
        Map<UUID, Double> owns = Ownership.primary(m);
        System.out.printf("random ring: spread %.3f before, %.3f after; new node %.3f%n", spreadBefore, spread(owns), owns.get(host(4)));
        assertThat(owns.get(host(4))).isCloseTo(0.25, within(0.02));
        assertThat(spread(owns)).isLessThan(spreadBefore);
    }

    private static double spread(Map<UUID, Double> owns) {
        return Collections.max(owns.values()) - Collections.min(owns.values());
    }

    @Test
    void dataCentresAreBalancedSeparatelyAndNeverShareTokens() {
        ClusterMetadata m = ClusterMetadata.EMPTY;
        m = join(m, 1, "dc1");
        m = join(m, 2, "dc2"); // its own ring: evenly spaced, but not on dc1's tokens
        assertThat(m.tokensOf(host(2))).doesNotContainAnyElementsOf(m.tokensOf(host(1)));
        m = join(m, 3, "dc1");
        Map<UUID, Double> dc1 = Ownership.effective(m, "dc1", 1);
        assertThat(dc1).containsOnlyKeys(host(1), host(3));
        assertThat(dc1.get(host(3))).isCloseTo(0.5, within(0.05));
    }

    @Test
    void tokensReservedByAJoinInProgressAreAvoided() {
        ClusterMetadata m = join(ClusterMetadata.EMPTY, 1, "dc1");
        m = Transformations.applyAll(m, List.of(Transformation.register("ring", member(2)),
                Transformation.prepareJoin(host(2), TokenAllocator.allocate(m, "dc1", 16))));
        List<Long> third = TokenAllocator.allocate(m, "dc1", 16);
        assertThat(third).doesNotContainAnyElementsOf(m.plan(host(2)).tokens());
        m = Transformations.applyAll(m, List.of(Transformation.register("ring", member(3))));
        // One ring change at a time (the allocator still avoids the reserved tokens).
        assertThat(Transformations.apply(m, Transformation.prepareJoin(host(3), third)))
                .isInstanceOf(ApplyResult.Rejected.class);
        assertThat(m.plans()).hasSize(1);
    }
}
