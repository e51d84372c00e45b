package io.cassette.cql;

import java.net.InetAddress;
import java.util.Map;

/**
 * Errors about replicas that did not answer or failed (timeouts, failures, unknown CAS
 * outcome). Their ERROR bodies carry the consistency level, how many replicas answered and how
 * many were required, plus the fields of each kind; the transport encodes them. Thrown by the
 * coordinator (single node: rarely, e.g. a write that waited too long for the commit log).
 */
public abstract class ReplicaException extends CqlException {
  public final Consistency consistency;
  public final int received;
  public final int blockFor;

  protected ReplicaException(ErrorCode code, Consistency consistency, int received, int blockFor, String message) {
    super(code, message);
    this.consistency = consistency;
    this.received = received;
    this.blockFor = blockFor;
  }

  /** READ_TIMEOUT; {@code dataPresent}: whether the replica asked for data answered. */
  public static final class ReadTimeout extends ReplicaException {
    public final boolean dataPresent;

    public ReadTimeout(Consistency consistency, int received, int blockFor, boolean dataPresent, String message) {
      super(ErrorCode.READ_TIMEOUT, consistency, received, blockFor, message);
      this.dataPresent = dataPresent;
    }
  }

  /**
   * WRITE_TIMEOUT; {@code writeType} is SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER, BATCH_LOG, CAS,
   * VIEW or CDC; {@code contentions} (v5) counts CAS contentions, 0 otherwise.
   */
  public static final class WriteTimeout extends ReplicaException {
    public final String writeType;
    public final int contentions;

    public WriteTimeout(Consistency consistency, int received, int blockFor, String writeType, int contentions,
                        String message) {
      super(ErrorCode.WRITE_TIMEOUT, consistency, received, blockFor, message);
      this.writeType = writeType;
      this.contentions = contentions;
    }
  }

  /** READ_FAILURE; {@code failures} maps each failed replica to its failure code (v5 reason map). */
  public static final class ReadFailure extends ReplicaException {
    public final Map<InetAddress, Integer> failures;
    public final boolean dataPresent;

    public ReadFailure(Consistency consistency, int received, int blockFor, Map<InetAddress, Integer> failures,
                       boolean dataPresent, String message) {
      super(ErrorCode.READ_FAILURE, consistency, received, blockFor, message);
      this.failures = failures;
      this.dataPresent = dataPresent;
    }
  }

  /** WRITE_FAILURE; see {@link ReadFailure} and {@link WriteTimeout} for the fields. */
  public static final class WriteFailure extends ReplicaException {
    public final Map<InetAddress, Integer> failures;
    public final String writeType;

    public WriteFailure(Consistency consistency, int received, int blockFor, Map<InetAddress, Integer> failures,
                        String writeType, String message) {
      super(ErrorCode.WRITE_FAILURE, consistency, received, blockFor, message);
      this.failures = failures;
      this.writeType = writeType;
    }
  }

  /** CAS_WRITE_UNKNOWN (v5): the outcome of a lightweight transaction is unknown. */
  public static final class CasWriteUnknown extends ReplicaException {
    public CasWriteUnknown(Consistency consistency, int received, int blockFor, String message) {
      super(ErrorCode.CAS_WRITE_UNKNOWN, consistency, received, blockFor, message);
    }
  }
}
