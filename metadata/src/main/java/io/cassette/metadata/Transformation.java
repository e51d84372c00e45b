package io.cassette.metadata;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * One entry of the metadata log: a named change and its serialized arguments. Applying it
 * to the metadata at epoch N either yields the metadata at epoch N+1 or is rejected with a
 * reason; the outcome depends only on the metadata and the entry, so every node reaches the
 * same result (see {@link Transformations}).
 *
 * <p>The kinds below are built in; a {@link #SCHEMA} entry wraps a change the CQL layer
 * defines and this module treats as opaque bytes. A kind this release does not know is
 * rejected, never skipped.
 *
 * @param kind    one of the constants below
 * @param payload the arguments, encoded by {@link MetadataCodec}; callers must not modify it
 */
public record Transformation(String kind, byte[] payload) {
    public static final String REGISTER = "REGISTER";
    public static final String UPDATE_MEMBER = "UPDATE_MEMBER";
    public static final String PREPARE_JOIN = "PREPARE_JOIN";
    public static final String START_JOIN = "START_JOIN";
    public static final String FINISH_JOIN = "FINISH_JOIN";
    public static final String PREPARE_LEAVE = "PREPARE_LEAVE";
    public static final String START_LEAVE = "START_LEAVE";
    public static final String FINISH_LEAVE = "FINISH_LEAVE";
    public static final String PREPARE_REPLACE = "PREPARE_REPLACE";
    public static final String CANCEL_PLAN = "CANCEL_PLAN";
    public static final String SCHEMA = "SCHEMA";

    public Transformation {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(payload, "payload");
    }

    /** A node asks to be known to the cluster (state REGISTERED); sets the cluster name if unset. */
    public static Transformation register(String clusterName, Member member) {
        return new Transformation(REGISTER, MetadataCodec.encodeRegister(clusterName, member));
    }

    /** A registered node changes its addresses, ports, location or release version (not its state). */
    public static Transformation updateMember(Member member) {
        return new Transformation(UPDATE_MEMBER, MetadataCodec.encodeMember(member));
    }

    /** Reserves {@code tokens} for {@code hostId} and starts its join plan. */
    public static Transformation prepareJoin(UUID hostId, List<Long> tokens) {
        return new Transformation(PREPARE_JOIN, MetadataCodec.encodeHostAndTokens(hostId, tokens));
    }

    /**
     * Starts the plan of {@code hostId} (REGISTERED) to take over every token of {@code replaced}
     * (NORMAL, dead: replace_address_first_boot). START_JOIN and FINISH_JOIN then walk it.
     */
    public static Transformation prepareReplace(UUID hostId, UUID replaced) {
        return new Transformation(PREPARE_REPLACE, MetadataCodec.encodeHosts(hostId, replaced));
    }

    /** Moves the JOIN or REPLACE plan of {@code hostId} to STARTED (write both). */
    public static Transformation startJoin(UUID hostId) {
        return new Transformation(START_JOIN, MetadataCodec.encodeHost(hostId));
    }

    public static Transformation finishJoin(UUID hostId) {
        return new Transformation(FINISH_JOIN, MetadataCodec.encodeHost(hostId));
    }

    public static Transformation prepareLeave(UUID hostId) {
        return new Transformation(PREPARE_LEAVE, MetadataCodec.encodeHost(hostId));
    }

    public static Transformation startLeave(UUID hostId) {
        return new Transformation(START_LEAVE, MetadataCodec.encodeHost(hostId));
    }

    public static Transformation finishLeave(UUID hostId) {
        return new Transformation(FINISH_LEAVE, MetadataCodec.encodeHost(hostId));
    }

    /** Abandons {@code hostId}'s join or leave plan and restores its previous state. */
    public static Transformation cancelPlan(UUID hostId) {
        return new Transformation(CANCEL_PLAN, MetadataCodec.encodeHost(hostId));
    }

    /**
     * A schema change from the CQL layer.
     *
     * @param changeKind         the CQL layer's name for it (stored in {@link SchemaEntry#kind()})
     * @param change             its serialized form, opaque here
     * @param expectedSchemaEpoch the {@link ClusterMetadata#schemaEpoch()} the change was
     *                           validated against, or null to apply whatever came before.
     *                           With it, of two concurrent DDL statements validated against
     *                           the same schema, the second is rejected deterministically
     *                           ("schema changed concurrently") and can be re-validated.
     */
    public static Transformation schema(String changeKind, byte[] change, Epoch expectedSchemaEpoch) {
        return new Transformation(SCHEMA, MetadataCodec.encodeSchemaChange(changeKind, change,
                expectedSchemaEpoch == null ? -1 : expectedSchemaEpoch.value()));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Transformation t && kind.equals(t.kind) && Arrays.equals(payload, t.payload);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return kind + "(" + payload.length + " bytes)";
    }
}
