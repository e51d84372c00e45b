package io.cassette.coordinator;

/**
 * A request the coordinator refused or could not complete. The front doors map the subclasses
 * onto their protocol's errors (CQL: UNAVAILABLE 0x1000, INVALID 0x2200; Redis: an error reply).
 * A storage failure surfaces as {@link io.cassette.storage.StorageException}, unchanged.
 */
public class CoordinatorException extends RuntimeException {
  public CoordinatorException(String message) {
    super(message);
  }

  /**
   * Fewer replicas are alive than the consistency level needs; nothing was read or written.
   * The message is Cassandra's: {@code Cannot achieve consistency level QUORUM}.
   */
  public static final class Unavailable extends CoordinatorException {
    public final ConsistencyLevel consistency;
    public final int required;
    public final int alive;

    public Unavailable(ConsistencyLevel consistency, int required, int alive) {
      this(consistency, required, alive, "Cannot achieve consistency level " + consistency);
    }

    public Unavailable(ConsistencyLevel consistency, int required, int alive, String message) {
      super(message);
      this.consistency = consistency;
      this.required = required;
      this.alive = alive;
    }
  }

  /** The request is not valid at this level (e.g. ANY for a read); Cassandra's message. */
  public static final class Invalid extends CoordinatorException {
    public Invalid(String message) {
      super(message);
    }
  }

  /** The keyspace or table named by a request does not exist (any more). */
  public static final class UnknownTable extends CoordinatorException {
    public UnknownTable(String keyspace, String table) {
      super("unconfigured table " + keyspace + "." + table);
    }
  }

  /**
   * Replicas did not answer within the request's timeout (one node: the partition stayed held
   * by other read-modify-writes). Nothing was applied by this request.
   */
  public static final class Timeout extends CoordinatorException {
    public final ConsistencyLevel consistency;
    public final int received;
    public final int blockFor;
    /** Cassandra's write type (CAS, COUNTER, SIMPLE), or null for a read. */
    public final String writeType;
    /** A read only: whether the replica asked for the data answered (CQL's data_present). */
    public final boolean dataPresent;

    public Timeout(ConsistencyLevel consistency, int received, int blockFor, String writeType) {
      this(consistency, received, blockFor, writeType, false);
    }

    public Timeout(ConsistencyLevel consistency, int received, int blockFor, String writeType, boolean dataPresent) {
      super("Operation timed out - received only " + received + " responses.");
      this.consistency = consistency;
      this.received = received;
      this.blockFor = blockFor;
      this.writeType = writeType;
      this.dataPresent = dataPresent;
    }
  }

  /**
   * Replicas answered with a failure instead of data or an acknowledgement (Cassandra's
   * READ_FAILURE / WRITE_FAILURE): e.g. the owner's storage failed or it did not know the
   * table. The write may have been applied by other replicas of the request.
   */
  public static final class Failure extends CoordinatorException {
    public final ConsistencyLevel consistency;
    public final int received;
    public final int blockFor;
    /** Failed replicas with Cassandra's failure reason codes (0 UNKNOWN, 3 INCOMPATIBLE_SCHEMA ...). */
    public final java.util.Map<java.net.InetAddress, Integer> failures;
    /** Cassandra's write type (SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER, CAS), or null for a read. */
    public final String writeType;

    public Failure(ConsistencyLevel consistency, int received, int blockFor,
                   java.util.Map<java.net.InetAddress, Integer> failures, String writeType, String message) {
      super(message);
      this.consistency = consistency;
      this.received = received;
      this.blockFor = blockFor;
      this.failures = java.util.Map.copyOf(failures);
      this.writeType = writeType;
    }
  }
}
