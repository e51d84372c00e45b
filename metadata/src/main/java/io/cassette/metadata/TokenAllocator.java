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
 * Chooses the tokens of a joining node so that ownership stays balanced at the keyspaces'
 * replication factor, as Cassandra's {@code allocate_tokens_for_local_replication_factor}
 * (5.0 default: 3, with {@code num_tokens: 16}) does:
 *
 * <ol>
 * <li>An empty ring (in the node's dc) gets {@code numTokens} evenly spaced tokens.</li>
 * <li>While the dc has no more nodes than the replication factor (every node holds all the
 *     data whatever the tokens), the primary ranges are balanced: each token cuts the largest
 *     range of the node that owns the most, taking the fraction N/(N+1) of it but never more
 *     than the donor owns above 1/(N+1). That keeps the ring regular for the joins that follow.</li>
 * <li>Beyond that, replication-aware: each token in turn goes to the candidate point (a
 *     quarter, half or three quarters into a range) that best balances the <em>replicated</em>
 *     ownership per token (the share of the data a node holds a replica of, with replicas
 *     placed as SimpleStrategy places them among the dc's nodes, divided by its token count),
 *     the quantity Cassandra's ReplicationAwareTokenAllocator evens out. Balanced primary
 *     ranges alone are not enough at RF=3: a new node's ranges must also sit where it becomes
 *     the second and third replica of its neighbours' ranges.</li>
 * </ol>
 * Deterministic: the same metadata gives the same tokens. Ranges are counted on the ring of
 * the dc's NORMAL, LEAVING and joining (reserved) tokens; tokens reserved or owned anywhere
 * are never chosen. Racks are not considered (SimpleStrategy-like placement within the dc).
 */
public final class TokenAllocator {
    public static final int DEFAULT_NUM_TOKENS = 16;
    /** Cassandra 5.0's default allocate_tokens_for_local_replication_factor. */
    public static final int DEFAULT_REPLICATION_FACTOR = 3;
    /** Above this many tokens in the dc only range midpoints are tried (the search is O(tokens²) per token). */
    private static final int MANY_TOKENS = 256;

    private TokenAllocator() {}

    /** {@link #allocate(ClusterMetadata, String, int, int)} for the default replication factor, 3. */
    public static List<Long> allocate(ClusterMetadata m, String dc, int numTokens) {
        return allocate(m, dc, numTokens, DEFAULT_REPLICATION_FACTOR);
    }

    /**
     * @param rf the replication factor to balance for (allocate_tokens_for_local_replication_factor);
     *           1 balances primary ranges only
     */
    public static List<Long> allocate(ClusterMetadata m, String dc, int numTokens, int rf) {
        if (rf < 1) throw new IllegalArgumentException("allocate_tokens_for_local_replication_factor: " + rf + " (expected: >= 1)");
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
        int nodes = (int) ring.values().stream().distinct().count();
        if (rf > 1 && nodes + 1 > rf) return replicationAware(ring, taken, numTokens, rf);
        return primaryBalanced(ring, taken, numTokens, nodes);
    }

    private static List<Long> primaryBalanced(NavigableMap<Long, UUID> ring, TreeMap<Long, UUID> taken, int numTokens, int nodes) {
        List<Long> chosen = new ArrayList<>();
        UUID self = new UUID(0, 0); // stands for the new node while choosing
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

    /**
     * Greedy: each new token goes where the spread of replicated ownership per token,
     * sum over nodes of tokens * (ownership/tokens - ideal)^2, is least after it is placed.
     */
    private static List<Long> replicationAware(NavigableMap<Long, UUID> ring, TreeMap<Long, UUID> taken, int numTokens, int rf) {
        List<UUID> hosts = new ArrayList<>(new java.util.TreeSet<>(ring.values()));
        int self = hosts.size(); // index of the new node
        Map<UUID, Integer> index = new HashMap<>();
        for (int i = 0; i < hosts.size(); i++) index.put(hosts.get(i), i);
        long[] tokens = new long[ring.size()];
        int[] owners = new int[ring.size()];
        int n = 0;
        for (var e : ring.entrySet()) {
            tokens[n] = e.getKey();
            owners[n++] = index.get(e.getValue());
        }
        int[] counts = new int[self + 1];
        for (int o : owners) counts[o]++;
        List<Long> chosen = new ArrayList<>();
        double[] fractions = ring.size() > MANY_TOKENS ? new double[] {0.5} : new double[] {0.25, 0.5, 0.75};
        for (int round = 0; round < numTokens; round++) {
            counts[self]++;
            double ideal = (double) rf / (n + 1); // replicated ownership per token once the token is in
            double bestScore = Double.POSITIVE_INFINITY;
            long bestToken = 0;
            int bestAt = -1;
            for (int i = 0; i < n; i++) {
                long start = tokens[Math.floorMod(i - 1, n)];
                double size = Ownership.rangeSize(start, tokens[i]);
                if (size < 4) continue;
                for (double f : fractions) {
                    long candidate = free(taken, Ownership.advance(start, new BigDecimal(size * f).toBigInteger()));
                    if (candidate == tokens[i] || Ownership.rangeSize(start, candidate) >= size) continue; // no room
                    double score = spread(tokens, owners, n, i, candidate, self, counts, rf, ideal);
                    if (score < bestScore) {
                        bestScore = score;
                        bestToken = candidate;
                        bestAt = i;
                    }
                }
            }
            if (bestAt < 0) {
                counts[self]--;
                break; // no range left to split
            }
            long[] grownTokens = new long[n + 1];
            int[] grownOwners = new int[n + 1];
            System.arraycopy(tokens, 0, grownTokens, 0, bestAt);
            System.arraycopy(owners, 0, grownOwners, 0, bestAt);
            grownTokens[bestAt] = bestToken;
            grownOwners[bestAt] = self;
            System.arraycopy(tokens, bestAt, grownTokens, bestAt + 1, n - bestAt);
            System.arraycopy(owners, bestAt, grownOwners, bestAt + 1, n - bestAt);
            tokens = grownTokens;
            owners = grownOwners;
            n++;
            taken.put(bestToken, new UUID(0, 0));
            chosen.add(bestToken);
        }
        return sorted(chosen);
    }

    /** The score of the ring with {@code candidate} (owned by {@code self}) inserted before position {@code at}. */
    private static double spread(long[] tokens, int[] owners, int n, int at, long candidate, int self, int[] counts, int rf, double ideal) {
        int size = n + 1;
        long[] t = new long[size];
        int[] o = new int[size];
        System.arraycopy(tokens, 0, t, 0, at);
        System.arraycopy(owners, 0, o, 0, at);
        t[at] = candidate;
        o[at] = self;
        System.arraycopy(tokens, at, t, at + 1, n - at);
        System.arraycopy(owners, at, o, at + 1, n - at);
        double[] owned = new double[counts.length];
        int[] replicas = new int[rf];
        int distinct = Math.min(rf, counts.length);
        for (int i = 0; i < size; i++) {
            double range = Ownership.rangeSize(t[Math.floorMod(i - 1, size)], t[i]) / Ownership.RING;
            int found = 0;
            for (int j = i; found < distinct; j = (j + 1) % size) {
                int owner = o[j];
                boolean seen = false;
                for (int r = 0; r < found; r++) seen |= replicas[r] == owner;
                if (!seen) replicas[found++] = owner;
            }
            for (int r = 0; r < found; r++) owned[replicas[r]] += range;
        }
        double score = 0;
        for (int h = 0; h < counts.length; h++) {
            double d = owned[h] / counts[h] - ideal;
            score += counts[h] * d * d;
        }
        return score;
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
