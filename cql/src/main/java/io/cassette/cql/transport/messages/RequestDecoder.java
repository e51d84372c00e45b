package io.cassette.cql.transport.messages;

import static io.cassette.cql.transport.messages.CqlCodec.malformed;
import static io.cassette.cql.transport.messages.CqlCodec.readByte;
import static io.cassette.cql.transport.messages.CqlCodec.readInt;
import static io.cassette.cql.transport.messages.CqlCodec.readLong;
import static io.cassette.cql.transport.messages.CqlCodec.readShort;
import static io.cassette.cql.transport.messages.CqlCodec.readString;

import io.cassette.cql.BatchStatement;
import io.cassette.cql.BoundValues;
import io.cassette.cql.Consistency;
import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.QueryOptions;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes request bodies (spec section 4.1) for a given protocol version. Malformed bodies
 * raise a PROTOCOL_ERROR {@link CqlException}; the frame boundaries are intact, so the
 * connection goes on. Thread-safety: stateless.
 */
public final class RequestDecoder {
  // [query_parameters] flags (spec 4.1.4). Do not change: they are on the wire.
  static final int VALUES = 0x01;
  static final int SKIP_METADATA = 0x02;
  static final int PAGE_SIZE = 0x04;
  static final int WITH_PAGING_STATE = 0x08;
  static final int WITH_SERIAL_CONSISTENCY = 0x10;
  static final int WITH_DEFAULT_TIMESTAMP = 0x20;
  static final int WITH_NAMES_FOR_VALUES = 0x40;
  static final int WITH_KEYSPACE = 0x80;
  static final int WITH_NOW_IN_SECONDS = 0x100;
  /** PREPARE flag (v5): a keyspace follows. */
  static final int PREPARE_WITH_KEYSPACE = 0x01;

  private RequestDecoder() {}

  /**
   * Decodes the body of a request with {@code opcode}.
   *
   * @throws CqlException PROTOCOL_ERROR for a malformed body or an opcode that is not a request
   */
  public static Request decode(int opcode, ByteBuf body, int version) {
    return decode(opcode, body, version, Integer.MAX_VALUE);
  }

  /**
   * Decodes the body of a request with {@code opcode}, refusing bound values longer than
   * {@code maxValueBytes} ({@code max_value_size}) with INVALID.
   *
   * @throws CqlException PROTOCOL_ERROR for a malformed body or an opcode that is not a request
   */
  public static Request decode(int opcode, ByteBuf body, int version, int maxValueBytes) {
    Request request = switch (opcode) {
      case Opcode.STARTUP -> new Request.Startup(CqlCodec.readStringMap(body, "STARTUP options"));
      case Opcode.OPTIONS -> new Request.Options();
      case Opcode.QUERY -> new Request.Query(CqlCodec.readLongString(body, "query string"),
          readQueryParameters(body, version, maxValueBytes));
      case Opcode.PREPARE -> decodePrepare(body, version);
      case Opcode.EXECUTE -> decodeExecute(body, version, maxValueBytes);
      case Opcode.BATCH -> decodeBatch(body, version, maxValueBytes);
      case Opcode.REGISTER -> new Request.Register(CqlCodec.readStringList(body, "event type"));
      case Opcode.AUTH_RESPONSE -> new Request.AuthResponse(CqlCodec.readBytes(body, "SASL token"));
      default -> throw malformed("Unknown request opcode " + opcode);
    };
    // Trailing bytes are ignored, as Cassandra does.
    return request;
  }

  private static Request.Prepare decodePrepare(ByteBuf body, int version) {
    String query = CqlCodec.readLongString(body, "query string");
    String keyspace = null;
    if (version >= 5) {
      int flags = readInt(body, "PREPARE flags");
      if ((flags & PREPARE_WITH_KEYSPACE) != 0) {
        keyspace = readString(body, "keyspace");
      }
    }
    return new Request.Prepare(query, keyspace);
  }

  private static Request.Execute decodeExecute(ByteBuf body, int version, int maxValueBytes) {
    byte[] id = CqlCodec.readPreparedId(body, "prepared statement id");
    byte[] resultMetadataId = version >= 5 ? CqlCodec.readPreparedId(body, "result metadata id") : null;
    return new Request.Execute(id, resultMetadataId, readQueryParameters(body, version, maxValueBytes));
  }

  private static Request.Batch decodeBatch(ByteBuf body, int version, int maxValueBytes) {
    int type = readByte(body, "batch type");
    if (type > 2) {
      throw malformed("Unknown BATCH type " + type + " (expected: 0 LOGGED, 1 UNLOGGED or 2 COUNTER)");
    }
    int n = readShort(body, "number of batch statements");
    List<BatchStatement> statements = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int kind = readByte(body, "batch statement kind");
      String query = null;
      byte[] id = null;
      if (kind == 0) {
        query = CqlCodec.readLongString(body, "batch query string");
      } else if (kind == 1) {
        id = CqlCodec.readShortBytes(body, "batch prepared id");
      } else {
        throw malformed("Invalid query kind in BATCH messages. Must be 0 or 1 but got " + kind);
      }
      int valueCount = readShort(body, "number of batch values");
      List<ByteBuffer> values = new ArrayList<>(valueCount);
      for (int v = 0; v < valueCount; v++) {
        values.add(readValue(body, version, "batch value", maxValueBytes));
      }
      statements.add(new BatchStatement(query, id, values));
    }
    Consistency consistency = Consistency.fromCode(readShort(body, "consistency"));
    int flags = version >= 5 ? readInt(body, "batch flags") : readByte(body, "batch flags");
    if ((flags & WITH_NAMES_FOR_VALUES) != 0) {
      throw malformed("Alternative syntax with named values is not supported for batches");
    }
    Consistency serial = (flags & WITH_SERIAL_CONSISTENCY) != 0
        ? Consistency.fromCode(readShort(body, "serial consistency")) : Consistency.SERIAL;
    long timestamp = (flags & WITH_DEFAULT_TIMESTAMP) != 0 ? readTimestamp(body) : Long.MIN_VALUE;
    String keyspace = version >= 5 && (flags & WITH_KEYSPACE) != 0 ? readString(body, "keyspace") : null;
    int now = version >= 5 && (flags & WITH_NOW_IN_SECONDS) != 0 ? readInt(body, "now in seconds") : Integer.MIN_VALUE;
    return new Request.Batch(type, statements, new QueryOptions(consistency, List.of(), null, false, -1, null,
        serial, timestamp, keyspace, now, version));
  }

  /** [query_parameters] of QUERY and EXECUTE. */
  static QueryOptions readQueryParameters(ByteBuf body, int version) {
    return readQueryParameters(body, version, Integer.MAX_VALUE);
  }

  /**
   * A bound value, refused with INVALID when longer than {@code maxValueBytes}: a value too big
   * for this node's heap gets a clean error instead of being copied on.
   */
  private static ByteBuffer readValue(ByteBuf body, int version, String what, int maxValueBytes) {
    if (body.readableBytes() >= 4) {
      int length = body.getInt(body.readerIndex());
      if (length > maxValueBytes) {
        throw new CqlException(ErrorCode.INVALID, "Value of " + length + " bytes for " + what
            + " exceeds max_value_size of " + maxValueBytes + " bytes");
      }
    }
    return CqlCodec.readValue(body, version, what);
  }

  /**
   * Bound value {@code index} as {@link BoundValues} keeps it: a well-formed value is read
   * without building its description (a string per value per request) nor a ByteBuffer;
   * anything else goes the general way, for its error text.
   */
  private static byte[] readValueBytes(ByteBuf body, int version, int index, int maxValueBytes) {
    if (body.readableBytes() >= 4) {
      int length = body.getInt(body.readerIndex());
      if (length >= 0 && length <= maxValueBytes && length <= body.readableBytes() - 4) {
        body.skipBytes(4);
        byte[] b = new byte[length];
        body.readBytes(b);
        return b;
      }
    }
    ByteBuffer v = readValue(body, version, "value " + index, maxValueBytes);
    return v == null ? null : v == QueryOptions.UNSET ? BoundValues.UNSET : v.array(); // a fresh, whole array
  }

  static QueryOptions readQueryParameters(ByteBuf body, int version, int maxValueBytes) {
    Consistency consistency = Consistency.fromCode(readShort(body, "consistency"));
    int flags = version >= 5 ? readInt(body, "query flags") : readByte(body, "query flags");
    List<ByteBuffer> values = List.of();
    List<String> names = null;
    if ((flags & VALUES) != 0) {
      int n = readShort(body, "number of values");
      BoundValues bound = new BoundValues(n);
      if ((flags & WITH_NAMES_FOR_VALUES) != 0) {
        names = new ArrayList<>(n);
      }
      for (int i = 0; i < n; i++) {
        if (names != null) {
          names.add(readString(body, "value name"));
        }
        bound.put(i, readValueBytes(body, version, i, maxValueBytes));
      }
      values = bound;
    }
    boolean skipMetadata = (flags & SKIP_METADATA) != 0;
    int pageSize = -1;
    if ((flags & PAGE_SIZE) != 0) {
      pageSize = readInt(body, "result page size");
    }
    ByteBuffer pagingState = null;
    if ((flags & WITH_PAGING_STATE) != 0) {
      byte[] state = CqlCodec.readBytes(body, "paging state");
      pagingState = state == null ? null : ByteBuffer.wrap(state);
    }
    Consistency serial = (flags & WITH_SERIAL_CONSISTENCY) != 0
        ? Consistency.fromCode(readShort(body, "serial consistency")) : Consistency.SERIAL;
    long timestamp = (flags & WITH_DEFAULT_TIMESTAMP) != 0 ? readTimestamp(body) : Long.MIN_VALUE;
    String keyspace = version >= 5 && (flags & WITH_KEYSPACE) != 0 ? readString(body, "keyspace") : null;
    int now = version >= 5 && (flags & WITH_NOW_IN_SECONDS) != 0 ? readInt(body, "now in seconds") : Integer.MIN_VALUE;
    return new QueryOptions(consistency, values, names, skipMetadata, pageSize, pagingState, serial, timestamp,
        keyspace, now, version);
  }

  private static long readTimestamp(ByteBuf body) {
    long ts = readLong(body, "default timestamp");
    if (ts == Long.MIN_VALUE) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Out of bound timestamp, must be in [" + (Long.MIN_VALUE + 1)
          + ", " + Long.MAX_VALUE + "]");
    }
    return ts;
  }
}
