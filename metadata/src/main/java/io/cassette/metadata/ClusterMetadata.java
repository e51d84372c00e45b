package io.cassette.metadata;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * An immutable snapshot of the cluster's metadata at one {@link Epoch}: cluster name,
 * members, the tokens each owns, the schema entries and the ring changes in progress.
 *
 * <p>Code that reads metadata takes one snapshot ({@code log.current()}) and uses it for the
 * whole operation, so it never sees a half-applied change. Every node that has applied the
 * log up to epoch N holds an equal ClusterMetadata (equals() compares every field), which
 * is what makes the log's application deterministic and checkable.
 *
 * <p>Thread-safety: immutable; collections returned are unmodifiable.
 */
public final class ClusterMetadata {
    /** The metadata before the first transformation. */
    public static final ClusterMetadata EMPTY = new ClusterMetadata(Epoch.EMPTY, "",
            new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), List.of());

    /** The schema version reported before any schema change. */
    public static final UUID EMPTY_SCHEMA_VERSION = SchemaEntry.versionAt(Epoch.EMPTY);

    private final Epoch epoch;
    private final String clusterName;                   // "" until the first member registers
    private final SortedMap<UUID, Member> members;      // by host id
    private final NavigableMap<Long, UUID> tokens;      // owned token -> owner host id
    private final SortedMap<UUID, InProgressPlan> plans; // by host id; at most one per node
    private final List<SchemaEntry> schema;             // in epoch order

    ClusterMetadata(Epoch epoch, String clusterName, SortedMap<UUID, Member> members,
                    NavigableMap<Long, UUID> tokens, SortedMap<UUID, InProgressPlan> plans,
                    List<SchemaEntry> schema) {
        this.epoch = Objects.requireNonNull(epoch);
        this.clusterName = Objects.requireNonNull(clusterName);
        this.members = Collections.unmodifiableSortedMap(members);
        this.tokens = Collections.unmodifiableNavigableMap(tokens);
        this.plans = Collections.unmodifiableSortedMap(plans);
        this.schema = List.copyOf(schema);
    }

    public Epoch epoch() { return epoch; }

    /** The cluster's name, or "" before the first node registered. */
    public String clusterName() { return clusterName; }

    /** Every member ever registered (including LEFT ones), by host id. */
    public SortedMap<UUID, Member> members() { return members; }

    public Member member(UUID hostId) { return members.get(hostId); }

    /** The ring: every owned token and its owner, ascending by token (signed Murmur3 order). */
    public NavigableMap<Long, UUID> tokens() { return tokens; }

    /** The tokens {@code hostId} owns, ascending; empty if none. */
    public List<Long> tokensOf(UUID hostId) {
        List<Long> out = new ArrayList<>();
        for (Map.Entry<Long, UUID> e : tokens.entrySet()) if (e.getValue().equals(hostId)) out.add(e.getKey());
        return out;
    }

    /**
     * The owner of {@code token}: the node owning the first ring token >= it, wrapping around
     * (Cassandra's range (previous, token] belongs to token's owner). Null on an empty ring.
     */
    public UUID ownerOf(long token) {
        if (tokens.isEmpty()) return null;
        Map.Entry<Long, UUID> e = tokens.ceilingEntry(token);
        return (e != null ? e : tokens.firstEntry()).getValue();
    }

    /** Ring changes in progress, by the host id of the node joining or leaving. */
    public SortedMap<UUID, InProgressPlan> plans() { return plans; }

    public InProgressPlan plan(UUID hostId) { return plans.get(hostId); }

    /** Every schema change applied, in epoch order; the CQL layer replays them. */
    public List<SchemaEntry> schema() { return schema; }

    /** The version after the last schema change (system.local's schema_version). */
    public UUID schemaVersion() {
        return schema.isEmpty() ? EMPTY_SCHEMA_VERSION : schema.get(schema.size() - 1).version();
    }

    /** The epoch of the last schema change, or {@link Epoch#EMPTY}. */
    public Epoch schemaEpoch() {
        return schema.isEmpty() ? Epoch.EMPTY : schema.get(schema.size() - 1).epoch();
    }

    // ---- copies with one part changed (used by Transformations only) ----

    ClusterMetadata withEpoch(Epoch e) {
        return new ClusterMetadata(e, clusterName, new TreeMap<>(members), new TreeMap<>(tokens), new TreeMap<>(plans), schema);
    }

    ClusterMetadata withClusterName(String name) {
        return new ClusterMetadata(epoch, name, new TreeMap<>(members), new TreeMap<>(tokens), new TreeMap<>(plans), schema);
    }

    ClusterMetadata withMember(Member m) {
        TreeMap<UUID, Member> copy = new TreeMap<>(members);
        copy.put(m.hostId(), m);
        return new ClusterMetadata(epoch, clusterName, copy, new TreeMap<>(tokens), new TreeMap<>(plans), schema);
    }

    ClusterMetadata withTokens(UUID owner, List<Long> add, List<Long> remove) {
        TreeMap<Long, UUID> copy = new TreeMap<>(tokens);
        for (Long t : remove) copy.remove(t, owner);
        for (Long t : add) copy.put(t, owner);
        return new ClusterMetadata(epoch, clusterName, new TreeMap<>(members), copy, new TreeMap<>(plans), schema);
    }

    ClusterMetadata withPlan(UUID hostId, InProgressPlan plan) {
        TreeMap<UUID, InProgressPlan> copy = new TreeMap<>(plans);
        if (plan == null) copy.remove(hostId); else copy.put(hostId, plan);
        return new ClusterMetadata(epoch, clusterName, new TreeMap<>(members), new TreeMap<>(tokens), copy, schema);
    }

    ClusterMetadata withSchemaEntry(SchemaEntry entry) {
        List<SchemaEntry> copy = new ArrayList<>(schema);
        copy.add(entry);
        return new ClusterMetadata(epoch, clusterName, new TreeMap<>(members), new TreeMap<>(tokens), new TreeMap<>(plans), copy);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterMetadata m && epoch.equals(m.epoch) && clusterName.equals(m.clusterName)
                && members.equals(m.members) && tokens.equals(m.tokens) && plans.equals(m.plans)
                && schema.equals(m.schema);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, clusterName, members, tokens, plans, schema);
    }

    @Override
    public String toString() {
        return "ClusterMetadata[" + epoch + ", cluster '" + clusterName + "', " + members.size() + " members, "
                + tokens.size() + " tokens, " + plans.size() + " plans, schema " + schemaVersion() + "]";
    }
}
