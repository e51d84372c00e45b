package io.cassette.metadata;

import static io.cassette.metadata.Fixtures.host;
import static io.cassette.metadata.Fixtures.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransformationsTest {
    private static ClusterMetadata apply(ClusterMetadata m, Transformation t) {
        ApplyResult r = Transformations.apply(m, t);
        assertThat(r).as("%s on %s", t, m).isInstanceOf(ApplyResult.Applied.class);
        return ((ApplyResult.Applied) r).metadata();
    }

    private static String rejection(ClusterMetadata m, Transformation t) {
        ApplyResult r = Transformations.apply(m, t);
        assertThat(r).as("%s on %s", t, m).isInstanceOf(ApplyResult.Rejected.class);
        return ((ApplyResult.Rejected) r).reason();
    }

    private static ClusterMetadata joined(ClusterMetadata m, int i, List<Long> tokens) {
        m = apply(m, Transformation.register("ring", member(i)));
        m = apply(m, Transformation.prepareJoin(host(i), tokens));
        m = apply(m, Transformation.startJoin(host(i)));
        return apply(m, Transformation.finishJoin(host(i)));
    }

    @Test
    void joinWalksThroughItsStepsAndEachStepIsAnEpoch() {
        ClusterMetadata m = apply(ClusterMetadata.EMPTY, Transformation.register("ring", member(1)));
        assertThat(m.epoch()).isEqualTo(Epoch.of(1));
        assertThat(m.clusterName()).isEqualTo("ring");
        assertThat(m.member(host(1)).state()).isEqualTo(NodeState.REGISTERED);

        m = apply(m, Transformation.prepareJoin(host(1), List.of(30L, 10L, 20L)));
        assertThat(m.member(host(1)).state()).isEqualTo(NodeState.JOINING);
        assertThat(m.plan(host(1)).tokens()).containsExactly(10L, 20L, 30L);
        assertThat(m.tokens()).isEmpty();
        m = apply(m, Transformation.startJoin(host(1)));
        assertThat(m.plan(host(1)).step()).isEqualTo(InProgressPlan.Step.STARTED);
        m = apply(m, Transformation.finishJoin(host(1)));
        assertThat(m.epoch()).isEqualTo(Epoch.of(4));
        assertThat(m.member(host(1)).state()).isEqualTo(NodeState.NORMAL);
        assertThat(m.tokensOf(host(1))).containsExactly(10L, 20L, 30L);
        assertThat(m.plans()).isEmpty();
        assertThat(m.ownerOf(15)).isEqualTo(host(1));
        assertThat(m.ownerOf(31)).isEqualTo(host(1)); // wraps
    }

    @Test
    void tokensAlreadyOwnedOrReservedAreRejected() {
        ClusterMetadata m = joined(ClusterMetadata.EMPTY, 1, List.of(10L, 20L));
        m = apply(m, Transformation.register("ring", member(2)));
        assertThat(rejection(m, Transformation.prepareJoin(host(2), List.of(5L, 20L))))
                .isEqualTo("token 20 is already owned by host " + host(1));
        m = apply(m, Transformation.register("ring", member(3)));
        m = apply(m, Transformation.prepareJoin(host(2), List.of(25L)));
        assertThat(rejection(m, Transformation.prepareJoin(host(3), List.of(25L))))
                .isEqualTo("token 25 is already reserved by the join of host " + host(2));
        assertThat(rejection(m, Transformation.prepareJoin(host(3), List.of(26L, 26L)))).isEqualTo("token 26 is given twice");
    }

    @Test
    void registrationChecksClusterNameHostIdAndAddress() {
        ClusterMetadata m = apply(ClusterMetadata.EMPTY, Transformation.register("ring", member(1)));
        assertThat(rejection(m, Transformation.register("other", member(2))))
                .isEqualTo("cluster name mismatch: the cluster is 'ring', node 127.0.0.2 is configured with 'other'");
        assertThat(rejection(m, Transformation.register("ring", member(1)))).startsWith("host id " + host(1) + " is already registered");
        Member sameAddress = new Member(host(9), member(1).broadcastAddress(), member(1).listenAddress(), 9042, 6379, 7000,
                "dc1", "r", NodeState.REGISTERED, "0.1.0");
        assertThat(rejection(m, Transformation.register("ring", sameAddress)))
                .isEqualTo("address 127.0.0.1:7000 is already used by host " + host(1) + " (REGISTERED)");
    }

    @Test
    void leaveReleasesTokensAndTheLastNodeCannotLeave() {
        ClusterMetadata m = joined(ClusterMetadata.EMPTY, 1, List.of(10L));
        assertThat(rejection(m, Transformation.prepareLeave(host(1)))).contains("it is the only NORMAL node");
        m = joined(m, 2, List.of(20L));
        m = apply(m, Transformation.prepareLeave(host(1)));
        assertThat(m.member(host(1)).state()).isEqualTo(NodeState.LEAVING);
        assertThat(m.tokensOf(host(1))).containsExactly(10L); // still owned while leaving
        assertThat(rejection(m, Transformation.finishLeave(host(1)))).contains("is PREPARED, not STARTED");
        m = apply(m, Transformation.startLeave(host(1)));
        m = apply(m, Transformation.finishLeave(host(1)));
        assertThat(m.member(host(1)).state()).isEqualTo(NodeState.LEFT);
        assertThat(m.tokens()).containsOnlyKeys(20L);
        assertThat(rejection(m, Transformation.register("ring", member(1)))).contains("has left the cluster");
    }

    @Test
    void oneRingChangeAtATimeAndTheOthersAreRefusedUntilItEnds() {
        ClusterMetadata m = joined(ClusterMetadata.EMPTY, 1, List.of(10L));
        m = joined(m, 2, List.of(20L));
        m = apply(m, Transformation.register("ring", member(3)));
        m = apply(m, Transformation.register("ring", member(4)));
        m = apply(m, Transformation.prepareJoin(host(3), List.of(30L)));
        String busy = "another ring change is in progress: the JOIN of host " + host(3) + " is PREPARED; one change at a time";
        assertThat(rejection(m, Transformation.prepareJoin(host(4), List.of(40L)))).isEqualTo(busy);
        assertThat(rejection(m, Transformation.prepareLeave(host(1)))).isEqualTo(busy);
        assertThat(rejection(m, Transformation.prepareReplace(host(4), host(2)))).isEqualTo(busy);
        m = apply(m, Transformation.startJoin(host(3)));
        assertThat(rejection(m, Transformation.prepareLeave(host(1)))).contains("the JOIN of host " + host(3) + " is STARTED");
        m = apply(m, Transformation.finishJoin(host(3)));
        m = apply(m, Transformation.prepareLeave(host(1)));
        assertThat(rejection(m, Transformation.prepareJoin(host(4), List.of(40L)))).contains("the LEAVE of host " + host(1));
        m = apply(m, Transformation.cancelPlan(host(1)));
        assertThat(m.member(host(1)).state()).isEqualTo(NodeState.NORMAL);
        apply(m, Transformation.prepareJoin(host(4), List.of(40L)));
    }

    @Test
    void replaceTakesOverEveryTokenOfTheDeadNodeAtFinishOnly() {
        ClusterMetadata m = joined(ClusterMetadata.EMPTY, 1, List.of(10L, 15L));
        m = joined(m, 2, List.of(20L, 25L));
        m = apply(m, Transformation.register("ring", member(3)));
        assertThat(rejection(m, Transformation.prepareReplace(host(3), host(9)))).contains("it is not a member");
        m = apply(m, Transformation.prepareReplace(host(3), host(2)));
        InProgressPlan plan = m.plan(host(3));
        assertThat(plan.kind()).isEqualTo(InProgressPlan.Kind.REPLACE);
        assertThat(plan.tokens()).containsExactly(20L, 25L);
        assertThat(Transformations.replaced(m, plan)).isEqualTo(host(2));
        assertThat(m.member(host(3)).state()).isEqualTo(NodeState.JOINING);
        assertThat(m.tokensOf(host(2))).containsExactly(20L, 25L); // still the dead node's while streaming
        assertThat(rejection(m, Transformation.finishJoin(host(3)))).contains("is PREPARED, not STARTED");
        m = apply(m, Transformation.startJoin(host(3)));
        assertThat(m.plan(host(3)).step()).isEqualTo(InProgressPlan.Step.STARTED);
        m = apply(m, Transformation.finishJoin(host(3)));
        assertThat(m.tokensOf(host(3))).containsExactly(20L, 25L);
        assertThat(m.tokensOf(host(2))).isEmpty();
        assertThat(m.member(host(2)).state()).isEqualTo(NodeState.LEFT);
        assertThat(m.member(host(3)).state()).isEqualTo(NodeState.NORMAL);
        assertThat(m.plans()).isEmpty();
    }

    @Test
    void aCancelledReplaceLeavesTheDeadNodeItsTokens() {
        ClusterMetadata m = joined(ClusterMetadata.EMPTY, 1, List.of(10L));
        m = joined(m, 2, List.of(20L));
        m = apply(m, Transformation.register("ring", member(3)));
        m = apply(m, Transformation.prepareReplace(host(3), host(2)));
        m = apply(m, Transformation.startJoin(host(3)));
        m = apply(m, Transformation.cancelPlan(host(3)));
        assertThat(m.member(host(3)).state()).isEqualTo(NodeState.REGISTERED);
        assertThat(m.member(host(2)).state()).isEqualTo(NodeState.NORMAL);
        assertThat(m.tokensOf(host(2))).containsExactly(20L);
    }

    @Test
    void cancellingAJoinFreesItsTokens() {
        ClusterMetadata m = apply(ClusterMetadata.EMPTY, Transformation.register("ring", member(1)));
        m = apply(m, Transformation.prepareJoin(host(1), List.of(10L)));
        m = apply(m, Transformation.cancelPlan(host(1)));
        assertThat(m.member(host(1)).state()).isEqualTo(NodeState.REGISTERED);
        assertThat(m.plans()).isEmpty();
        apply(m, Transformation.prepareJoin(host(1), List.of(10L)));
    }

    @Test
    void schemaChangesAreOpaqueVersionedAndCheckedForConcurrency() {
        byte[] ddl = "CREATE TABLE ks.t (k int PRIMARY KEY)".getBytes(StandardCharsets.UTF_8);
        ClusterMetadata m = apply(ClusterMetadata.EMPTY, Transformation.schema("CREATE_TABLE", ddl, Epoch.EMPTY));
        assertThat(m.schema()).hasSize(1);
        SchemaEntry e = m.schema().get(0);
        assertThat(e.epoch()).isEqualTo(Epoch.of(1));
        assertThat(e.payload()).isEqualTo(ddl);
        assertThat(m.schemaVersion()).isEqualTo(SchemaEntry.versionAt(Epoch.of(1))).isNotEqualTo(ClusterMetadata.EMPTY_SCHEMA_VERSION);
        // Checked against the empty schema, but the schema moved on: rejected, deterministically.
        assertThat(rejection(m, Transformation.schema("CREATE_TABLE", ddl, Epoch.EMPTY)))
                .startsWith("schema changed concurrently: the change was checked against the schema at epoch 0, the schema is now at epoch 1");
        m = apply(m, Transformation.schema("DROP_TABLE", new byte[0], null)); // no expectation: always applies
        assertThat(m.schemaEpoch()).isEqualTo(Epoch.of(2));
    }

    @Test
    void unknownAndMalformedTransformationsAreRejectedNotSkipped() {
        assertThat(rejection(ClusterMetadata.EMPTY, new Transformation("FROM_THE_FUTURE", new byte[0])))
                .startsWith("unknown transformation kind 'FROM_THE_FUTURE'");
        assertThat(rejection(ClusterMetadata.EMPTY, new Transformation(Transformation.START_JOIN, new byte[3])))
                .startsWith("malformed START_JOIN transformation");
    }

    @Test
    void applyAllThrowsTheReason() {
        assertThatThrownBy(() -> Transformations.applyAll(ClusterMetadata.EMPTY, List.of(Transformation.startJoin(host(1)))))
                .isInstanceOf(MetadataRejectedException.class).hasMessage("host " + host(1) + " has no JOIN plan in progress");
    }
}
