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
 * node LEFT; plan removed).
 *
 * @param hostId the node that joins or leaves
 * @param kind   JOIN or LEAVE
 * @param step   the step reached
 * @param tokens the tokens moving (to the node for JOIN, away from it for LEAVE), ascending
 */
public record InProgressPlan(UUID hostId, Kind kind, Step step, List<Long> tokens) {
    public enum Kind { JOIN, LEAVE }

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
