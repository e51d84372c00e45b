package io.cassette.cluster.net;

import static io.cassette.cluster.net.ConnectionType.SMALL;
import static io.cassette.cluster.net.ConnectionType.URGENT;
import static io.cassette.cluster.net.TimeoutKind.CAS;
import static io.cassette.cluster.net.TimeoutKind.COUNTER_WRITE;
import static io.cassette.cluster.net.TimeoutKind.RANGE;
import static io.cassette.cluster.net.TimeoutKind.READ;
import static io.cassette.cluster.net.TimeoutKind.REQUEST;
import static io.cassette.cluster.net.TimeoutKind.TRUNCATE;
import static io.cassette.cluster.net.TimeoutKind.WRITE;

/**
 * What a message asks for, with Cassandra's verb names. Each request verb names its response
 * verb (declared before it); a failed request is answered with {@link #FAILURE_RSP} instead.
 * The id is on the wire: never renumber, add new verbs with new ids. Metadata verbs are what
 * Cassandra 5.1 calls {@code TCM_*} (transactional cluster metadata).
 */
public enum Verb {
  // --- responses (declared first so requests can name them) ---
  FAILURE_RSP(1, SMALL, REQUEST, null),
  MUTATION_RSP(2, SMALL, WRITE, null),
  HINT_RSP(3, SMALL, WRITE, null),
  READ_REPAIR_RSP(4, SMALL, WRITE, null),
  BATCH_STORE_RSP(5, SMALL, WRITE, null),
  BATCH_REMOVE_RSP(6, SMALL, WRITE, null),
  COUNTER_MUTATION_RSP(7, SMALL, COUNTER_WRITE, null),
  READ_RSP(8, SMALL, READ, null),
  RANGE_RSP(9, SMALL, RANGE, null),
  TRUNCATE_RSP(10, SMALL, TRUNCATE, null),
  ECHO_RSP(11, URGENT, REQUEST, null),
  PING_RSP(12, URGENT, REQUEST, null),
  PAXOS_PREPARE_RSP(13, SMALL, CAS, null),
  PAXOS_PROPOSE_RSP(14, SMALL, CAS, null),
  PAXOS_COMMIT_RSP(15, SMALL, WRITE, null),
  PAXOS2_PREPARE_RSP(16, SMALL, CAS, null),
  PAXOS2_PREPARE_REFRESH_RSP(17, SMALL, CAS, null),
  PAXOS2_PROPOSE_RSP(18, SMALL, CAS, null),
  PAXOS2_COMMIT_AND_PREPARE_RSP(19, SMALL, CAS, null),
  PAXOS2_REPAIR_RSP(20, SMALL, CAS, null),
  VALIDATION_RSP(21, SMALL, REQUEST, null),
  SYNC_RSP(22, SMALL, REQUEST, null),
  METADATA_COMMIT_RSP(23, URGENT, REQUEST, null),
  METADATA_FETCH_LOG_RSP(24, URGENT, REQUEST, null),
  METADATA_FETCH_PEER_LOG_RSP(25, URGENT, REQUEST, null),
  METADATA_NOTIFY_RSP(26, URGENT, REQUEST, null),
  METADATA_CURRENT_EPOCH_RSP(27, URGENT, REQUEST, null),
  /** A Redis command's reply in RESP form, from the node that executed it. */
  REDIS_RSP(35, SMALL, REQUEST, null),
  PAXOS2_CLEANUP_RSP(36, SMALL, REQUEST, null),
  /** Repair: a streamed batch was verified and applied. */
  REPAIR_STREAM_RSP(87, SMALL, REQUEST, null),

  // --- requests ---
  MUTATION_REQ(40, SMALL, WRITE, MUTATION_RSP),
  HINT_REQ(41, SMALL, WRITE, HINT_RSP),
  READ_REPAIR_REQ(42, SMALL, WRITE, READ_REPAIR_RSP),
  BATCH_STORE_REQ(43, SMALL, WRITE, BATCH_STORE_RSP),
  BATCH_REMOVE_REQ(44, SMALL, WRITE, BATCH_REMOVE_RSP),
  COUNTER_MUTATION_REQ(45, SMALL, COUNTER_WRITE, COUNTER_MUTATION_RSP),
  /** A read; the payload says whether a full answer or a digest is wanted. */
  READ_REQ(46, SMALL, READ, READ_RSP),
  RANGE_REQ(47, SMALL, RANGE, RANGE_RSP),
  TRUNCATE_REQ(48, SMALL, TRUNCATE, TRUNCATE_RSP),
  ECHO_REQ(49, URGENT, REQUEST, ECHO_RSP),
  /** The failure detector's heartbeat. */
  PING_REQ(50, URGENT, REQUEST, PING_RSP),
  PAXOS_PREPARE_REQ(51, SMALL, CAS, PAXOS_PREPARE_RSP),
  PAXOS_PROPOSE_REQ(52, SMALL, CAS, PAXOS_PROPOSE_RSP),
  PAXOS_COMMIT_REQ(53, SMALL, WRITE, PAXOS_COMMIT_RSP),
  PAXOS2_PREPARE_REQ(54, SMALL, CAS, PAXOS2_PREPARE_RSP),
  PAXOS2_PREPARE_REFRESH_REQ(55, SMALL, CAS, PAXOS2_PREPARE_REFRESH_RSP),
  PAXOS2_PROPOSE_REQ(56, SMALL, CAS, PAXOS2_PROPOSE_RSP),
  PAXOS2_COMMIT_AND_PREPARE_REQ(57, SMALL, CAS, PAXOS2_COMMIT_AND_PREPARE_RSP),
  PAXOS2_REPAIR_REQ(58, SMALL, CAS, PAXOS2_REPAIR_RSP),
  /** Repair: build a Merkle tree of a range. */
  VALIDATION_REQ(59, SMALL, REQUEST, VALIDATION_RSP),
  /** Repair: stream the differing ranges between two replicas. */
  SYNC_REQ(60, SMALL, REQUEST, SYNC_RSP),
  METADATA_COMMIT_REQ(61, URGENT, REQUEST, METADATA_COMMIT_RSP),
  METADATA_FETCH_LOG_REQ(62, URGENT, REQUEST, METADATA_FETCH_LOG_RSP),
  METADATA_FETCH_PEER_LOG_REQ(63, URGENT, REQUEST, METADATA_FETCH_PEER_LOG_RSP),
  METADATA_NOTIFY_REQ(64, URGENT, REQUEST, METADATA_NOTIFY_RSP),
  METADATA_CURRENT_EPOCH_REQ(65, URGENT, REQUEST, METADATA_CURRENT_EPOCH_RSP),
  /** One-way push of new metadata log entries to a node. */
  METADATA_REPLICATION(66, URGENT, REQUEST, null),
  /**
   * Redis: run a command (or a MULTI/EXEC) on the node that executes its keys, or (one-way)
   * deliver a PUBLISH / expire a due key there. Payload: resp's {@code RedisMessages}.
   */
  REDIS_REQ(75, SMALL, REQUEST, REDIS_RSP),
  /** Repair: one checksummed batch of rows streamed from one replica to another (SYNC_REQ's work). */
  REPAIR_STREAM_REQ(88, SMALL, REQUEST, REPAIR_STREAM_RSP),

  /**
   * Paxos topology repair: which partitions of some token ranges hold a Paxos round in progress
   * here (Cassandra's paxos cleanup asks the same of each replica before a ring change completes).
   */
  PAXOS2_CLEANUP_REQ(67, SMALL, REQUEST, PAXOS2_CLEANUP_RSP),

  // --- free for tests and experiments; no handler is registered by default ---
  TEST_REQ(1000, SMALL, REQUEST, null),
  TEST_RSP(1001, SMALL, REQUEST, null);

  private static final Verb[] BY_ID;

  static {
    int max = 0;
    for (Verb v : values()) max = Math.max(max, v.id);
    BY_ID = new Verb[max + 1];
    for (Verb v : values()) {
      if (BY_ID[v.id] != null) throw new AssertionError("duplicate verb id " + v.id);
      BY_ID[v.id] = v;
    }
  }

  /** On the wire as an unsigned 16-bit number. */
  public final int id;
  private final ConnectionType connectionType;
  private final TimeoutKind timeoutKind;
  private final Verb responseVerb;

  Verb(int id, ConnectionType connectionType, TimeoutKind timeoutKind, Verb responseVerb) {
    this.id = id;
    this.connectionType = connectionType;
    this.timeoutKind = timeoutKind;
    this.responseVerb = responseVerb;
  }

  /** The verb with this wire id, or null when this node does not know it. */
  public static Verb fromId(int id) {
    return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
  }

  /** The connection small messages of this verb travel on (large ones always use LARGE). */
  public ConnectionType connectionType() {
    return connectionType;
  }

  public TimeoutKind timeoutKind() {
    return timeoutKind;
  }

  /** The verb a successful answer carries, or null for responses and one-way verbs. */
  public Verb responseVerb() {
    return responseVerb;
  }

  public boolean isResponse() {
    return name().endsWith("_RSP");
  }
}
