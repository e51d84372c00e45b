package io.cassette.storage.memtable;

/**
 * Reads a packed row ({@link PackedRow}) in place: its header, then one cell at a time, into
 * plain fields, allocating nothing per cell (the bytes of a path or value stay in the row and
 * are given as offset and length). What {@link PackedRowMerger} merges from; one cursor per
 * row, not thread-safe (the row bytes themselves never change once published).
 */
final class PackedCellCursor extends io.cassette.storage.partition.RowCursor {
  /** Names column numbers for {@link #columnName()}; null when only numbers are read. */
  final ColumnDictionary columns;
  private int pos;
  private int read;
  private long previous;
  /** The current cell's column number. */
  int column;

  PackedCellCursor(byte[] in) {
    this(in, null);
  }

  PackedCellCursor(byte[] in, ColumnDictionary columns) {
    this.columns = columns;
    reset(in);
  }

  /** Makes this cursor read the packed row {@code in} from its start (a flush reuses one cursor). */
  PackedCellCursor reset(byte[] in) {
    this.in = in;
    read = 0;
    int p = 0;
    int rowFlags = in[p++];
    if ((rowFlags & PackedRow.HAS_LIVENESS) != 0) {
      livenessTimestamp = PackedRow.longAt(in, p);
      p += 8;
      livenessTtl = varInt(in, p);
      p += PackedRow.varIntSize(livenessTtl);
      if (livenessTtl > 0) {
        livenessExpiration = PackedRow.longAt(in, p);
        p += 8;
      } else {
        livenessExpiration = Long.MAX_VALUE;
      }
    } else {
      livenessTimestamp = PackedRow.NO_TIMESTAMP;
      livenessTtl = 0;
      livenessExpiration = Long.MAX_VALUE;
    }
    if ((rowFlags & PackedRow.HAS_DELETION) != 0) {
      deletedAt = PackedRow.longAt(in, p);
      deletionTime = PackedRow.longAt(in, p + 8);
      p += 16;
    } else {
      deletedAt = Long.MIN_VALUE;
      deletionTime = Long.MAX_VALUE;
    }
    cellCount = varInt(in, p);
    pos = p + PackedRow.varIntSize(cellCount);
    previous = livenessTimestamp;
    return this;
  }

  @Override
  public boolean next() {
    if (read == cellCount) {
      return false;
    }
    read++;
    int p = pos;
    flags = in[p++];
    column = varInt(in, p);
    p += PackedRow.varIntSize(column);
    if (columns != null) {
      nameUtf8 = columns.utf8(column);
    }
    if ((flags & PackedRow.HAS_PATH) != 0) {
      pathLength = varInt(in, p);
      pathOffset = p + PackedRow.varIntSize(pathLength);
      p = pathOffset + pathLength;
    } else {
      pathOffset = -1;
      pathLength = 0;
    }
    if ((flags & PackedRow.SHARED_TIMESTAMP) != 0) {
      timestamp = previous;
    } else {
      timestamp = PackedRow.longAt(in, p);
      p += 8;
    }
    ttl = 0;
    localDeletionTime = Long.MAX_VALUE;
    if ((flags & PackedRow.EXPIRING) != 0) {
      ttl = varInt(in, p);
      p += PackedRow.varIntSize(ttl);
      localDeletionTime = PackedRow.longAt(in, p);
      p += 8;
    } else if ((flags & PackedRow.TOMBSTONE) != 0) {
      localDeletionTime = PackedRow.longAt(in, p);
      p += 8;
    }
    if ((flags & PackedRow.TOMBSTONE) != 0) {
      valueOffset = -1;
      valueLength = 0;
    } else {
      valueLength = varInt(in, p);
      valueOffset = p + PackedRow.varIntSize(valueLength);
      p = valueOffset + valueLength;
    }
    previous = timestamp;
    pos = p;
    return true;
  }

  @Override
  public String columnName() {
    return columns.name(column);
  }

  /** The varint at {@code p} (non-negative: written from an int by {@link PackedRow#putVarInt}). */
  private static int varInt(byte[] in, int p) {
    int v = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in[p++];
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
  }
}
