package io.cassette.metadata;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * How much of the Murmur3 ring each node owns, as nodetool status' "Owns" column shows it.
 * A token t owned by node n gives n the range (previous token, t], wrapping around; the
 * ring has 2^64 tokens.
 */
public final class Ownership {
    static final double RING = Math.pow(2, 64);

    private Ownership() {}

    /** The tokens of NORMAL (and LEAVING) members of {@code dc}, or of every dc if null. */
    public static NavigableMap<Long, UUID> ring(ClusterMetadata m, String dc) {
        NavigableMap<Long, UUID> ring = new TreeMap<>();
        m.tokens().forEach((token, owner) -> {
            Member member = m.member(owner);
            if (member != null && (dc == null || member.dataCenter().equals(dc))) ring.put(token, owner);
        });
        return ring;
    }

    /** Fraction of the ring (0..1) for which each node is the primary owner; sums to 1 on a non-empty ring. */
    public static Map<UUID, Double> primary(ClusterMetadata m) {
        return effective(ring(m, null), 1);
    }

    /**
     * Effective ownership with {@code rf} replicas placed as SimpleStrategy places them (the
     * first rf distinct nodes clockwise from a range), among the nodes of {@code dc} (null:
     * all): the fraction of the data each node holds a replica of. Sums to min(rf, nodes).
     * For NetworkTopologyStrategy without racks, call it once per dc with that dc's rf.
     */
    public static Map<UUID, Double> effective(ClusterMetadata m, String dc, int rf) {
        return effective(ring(m, dc), rf);
    }

    static Map<UUID, Double> effective(NavigableMap<Long, UUID> ring, int rf) {
        if (rf < 1) throw new IllegalArgumentException("replication factor: " + rf + " (expected: >= 1)");
        Map<UUID, Double> out = new HashMap<>();
        if (ring.isEmpty()) return out;
        ring.values().forEach(owner -> out.put(owner, 0.0));
        List<Long> tokens = new ArrayList<>(ring.keySet());
        List<UUID> owners = new ArrayList<>(ring.values());
        int distinct = new LinkedHashSet<>(owners).size();
        for (int i = 0; i < tokens.size(); i++) {
            long prev = tokens.get(Math.floorMod(i - 1, tokens.size()));
            double size = rangeSize(prev, tokens.get(i));
            Set<UUID> replicas = new LinkedHashSet<>();
            for (int j = 0; replicas.size() < Math.min(rf, distinct); j++) replicas.add(owners.get((i + j) % owners.size()));
            for (UUID r : replicas) out.merge(r, size / RING, Double::sum);
        }
        return out;
    }

    /** Number of tokens in (from, to] on the ring; the whole ring when from == to (one token). */
    static double rangeSize(long from, long to) {
        if (from == to) return RING;
        return unsigned(to - from);
    }

    static double unsigned(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
    }

    /** from + offset on the ring (wrapping), offset in 0..2^64. */
    static long advance(long from, BigInteger offset) {
        return BigInteger.valueOf(from).add(offset).longValue(); // longValue() wraps mod 2^64
    }
}
