package io.cassette.metadata;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Applies a {@link Transformation} to a {@link ClusterMetadata}: the only place metadata
 * changes. Deterministic by contract: the result depends on nothing but the two arguments
 * (no clock, no randomness, no local configuration, no iteration over hash-ordered sets),
 * because every node applies the same log and must reach equal snapshots.
 */
public final class Transformations {
    private Transformations() {}

    public static ApplyResult apply(ClusterMetadata m, Transformation t) {
        final ApplyResult result;
        try {
            result = switch (t.kind()) {
                case Transformation.REGISTER -> register(m, MetadataCodec.decodeRegister(t.payload()));
                case Transformation.UPDATE_MEMBER -> updateMember(m, MetadataCodec.decodeMember(t.payload()));
                case Transformation.PREPARE_JOIN -> prepareJoin(m, MetadataCodec.decodeHostAndTokens(t.payload()));
                case Transformation.PREPARE_REPLACE -> prepareReplace(m, MetadataCodec.decodeHosts(t.payload()));
                case Transformation.START_JOIN -> startStep(m, MetadataCodec.decodeHost(t.payload()), InProgressPlan.Kind.JOIN);
                case Transformation.FINISH_JOIN -> finishJoin(m, MetadataCodec.decodeHost(t.payload()));
                case Transformation.PREPARE_LEAVE -> prepareLeave(m, MetadataCodec.decodeHost(t.payload()));
                case Transformation.START_LEAVE -> startStep(m, MetadataCodec.decodeHost(t.payload()), InProgressPlan.Kind.LEAVE);
                case Transformation.FINISH_LEAVE -> finishLeave(m, MetadataCodec.decodeHost(t.payload()));
                case Transformation.CANCEL_PLAN -> cancelPlan(m, MetadataCodec.decodeHost(t.payload()));
                case Transformation.SCHEMA -> schema(m, MetadataCodec.decodeSchemaChange(t.payload()));
                default -> reject("unknown transformation kind '" + t.kind() + "' (is a node running a newer release?)");
            };
        } catch (IllegalArgumentException e) {
            return reject("malformed " + t.kind() + " transformation: " + e.getMessage());
        }
        if (result instanceof ApplyResult.Applied a) return new ApplyResult.Applied(a.metadata().withEpoch(m.epoch().next()));
        return result;
    }

    private static ApplyResult register(ClusterMetadata m, MetadataCodec.Register r) {
        Member member = r.member().withState(NodeState.REGISTERED);
        if (r.clusterName().isEmpty()) return reject("cluster name is empty");
        if (!m.clusterName().isEmpty() && !m.clusterName().equals(r.clusterName())) {
            return reject("cluster name mismatch: the cluster is '" + m.clusterName() + "', node "
                    + member.broadcastAddress().getHostAddress() + " is configured with '" + r.clusterName() + "'");
        }
        Member existing = m.member(member.hostId());
        if (existing != null) {
            return reject(existing.state() == NodeState.LEFT
                    ? "host id " + member.hostId() + " has left the cluster; start the node with an empty data directory to join as a new node"
                    : "host id " + member.hostId() + " is already registered (" + existing + ")");
        }
        ApplyResult clash = addressClash(m, member);
        if (clash != null) return clash;
        ClusterMetadata next = m.withMember(member);
        return new ApplyResult.Applied(m.clusterName().isEmpty() ? next.withClusterName(r.clusterName()) : next);
    }

    private static ApplyResult updateMember(ClusterMetadata m, Member update) {
        Member existing = m.member(update.hostId());
        if (existing == null) return reject("host id " + update.hostId() + " is not registered");
        if (existing.state() == NodeState.LEFT) return reject("host id " + update.hostId() + " has left the cluster");
        Member member = update.withState(existing.state()); // state changes only through plans
        ApplyResult clash = addressClash(m, member);
        if (clash != null) return clash;
        if (member.equals(existing)) return reject("no change to " + existing);
        return new ApplyResult.Applied(m.withMember(member));
    }

    /** Two active members may not share an internode address: peers could not tell them apart. */
    private static ApplyResult addressClash(ClusterMetadata m, Member member) {
        for (Member other : m.members().values()) {
            if (other.isActive() && !other.hostId().equals(member.hostId())
                    && other.broadcastAddress().equals(member.broadcastAddress())
                    && other.storagePort() == member.storagePort()) {
                return reject("address " + member.broadcastAddress().getHostAddress() + ":" + member.storagePort()
                        + " is already used by host " + other.hostId() + " (" + other.state() + ")");
            }
        }
        return null;
    }

    private static ApplyResult prepareJoin(ClusterMetadata m, MetadataCodec.HostAndTokens h) {
        Member member = m.member(h.hostId());
        if (member == null) return reject("host id " + h.hostId() + " is not registered");
        if (member.state() != NodeState.REGISTERED) return reject("cannot join " + member + ": expected state REGISTERED");
        if (h.tokens().isEmpty()) return reject("a join needs at least one token");
        Set<Long> seen = new HashSet<>();
        for (long token : h.tokens()) {
            if (!seen.add(token)) return reject("token " + token + " is given twice");
            UUID owner = m.tokens().get(token);
            if (owner != null) return reject("token " + token + " is already owned by host " + owner);
            for (InProgressPlan p : m.plans().values()) {
                if (p.kind() == InProgressPlan.Kind.JOIN && p.tokens().contains(token)) {
                    return reject("token " + token + " is already reserved by the join of host " + p.hostId());
                }
            }
        }
        ApplyResult busy = anotherPlan(m, h.hostId());
        if (busy != null) return busy;
        InProgressPlan plan = new InProgressPlan(h.hostId(), InProgressPlan.Kind.JOIN, InProgressPlan.Step.PREPARED,
                h.tokens().stream().sorted().toList());
        return new ApplyResult.Applied(m.withMember(member.withState(NodeState.JOINING)).withPlan(h.hostId(), plan));
    }

    private static ApplyResult prepareLeave(ClusterMetadata m, UUID hostId) {
        Member member = m.member(hostId);
        if (member == null) return reject("host id " + hostId + " is not registered");
        if (member.state() != NodeState.NORMAL) return reject("cannot leave " + member + ": expected state NORMAL");
        long normal = m.members().values().stream().filter(x -> x.state() == NodeState.NORMAL).count();
        if (normal == 1) return reject("cannot leave " + member + ": it is the only NORMAL node of the ring");
        ApplyResult busy = anotherPlan(m, hostId);
        if (busy != null) return busy;
        InProgressPlan plan = new InProgressPlan(hostId, InProgressPlan.Kind.LEAVE, InProgressPlan.Step.PREPARED, m.tokensOf(hostId));
        return new ApplyResult.Applied(m.withMember(member.withState(NodeState.LEAVING)).withPlan(hostId, plan));
    }

    private static ApplyResult prepareReplace(ClusterMetadata m, MetadataCodec.Hosts h) {
        Member member = m.member(h.hostId());
        if (member == null) return reject("host id " + h.hostId() + " is not registered");
        if (member.state() != NodeState.REGISTERED) return reject("cannot replace with " + member + ": expected state REGISTERED");
        Member dead = m.member(h.other());
        if (dead == null) return reject("cannot replace host " + h.other() + ": it is not a member");
        if (dead.state() != NodeState.NORMAL) return reject("cannot replace " + dead + ": expected state NORMAL");
        List<Long> tokens = m.tokensOf(dead.hostId());
        if (tokens.isEmpty()) return reject("cannot replace " + dead + ": it owns no tokens");
        ApplyResult busy = anotherPlan(m, h.hostId());
        if (busy != null) return busy;
        InProgressPlan plan = new InProgressPlan(h.hostId(), InProgressPlan.Kind.REPLACE, InProgressPlan.Step.PREPARED, tokens);
        return new ApplyResult.Applied(m.withMember(member.withState(NodeState.JOINING)).withPlan(h.hostId(), plan));
    }

    /**
     * One ring change at a time: two plans in flight could each stream from a replica the other
     * moves, or both count on a node that leaves. The refused node retries (a queue in effect).
     */
    private static ApplyResult anotherPlan(ClusterMetadata m, UUID hostId) {
        for (InProgressPlan p : m.plans().values()) {
            if (!p.hostId().equals(hostId)) {
                return reject("another ring change is in progress: the " + p.kind() + " of host " + p.hostId()
                        + " is " + p.step() + "; one change at a time");
            }
        }
        return null;
    }

    /** The node a REPLACE plan takes over: the owner of its tokens (null if none). */
    public static UUID replaced(ClusterMetadata m, InProgressPlan plan) {
        return plan.kind() == InProgressPlan.Kind.REPLACE && !plan.tokens().isEmpty()
                ? m.tokens().get(plan.tokens().get(0)) : null;
    }

    private static ApplyResult startStep(ClusterMetadata m, UUID hostId, InProgressPlan.Kind kind) {
        InProgressPlan plan = m.plan(hostId);
        if (plan != null && kind == InProgressPlan.Kind.JOIN && plan.kind() == InProgressPlan.Kind.REPLACE) {
            kind = InProgressPlan.Kind.REPLACE; // a replacement is a join of someone else's tokens
        }
        if (plan == null || plan.kind() != kind) return reject("host " + hostId + " has no " + kind + " plan in progress");
        if (plan.step() != InProgressPlan.Step.PREPARED) return reject("the " + kind + " of host " + hostId + " is already " + plan.step());
        return new ApplyResult.Applied(m.withPlan(hostId, plan.withStep(InProgressPlan.Step.STARTED)));
    }

    private static ApplyResult finishJoin(ClusterMetadata m, UUID hostId) {
        InProgressPlan plan = m.plan(hostId);
        if (plan != null && plan.kind() == InProgressPlan.Kind.REPLACE) {
            if (plan.step() != InProgressPlan.Step.STARTED) return reject("the REPLACE of host " + hostId + " is " + plan.step() + ", not STARTED");
            UUID dead = replaced(m, plan);
            ClusterMetadata next = m.withTokens(dead, List.of(), plan.tokens()).withTokens(hostId, plan.tokens(), List.of())
                    .withMember(m.member(dead).withState(NodeState.LEFT));
            return new ApplyResult.Applied(next.withMember(m.member(hostId).withState(NodeState.NORMAL)).withPlan(hostId, null));
        }
        if (plan == null || plan.kind() != InProgressPlan.Kind.JOIN) return reject("host " + hostId + " has no JOIN plan in progress");
        if (plan.step() != InProgressPlan.Step.STARTED) return reject("the JOIN of host " + hostId + " is " + plan.step() + ", not STARTED");
        return new ApplyResult.Applied(m.withTokens(hostId, plan.tokens(), List.of())
                .withMember(m.member(hostId).withState(NodeState.NORMAL)).withPlan(hostId, null));
    }

    private static ApplyResult finishLeave(ClusterMetadata m, UUID hostId) {
        InProgressPlan plan = m.plan(hostId);
        if (plan == null || plan.kind() != InProgressPlan.Kind.LEAVE) return reject("host " + hostId + " has no LEAVE plan in progress");
        if (plan.step() != InProgressPlan.Step.STARTED) return reject("the LEAVE of host " + hostId + " is " + plan.step() + ", not STARTED");
        return new ApplyResult.Applied(m.withTokens(hostId, List.of(), plan.tokens())
                .withMember(m.member(hostId).withState(NodeState.LEFT)).withPlan(hostId, null));
    }

    private static ApplyResult cancelPlan(ClusterMetadata m, UUID hostId) {
        InProgressPlan plan = m.plan(hostId);
        if (plan == null) return reject("host " + hostId + " has no plan in progress");
        NodeState back = plan.kind() == InProgressPlan.Kind.LEAVE ? NodeState.NORMAL : NodeState.REGISTERED;
        return new ApplyResult.Applied(m.withMember(m.member(hostId).withState(back)).withPlan(hostId, null));
    }

    private static ApplyResult schema(ClusterMetadata m, MetadataCodec.SchemaChange c) {
        if (c.expectedSchemaEpoch() >= 0 && c.expectedSchemaEpoch() != m.schemaEpoch().value()) {
            return reject("schema changed concurrently: the change was checked against the schema at epoch "
                    + c.expectedSchemaEpoch() + ", the schema is now at epoch " + m.schemaEpoch().value()
                    + " (version " + m.schemaVersion() + "); check it again and retry");
        }
        Epoch at = m.epoch().next();
        return new ApplyResult.Applied(m.withSchemaEntry(new SchemaEntry(at, SchemaEntry.versionAt(at), c.kind(), c.change())));
    }

    private static ApplyResult reject(String reason) {
        return new ApplyResult.Rejected(reason);
    }

    /** Convenience for tests and single-process use: applies in order, throwing on the first rejection. */
    public static ClusterMetadata applyAll(ClusterMetadata m, List<Transformation> ts) {
        for (Transformation t : ts) {
            ApplyResult r = apply(m, t);
            if (r instanceof ApplyResult.Rejected rej) throw new MetadataRejectedException(rej.reason());
            m = ((ApplyResult.Applied) r).metadata();
        }
        return m;
    }

}
