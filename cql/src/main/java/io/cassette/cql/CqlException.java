package io.cassette.cql;

/**
 * An error the client receives as an ERROR message. Codes whose body carries more than the
 * message (ALREADY_EXISTS, UNPREPARED, UNAVAILABLE, timeouts...) use the subclasses below so
 * the transport can encode the extra fields.
 */
public class CqlException extends RuntimeException {
  private final ErrorCode code;

  public CqlException(ErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }

  /** ALREADY_EXISTS: {@code table} is empty when a keyspace already exists. */
  public static final class AlreadyExists extends CqlException {
    public final String keyspace;
    public final String table;

    public AlreadyExists(String keyspace, String table, String message) {
      super(ErrorCode.ALREADY_EXISTS, message);
      this.keyspace = keyspace;
      this.table = table;
    }
  }

  /** UNPREPARED: the client must prepare {@code id} again. */
  public static final class Unprepared extends CqlException {
    public final byte[] id;

    public Unprepared(byte[] id, String message) {
      super(ErrorCode.UNPREPARED, message);
      this.id = id;
    }
  }

  /** UNAVAILABLE: not enough replicas alive for the consistency level. */
  public static final class Unavailable extends CqlException {
    public final Consistency consistency;
    public final int required;
    public final int alive;

    public Unavailable(Consistency consistency, int required, int alive, String message) {
      super(ErrorCode.UNAVAILABLE, message);
      this.consistency = consistency;
      this.required = required;
      this.alive = alive;
    }
  }
}
