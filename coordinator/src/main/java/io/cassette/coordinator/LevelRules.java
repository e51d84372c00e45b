package io.cassette.coordinator;

/**
 * Which consistency levels an operation accepts, with Cassandra 5.0's refusal texts
 * (recorded from the anchor in cql/src/test/resources/anchors). Shared by every
 * {@link Coordinator} so one node and a ring refuse alike, before any replica is counted.
 */
public final class LevelRules {
  private LevelRules() {}

  /** Reads: ANY is for writes only. */
  public static void forRead(ConsistencyLevel cl) {
    if (cl == ConsistencyLevel.ANY) {
      throw new CoordinatorException.Invalid("ANY ConsistencyLevel is only supported for writes");
    }
  }

  /** Plain writes and batches: a serial level needs a condition. */
  public static void forWrite(ConsistencyLevel cl) {
    if (cl.isSerial()) {
      throw new CoordinatorException.Invalid("You must use conditional updates for serializable writes");
    }
  }

  /** The commit level of a lightweight transaction: anything but SERIAL/LOCAL_SERIAL. */
  public static void forCasCommit(ConsistencyLevel commit) {
    if (commit.isSerial()) {
      throw new CoordinatorException.Invalid(commit + " is not supported as conditional update commit"
          + " consistency. Use ANY if you mean \"make sure it is accepted but I don't care how many"
          + " replicas commit it for non-SERIAL reads\"");
    }
  }

  /** Counter updates and list-by-index updates (read-modify-write without Paxos). */
  public static void forReadModifyWrite(ConsistencyLevel cl, boolean counter, String table) {
    if (counter && cl == ConsistencyLevel.ANY) {
      throw new CoordinatorException.Invalid("Consistency level ANY is not yet supported for counter table " + table);
    }
    if (cl.isSerial()) {
      throw new CoordinatorException.Invalid(counter ? "Counter operations are inherently non-serializable"
          : "You must use conditional updates for serializable writes");
    }
  }

  /** The level a Paxos round needs, as Cassandra names it in Unavailable: QUORUM or LOCAL_QUORUM. */
  public static ConsistencyLevel paxosRound(ConsistencyLevel serial) {
    return serial == ConsistencyLevel.LOCAL_SERIAL ? ConsistencyLevel.LOCAL_QUORUM : ConsistencyLevel.QUORUM;
  }
}
