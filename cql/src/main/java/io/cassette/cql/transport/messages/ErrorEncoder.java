package io.cassette.cql.transport.messages;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.FunctionFailureException;
import io.cassette.cql.ReplicaException;
import io.cassette.cql.transport.frame.ResponseBodies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetAddress;
import java.util.Map;

/**
 * Encodes ERROR bodies (spec 4.2.1 and section 9): [int code][string message] then the fields of
 * the codes that have some. Codes an older version does not know are sent as the nearest one
 * that version has, as Cassandra does (e.g. CAS_WRITE_UNKNOWN becomes WRITE_TIMEOUT before v5).
 */
public final class ErrorEncoder {
  private ErrorEncoder() {}

  public static ByteBuf encode(ByteBufAllocator alloc, CqlException error, int version) {
    if (!isEncodable(error)) {
      error = new CqlException(ErrorCode.SERVER_ERROR, error.getMessage());
    }
    ByteBuf out = ResponseBodies.buffer(alloc, 64 + (error.getMessage() == null ? 0 : error.getMessage().length() * 3));
    ErrorCode code = codeFor(error.code(), version);
    out.writeInt(code.code);
    CqlCodec.writeTruncatedString(out, error.getMessage() == null ? code.name() : error.getMessage());
    switch (code) {
      case UNAVAILABLE -> {
        CqlException.Unavailable u = (CqlException.Unavailable) error;
        out.writeShort(u.consistency.code);
        out.writeInt(u.required);
        out.writeInt(u.alive);
      }
      case ALREADY_EXISTS -> {
        CqlException.AlreadyExists a = (CqlException.AlreadyExists) error;
        CqlCodec.writeString(out, a.keyspace == null ? "" : a.keyspace);
        CqlCodec.writeString(out, a.table == null ? "" : a.table);
      }
      case UNPREPARED -> CqlCodec.writeShortBytes(out, ((CqlException.Unprepared) error).id);
      case READ_TIMEOUT -> {
        ReplicaException r = (ReplicaException) error;
        writeReplicaCounts(out, r);
        boolean dataPresent = r instanceof ReplicaException.ReadTimeout t ? t.dataPresent
            : r instanceof ReplicaException.ReadFailure f && f.dataPresent;
        out.writeByte(dataPresent ? 1 : 0);
      }
      case WRITE_TIMEOUT -> {
        ReplicaException r = (ReplicaException) error;
        writeReplicaCounts(out, r);
        String writeType = r instanceof ReplicaException.WriteTimeout t ? t.writeType
            : r instanceof ReplicaException.WriteFailure f ? f.writeType : "CAS";
        CqlCodec.writeString(out, writeType);
        if (version >= 5 && "CAS".equals(writeType)) {
          out.writeShort(r instanceof ReplicaException.WriteTimeout t ? t.contentions : 0);
        }
      }
      case READ_FAILURE -> {
        ReplicaException.ReadFailure f = (ReplicaException.ReadFailure) error;
        writeReplicaCounts(out, f);
        writeFailures(out, f.failures, version);
        out.writeByte(f.dataPresent ? 1 : 0);
      }
      case WRITE_FAILURE -> {
        ReplicaException.WriteFailure f = (ReplicaException.WriteFailure) error;
        writeReplicaCounts(out, f);
        writeFailures(out, f.failures, version);
        CqlCodec.writeString(out, f.writeType);
      }
      case CAS_WRITE_UNKNOWN -> writeReplicaCounts(out, (ReplicaException) error);
      case FUNCTION_FAILURE -> {
        FunctionFailureException f = (FunctionFailureException) error;
        CqlCodec.writeString(out, f.keyspace);
        CqlCodec.writeString(out, f.function);
        CqlCodec.writeStringList(out, f.argumentTypes);
      }
      default -> { }
    }
    return out;
  }

  /**
   * The code to send: the thrown one, unless its extra fields are missing (a plain
   * CqlException with a code that needs a subclass: sent as SERVER_ERROR rather than as a body
   * a driver would fail to parse) or the version predates it.
   */
  static ErrorCode codeFor(ErrorCode code, int version) {
    return switch (code) {
      case CAS_WRITE_UNKNOWN -> version >= 5 ? code : ErrorCode.WRITE_TIMEOUT;
      case CDC_WRITE_FAILURE -> version >= 5 ? code : ErrorCode.SERVER_ERROR;
      case READ_FAILURE -> version >= 4 ? code : ErrorCode.READ_TIMEOUT;
      case WRITE_FAILURE -> version >= 4 ? code : ErrorCode.WRITE_TIMEOUT;
      case FUNCTION_FAILURE -> version >= 4 ? code : ErrorCode.INVALID;
      default -> code;
    };
  }

  /** True when {@code error} carries the fields its code needs. */
  public static boolean isEncodable(CqlException error) {
    return switch (error.code()) {
      case UNAVAILABLE -> error instanceof CqlException.Unavailable;
      case ALREADY_EXISTS -> error instanceof CqlException.AlreadyExists;
      case UNPREPARED -> error instanceof CqlException.Unprepared;
      case READ_TIMEOUT, WRITE_TIMEOUT, CAS_WRITE_UNKNOWN -> error instanceof ReplicaException;
      case READ_FAILURE -> error instanceof ReplicaException.ReadFailure;
      case WRITE_FAILURE -> error instanceof ReplicaException.WriteFailure;
      case FUNCTION_FAILURE -> error instanceof FunctionFailureException;
      default -> true;
    };
  }

  private static void writeReplicaCounts(ByteBuf out, ReplicaException r) {
    out.writeShort(r.consistency.code);
    out.writeInt(r.received);
    out.writeInt(r.blockFor);
  }

  /** v5: [int n] then n x ([inetaddr][short code]); before: [int numfailures]. */
  private static void writeFailures(ByteBuf out, Map<InetAddress, Integer> failures, int version) {
    Map<InetAddress, Integer> map = failures == null ? Map.of() : failures;
    out.writeInt(map.size());
    if (version >= 5) {
      for (Map.Entry<InetAddress, Integer> e : map.entrySet()) {
        CqlCodec.writeInetAddr(out, e.getKey());
        out.writeShort(e.getValue());
      }
    }
  }
}
