package io.cassette.metadata;

/**
 * A member's place in its life cycle, as Cassandra's TCM NodeState and ScyllaDB's topology
 * node states name it. Liveness (UP/DOWN) is not a state: it comes from the failure detector
 * and never enters metadata.
 *
 * <pre>
 * REGISTERED ──join plan──► JOINING ──finish──► NORMAL ──leave plan──► LEAVING ──finish──► LEFT
 *      ▲                       │ cancel                                   │ cancel
 *      └───────────────────────┘                     NORMAL ◄─────────────┘
 * </pre>
 * Do not reorder: the ordinal is not stored, the name is (see MetadataCodec).
 */
public enum NodeState {
    /** Known to the cluster (has a host id), owns no tokens, has no plan. */
    REGISTERED,
    /** A join plan is in progress: tokens are reserved, not yet owned. */
    JOINING,
    /** Owns its tokens. */
    NORMAL,
    /** A leave plan is in progress: still owns its tokens. */
    LEAVING,
    /** Has left the ring; kept so that its host id is never reused by mistake. */
    LEFT
}
