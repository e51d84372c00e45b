package io.cassette.cql.transport.messages;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Result;
import io.cassette.cql.ValueRow;
import io.cassette.cql.transport.frame.ResponseBodies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * Encodes RESULT bodies (spec 4.2.5) for every {@link Result} kind.
 *
 * <pre>
 * Rows:     [int kind=2] metadata [int rows_count] rows_count x columns_count x [bytes]
 * metadata: [int flags] [int columns_count] [bytes paging_state]? [short bytes new_metadata_id]? (v5)
 *           ([string ks][string table])? (col_spec)*        -- omitted entirely with NO_METADATA
 * Prepared: [int kind=4] [short bytes id] [short bytes result_metadata_id] (v5)
 *           [int flags][int columns_count][int pk_count (v4+)][short pk_index]* ([string ks][string table])?
 *           (col_spec)*  then result metadata as for Rows
 * </pre>
 * Thread-safety: stateless.
 */
public final class ResultEncoder {
  // RESULT kinds. Do not change: they are on the wire.
  static final int VOID = 0x0001;
  static final int ROWS = 0x0002;
  static final int SET_KEYSPACE = 0x0003;
  static final int PREPARED = 0x0004;
  static final int SCHEMA_CHANGE = 0x0005;
  // Rows metadata flags.
  static final int GLOBAL_TABLES_SPEC = 0x0001;
  static final int HAS_MORE_PAGES = 0x0002;
  static final int NO_METADATA = 0x0004;
  static final int METADATA_CHANGED = 0x0008;

  private ResultEncoder() {}

  /**
   * @param skipMetadata  the client asked to skip result metadata (EXECUTE with SKIP_METADATA)
   * @param newMetadataId non-null (v5 EXECUTE) when the client's result metadata id is stale:
   *                      the rows then carry METADATA_CHANGED, the new id and full metadata
   */
  public static ByteBuf encode(ByteBufAllocator alloc, Result result, int version, boolean skipMetadata,
                               byte[] newMetadataId, byte[] preparedResultMetadataId) {
    if (result instanceof Result.Rows rows) {
      return encodeRows(alloc, rows, version, skipMetadata && newMetadataId == null, newMetadataId);
    }
    if (result instanceof Result.Void) {
      ByteBuf out = ResponseBodies.buffer(alloc, 4);
      out.writeInt(VOID);
      return out;
    }
    if (result instanceof Result.SetKeyspace ks) {
      ByteBuf out = ResponseBodies.buffer(alloc, 8 + ks.keyspace().length());
      out.writeInt(SET_KEYSPACE);
      CqlCodec.writeString(out, ks.keyspace());
      return out;
    }
    if (result instanceof Result.Prepared prepared) {
      return encodePrepared(alloc, prepared, version, preparedResultMetadataId);
    }
    if (result instanceof Result.SchemaChange change) {
      ByteBuf out = ResponseBodies.buffer(alloc, 64);
      out.writeInt(SCHEMA_CHANGE);
      writeSchemaChange(out, change);
      return out;
    }
    throw new IllegalArgumentException("Unknown result kind " + result);
  }

  static ByteBuf encodeRows(ByteBufAllocator alloc, Result.Rows rows, int version, boolean noMetadata,
                            byte[] newMetadataId) {
    List<List<ByteBuffer>> data = rows.rows();
    if (!(data instanceof java.util.RandomAccess)) {
      data = new java.util.ArrayList<>(data); // the loops below index it
    }
    int columns = rows.columns().size();
    ByteBuf out = ResponseBodies.buffer(alloc, rowsSizeEstimate(rows, data, columns));
    out.writeInt(ROWS);
    writeRowsMetadata(out, rows.columns(), rows.pagingState(), noMetadata, version >= 5 ? newMetadataId : null);
    out.writeInt(data.size());
    // indexed, not for-each: the rows are array lists and an iterator per answer adds up
    for (int r = 0, rowCount = data.size(); r < rowCount; r++) {
      List<ByteBuffer> row = data.get(r);
      if (row.size() != columns) {
        out.release();
        throw new IllegalStateException("Row of " + row.size() + " values for " + columns + " columns");
      }
      if (row instanceof ValueRow values) {
        for (int i = 0; i < columns; i++) {
          CqlCodec.writeBytes(out, values.bytes(i)); // straight from the array: no wrapper
        }
      } else {
        for (int i = 0; i < columns; i++) {
          CqlCodec.writeBytes(out, row.get(i));
        }
      }
    }
    return out;
  }

  /**
   * The encoded size of {@code data} exactly, plus a generous guess for the metadata: a buffer
   * that has to grow doubles, so a 1 MiB value encoded into a buffer sized by guess took 2 MiB of
   * direct memory (outside Netty's pool, whose chunks are 1 MiB) for each answer being produced.
   */
  private static int rowsSizeEstimate(Result.Rows rows, List<List<ByteBuffer>> data, int columns) {
    long size = 64;
    List<ColumnSpec> specs = rows.columns();
    for (int i = 0, n = specs.size(); i < n; i++) { // indexed: no iterator per answer (C1)
      ColumnSpec c = specs.get(i);
      size += 32 + 3L * (c.name().length() + (c.keyspace() == null ? 0 : c.keyspace().length())
          + (c.table() == null ? 0 : c.table().length()));
    }
    if (rows.pagingState() != null) {
      size += 4 + rows.pagingState().remaining();
    }
    for (int r = 0, rowCount = data.size(); r < rowCount; r++) {
      List<ByteBuffer> row = data.get(r);
      if (row instanceof ValueRow values) {
        for (int i = 0, n = values.size(); i < n; i++) {
          byte[] value = values.bytes(i);
          size += 4 + (value == null ? 0 : value.length);
        }
      } else {
        for (ByteBuffer value : row) {
          size += 4 + (value == null ? 0 : value.remaining());
        }
      }
    }
    return (int) Math.min(Integer.MAX_VALUE - 8, size);
  }

  static void writeRowsMetadata(ByteBuf out, List<ColumnSpec> columns, ByteBuffer pagingState, boolean noMetadata,
                                byte[] newMetadataId) {
    boolean global = sameTable(columns);
    int flags = 0;
    if (pagingState != null) {
      flags |= HAS_MORE_PAGES;
    }
    if (noMetadata) {
      flags |= NO_METADATA;
    } else if (global) {
      flags |= GLOBAL_TABLES_SPEC;
    }
    if (newMetadataId != null) {
      flags |= METADATA_CHANGED;
    }
    out.writeInt(flags);
    out.writeInt(columns.size());
    if (pagingState != null) {
      CqlCodec.writeBytes(out, pagingState);
    }
    if (newMetadataId != null) {
      CqlCodec.writeShortBytes(out, newMetadataId);
    }
    if (!noMetadata) {
      writeColumnSpecs(out, columns, global);
    }
  }

  private static void writeColumnSpecs(ByteBuf out, List<ColumnSpec> columns, boolean global) {
    if (global) {
      CqlCodec.writeString(out, columns.get(0).keyspace());
      CqlCodec.writeString(out, columns.get(0).table());
    }
    for (ColumnSpec c : columns) {
      if (!global) {
        CqlCodec.writeString(out, Objects.requireNonNullElse(c.keyspace(), ""));
        CqlCodec.writeString(out, Objects.requireNonNullElse(c.table(), ""));
      }
      CqlCodec.writeString(out, c.name());
      TypeEncoder.write(out, c.type());
    }
  }

  /** True when there is at least one column and all share one keyspace and table. */
  private static boolean sameTable(List<ColumnSpec> columns) {
    if (columns.isEmpty()) {
      return false;
    }
    ColumnSpec first = columns.get(0);
    if (first.keyspace() == null || first.table() == null) {
      return false;
    }
    for (int i = 1; i < columns.size(); i++) {
      ColumnSpec c = columns.get(i);
      if (!first.keyspace().equals(c.keyspace()) || !first.table().equals(c.table())) {
        return false;
      }
    }
    return true;
  }

  private static ByteBuf encodePrepared(ByteBufAllocator alloc, Result.Prepared prepared, int version,
                                        byte[] resultMetadataId) {
    ByteBuf out = ResponseBodies.buffer(alloc, 256);
    out.writeInt(PREPARED);
    CqlCodec.writeShortBytes(out, prepared.id());
    if (version >= 5) {
      CqlCodec.writeShortBytes(out, resultMetadataId);
    }
    List<ColumnSpec> variables = prepared.variables();
    boolean global = sameTable(variables);
    out.writeInt(global ? GLOBAL_TABLES_SPEC : 0);
    out.writeInt(variables.size());
    if (version >= 4) {
      int[] pk = prepared.partitionKeyIndexes() == null ? new int[0] : prepared.partitionKeyIndexes();
      out.writeInt(pk.length);
      for (int index : pk) {
        out.writeShort(index);
      }
    }
    writeColumnSpecs(out, variables, global);
    List<ColumnSpec> resultColumns = prepared.resultColumns() == null ? List.of() : prepared.resultColumns();
    if (resultColumns.isEmpty()) {
      out.writeInt(NO_METADATA);
      out.writeInt(0);
    } else {
      writeRowsMetadata(out, resultColumns, null, false, null);
    }
    return out;
  }

  /** The change, target and options of a SCHEMA_CHANGE result or event (spec 4.2.5.5). */
  public static void writeSchemaChange(ByteBuf out, Result.SchemaChange change) {
    CqlCodec.writeString(out, change.change());
    CqlCodec.writeString(out, change.target());
    CqlCodec.writeString(out, change.keyspace());
    switch (change.target()) {
      case "KEYSPACE" -> { }
      case "FUNCTION", "AGGREGATE" -> {
        CqlCodec.writeString(out, change.name());
        CqlCodec.writeStringList(out, change.argumentTypes() == null ? List.of() : change.argumentTypes());
      }
      default -> CqlCodec.writeString(out, change.name());
    }
  }
}
