package io.cassette.metadata;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A multi-step ring change in progress (Cassandra's InProgressSequences): each step is its
 * own log entry, so every node sees the same step at the same epoch, and a node that fails
 * mid-way leaves a plan that can be resumed or cancelled.
 *
 * <p>Join: PREPARED (tokens reserved; reads and writes still go to the old owners) →
 * STARTED (writes go to the old owners and the joining node: "write both, read old"; data
 * streams) → finished (the joining node owns the tokens; plan removed).
 * Leave: PREPARED → STARTED (writes to both; data streams away) → finished (tokens released,
 * node LEFT; plan removed). A removenode is a LEAVE plan committed for a dead node by another.
 * Replace: PREPARED (the replacement is JOINING; {@code tokens} are the dead node's, still
 * owned by it) → STARTED (writes also go to the replacement; data streams from the other
 * replicas) → finished (the tokens move to the replacement, NORMAL; the dead node is LEFT).
 * The replaced node is the owner of {@code tokens} while the plan is in progress.
 *
 * <p>One plan at a time: a PREPARE while another node's plan is in progress is rejected (the
 * joining node retries), so two ring changes never overlap.
 *
 * @param hostId the node that joins or leaves
 * @param kind   JOIN, LEAVE or REPLACE
 * @param step   the step reached
 * @param tokens the tokens moving (to the node for JOIN and REPLACE, away from it for LEAVE), ascending
 */
public record InProgressPlan(UUID hostId, Kind kind, Step step, List<Long> tokens) {
    /** Do not rename: the name is stored (MetadataCodec). */
    public enum Kind { JOIN, LEAVE, REPLACE }

    public enum Step { PREPARED, STARTED }

    public InProgressPlan {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(step, "step");
        tokens = List.copyOf(tokens);
    }

    public InProgressPlan withStep(Step newStep) {
        return new InProgressPlan(hostId, kind, newStep, tokens);
    }
}
