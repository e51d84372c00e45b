package io.cassette.cluster.net;

/**
 * Why a replica answered a request with {@link Verb#FAILURE_RSP} instead of a response. Names
 * follow Cassandra's {@code RequestFailureReason}; the codes are ours and are on the wire, so
 * never renumber: add new reasons at the end. An unknown code decodes as {@link #UNKNOWN}.
 */
public enum RequestFailureReason {
  UNKNOWN(0),
  READ_TOO_MANY_TOMBSTONES(1),
  TIMEOUT(2),
  INCOMPATIBLE_SCHEMA(3),
  READ_SIZE(4),
  NODE_DOWN(5),
  INDEX_NOT_AVAILABLE(6),
  /** No handler is registered for the verb on the receiving node. */
  UNKNOWN_VERB(7),
  /** The receiver is overloaded (its inbound budget is exhausted). */
  OVERLOADED(8),
  /** A metadata request reached a node that is not a member of the metadata service. */
  NOT_CMS(9),
  /** The receiver's metadata is behind the epoch the request needs (it is catching up). */
  COORDINATOR_BEHIND(10),
  /**
   * A fenced write refused: the replica promised a newer epoch of the writer's lease (ours; a
   * code far from Cassandra's so a future one of theirs does not collide).
   */
  FENCED(100);

  public final int code;

  RequestFailureReason(int code) {
    this.code = code;
  }

  public static RequestFailureReason fromCode(int code) {
    for (RequestFailureReason r : values()) {
      if (r.code == code) return r;
    }
    return UNKNOWN;
  }
}
