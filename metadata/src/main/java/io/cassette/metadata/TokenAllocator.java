package io.cassette.metadata;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Chooses the tokens of a joining node so that ownership stays balanced, the aim of
 * Cassandra's {@code allocate_tokens_for_local_replication_factor}, with a simpler greedy:
 *
 * <ol>
 * <li>An empty ring (in the node's dc) gets {@code numTokens} evenly spaced tokens.</li>
 * <li>Otherwise, with N nodes in the dc, the new node should end with the target 1/(N+1) of
 *     the dc's ring. Each of its tokens cuts the largest range of the node that currently owns
 *     the most (recomputed after every cut), taking from it the fraction N/(N+1) of that range
 *     but never more than the donor owns above the target. So the heaviest nodes donate first
 *     and nobody is cut below the target; on rings this allocator built, every node ends with
 *     exactly its share (tested up to 8 nodes).</li>
 * </ol>
 * Deterministic: the same metadata gives the same tokens. Ranges are counted on the ring of
 * the dc's NORMAL, LEAVING and joining (reserved) tokens; tokens reserved or owned anywhere
 * are never chosen. Balanced primary ranges give balanced effective ownership for any
 * replication factor up to the rounding of each replica window ({@link Ownership#effective}).
 */
public final class TokenAllocator {
    public static final int DEFAULT_NUM_TOKENS = 16;

    private TokenAllocator() {}

    public static List<Long> allocate(ClusterMetadata m, String dc, int numTokens) {
        if (numTokens < 1 || numTokens > 1024) throw new IllegalArgumentException("num_tokens: " + numTokens + " (expected: 1..1024)");
        NavigableMap<Long, UUID> ring = Ownership.ring(m, dc);
        TreeMap<Long, UUID> taken = new TreeMap<>(m.tokens());
        for (InProgressPlan p : m.plans().values()) {
            if (p.kind() != InProgressPlan.Kind.JOIN) continue;
            for (long t : p.tokens()) {
                taken.put(t, p.hostId());
                Member joining = m.member(p.hostId());
                if (joining != null && joining.dataCenter().equals(dc)) ring.put(t, p.hostId());
            }
        }
        List<Long> chosen = new ArrayList<>();
        if (ring.isEmpty()) {
            BigInteger step = BigInteger.ONE.shiftLeft(64).divide(BigInteger.valueOf(numTokens));
            long first = Long.MIN_VALUE + step.shiftRight(1).longValue();
            for (int i = 0; i < numTokens; i++) chosen.add(free(taken, Ownership.advance(first, step.multiply(BigInteger.valueOf(i)))));
            return sorted(chosen);
        }
        UUID self = new UUID(0, 0); // stands for the new node while choosing
        int nodes = (int) ring.values().stream().distinct().count();
        BigDecimal fraction = BigDecimal.valueOf(nodes).divide(BigDecimal.valueOf(nodes + 1L), MathContext.DECIMAL64);
        TreeMap<Long, UUID> work = new TreeMap<>(ring);
        double target = Ownership.RING / (nodes + 1);
        for (int i = 0; i < numTokens; i++) {
            Map<UUID, Double> owned = new HashMap<>();
            Map<UUID, Long> largest = new HashMap<>(); // owner -> end token of its largest range
            for (var e : work.entrySet()) {
                UUID owner = e.getValue();
                if (owner.equals(self)) continue;
                double size = Ownership.rangeSize(previous(work, e.getKey()), e.getKey());
                owned.merge(owner, size, Double::sum);
                Long best = largest.get(owner);
                if (best == null || size > Ownership.rangeSize(previous(work, best), best)) largest.put(owner, e.getKey());
            }
            UUID donor = null;
            for (var e : owned.entrySet()) {
                if (donor == null || e.getValue() > owned.get(donor)
                        || (e.getValue().equals(owned.get(donor)) && e.getKey().compareTo(donor) < 0)) donor = e.getKey();
            }
            if (donor == null) break;
            long end = largest.get(donor);
            long start = previous(work, end);
            BigInteger size = start == end ? BigInteger.ONE.shiftLeft(64)
                    : BigInteger.valueOf(end).subtract(BigInteger.valueOf(start)).mod(BigInteger.ONE.shiftLeft(64));
            // Take from the donor at most the fraction N/(N+1) of the range, and no more than it owns above the target.
            BigDecimal excess = BigDecimal.valueOf(owned.get(donor) - target);
            BigDecimal cut = new BigDecimal(size).multiply(fraction).min(excess.max(BigDecimal.ONE));
            BigInteger offset = cut.toBigInteger().max(BigInteger.ONE); // the new node owns (start, start + offset]
            long token = free(taken, Ownership.advance(start, offset));
            if (token == end || work.containsKey(token)) break; // the range is too small to split
            work.put(token, self);
            taken.put(token, self);
            chosen.add(token);
        }
        return sorted(chosen);
    }

    private static long previous(NavigableMap<Long, UUID> ring, long token) {
        Long p = ring.lowerKey(token);
        return p != null ? p : ring.lastKey();
    }

    /** The first token at or after {@code token} nobody holds (Long.MIN_VALUE is never a token). */
    private static long free(NavigableMap<Long, UUID> taken, long token) {
        while (token == Long.MIN_VALUE || taken.containsKey(token)) token++;
        return token;
    }

    private static List<Long> sorted(List<Long> tokens) {
        tokens.sort(null);
        return List.copyOf(tokens);
    }
}
