package io.cassette.coordinator.ring.hints;

import java.util.UUID;

/**
 * What {@code nodetool listpendinghints} shows for one node (Cassandra's PendingHintsInfo):
 * how many files hold hints for it and the creation times of the newest and oldest, plus the
 * bytes they take.
 */
public record PendingHints(UUID hostId, int totalFiles, long newestMillis, long oldestMillis, long bytes) {}
