package io.cassette.storage.partition;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.StorageException;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.io.DataWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of rows, cells, deletions and range tombstones, shared by the commit log
 * and the SSTable data component. Do not change: it is on disk (docs/format/rows.md).
 *
 * <pre>
 * deletion  := markedForDeleteAt:i64 localDeletionTime:i64
 * rangeTomb := flags:u8 (1 start incl, 2 end incl) start:bytes end:bytes deletion
 * row       := flags:u8 clustering:bytes [liveness] [deletion] cellCount:varint cell*
 *              flags: 1 has liveness, 2 has deletion
 * liveness  := timestamp:i64 ttl:varint [localExpirationTime:i64 if ttl &gt; 0]
 * cell      := flags:u8 column:string [path:bytes] [timestamp:i64 unless flags&amp;8]
 *              [ttl:varint localDeletionTime:i64 if expiring]
 *              [localDeletionTime:i64 if tombstone] [value:bytes unless tombstone]
 *              flags: 1 tombstone, 2 expiring, 4 has path,
 *              8 same timestamp as the row's previous one (its liveness's, else the
 *                preceding cell's): written only with shareTimestamps (SSTable format 2,
 *                commit log 2); always understood, so older files read unchanged
 * bytes     := length:varint byte*        string := bytes (UTF-8)
 * </pre>
 */
public final class PartitionSerializer {
  /** Largest key, clustering, path or value accepted when reading (rejects garbage lengths). */
  public static final int MAX_VALUE_LENGTH = 256 << 20;

  private static final int ROW_HAS_LIVENESS = 1;
  private static final int ROW_HAS_DELETION = 2;
  private static final int CELL_TOMBSTONE = 1;
  private static final int CELL_EXPIRING = 2;
  private static final int CELL_HAS_PATH = 4;
  private static final int CELL_SHARED_TIMESTAMP = 8;
  /** The previous timestamp of a row before any: no cell may share it. */
  private static final long NO_TIMESTAMP = Long.MIN_VALUE;

  private PartitionSerializer() {}

  /**
   * What a partition update holds apart from its table: key, partition deletion, range
   * tombstones and rows. Shared by the commit log (whose records name the table by id) and the
   * internode messages (which name it by keyspace and table).
   *
   * <pre>
   * key (length-prefixed) | flags (1 = deleted, 2 = range tombstones) | [deletion]
   * | [varint count, range tombstone...] | varint count, row...
   * </pre>
   */
  public static void writeUpdateBody(DataWriter out, PartitionUpdate u) {
    writeUpdateBody(out, u, false);
  }

  /**
   * As {@link #writeUpdateBody(DataWriter, PartitionUpdate)}; {@code shareTimestamps} omits
   * a cell's timestamp when it repeats the row's previous one (8 bytes a cell for an INSERT:
   * flash wear). Internode messages and repair hashes keep the full form, which every
   * version reads alike.
   */
  public static void writeUpdateBody(DataWriter out, PartitionUpdate u, boolean shareTimestamps) {
    out.writeLengthPrefixed(u.key());
    boolean deleted = !u.partitionDeletion().isLive();
    boolean ranges = !u.rangeTombstones().isEmpty();
    out.writeByte((deleted ? 1 : 0) | (ranges ? 2 : 0));
    if (deleted) {
      writeDeletion(out, u.partitionDeletion());
    }
    if (ranges) {
      out.writeVarInt(u.rangeTombstones().size());
      for (RangeTombstone rt : u.rangeTombstones()) {
        writeRangeTombstone(out, rt);
      }
    }
    out.writeVarInt(u.rows().size());
    for (Row r : u.rows()) {
      writeRow(out, r, shareTimestamps);
    }
  }

  /** Reads what {@link #writeUpdateBody} wrote, as an update of {@code keyspace.table}. */
  public static PartitionUpdate readUpdateBody(DataReader in, String keyspace, String table) {
    byte[] key = in.readLengthPrefixed(MAX_VALUE_LENGTH);
    int flags = in.readByte();
    DeletionTime pd = (flags & 1) != 0 ? readDeletion(in) : DeletionTime.LIVE;
    int rtCount = (flags & 2) != 0 ? count(in) : 0;
    List<RangeTombstone> rts = new ArrayList<>(Math.min(rtCount, 1024));
    for (int j = 0; j < rtCount; j++) {
      rts.add(readRangeTombstone(in));
    }
    int rowCount = count(in);
    List<Row> rows = new ArrayList<>(Math.min(rowCount, 4096));
    for (int j = 0; j < rowCount; j++) {
      rows.add(readRow(in));
    }
    return new PartitionUpdate(keyspace, table, key, pd, rts, rows);
  }

  private static int count(DataReader in) {
    int n = in.readVarInt();
    if (n < 0) {
      throw new StorageException("malformed count " + n);
    }
    return n;
  }

  public static void writeDeletion(DataWriter out, DeletionTime d) {
    out.writeLong(d.markedForDeleteAt());
    out.writeLong(d.localDeletionTime());
  }

  public static DeletionTime readDeletion(DataReader in) {
    long at = in.readLong();
    long ldt = in.readLong();
    return at == Long.MIN_VALUE && ldt == Long.MAX_VALUE ? DeletionTime.LIVE : new DeletionTime(at, ldt);
  }

  public static void writeRangeTombstone(DataWriter out, RangeTombstone rt) {
    Slice s = rt.slice();
    out.writeByte((s.startInclusive() ? 1 : 0) | (s.endInclusive() ? 2 : 0));
    out.writeLengthPrefixed(s.start());
    out.writeLengthPrefixed(s.end());
    writeDeletion(out, rt.deletion());
  }

  public static RangeTombstone readRangeTombstone(DataReader in) {
    int flags = in.readByte();
    byte[] start = in.readLengthPrefixed(MAX_VALUE_LENGTH);
    byte[] end = in.readLengthPrefixed(MAX_VALUE_LENGTH);
    return new RangeTombstone(new Slice(start, (flags & 1) != 0, end, (flags & 2) != 0), readDeletion(in));
  }

  public static void writeRow(DataWriter out, Row row) {
    writeRow(out, row, false);
  }

  /** A row; {@code shareTimestamps}: see {@link #writeUpdateBody(DataWriter, PartitionUpdate, boolean)}. */
  public static void writeRow(DataWriter out, Row row, boolean shareTimestamps) {
    boolean hasLiveness = !row.liveness().isEmpty();
    boolean hasDeletion = !row.deletion().isLive();
    out.writeByte((hasLiveness ? ROW_HAS_LIVENESS : 0) | (hasDeletion ? ROW_HAS_DELETION : 0));
    out.writeLengthPrefixed(row.clustering());
    if (hasLiveness) {
      LivenessInfo l = row.liveness();
      out.writeLong(l.timestamp());
      out.writeVarInt(l.ttl());
      if (l.ttl() > 0) {
        out.writeLong(l.localExpirationTime());
      }
    }
    if (hasDeletion) {
      writeDeletion(out, row.deletion());
    }
    List<Cell> cells = row.cells();
    out.writeVarInt(cells.size());
    long previous = shareTimestamps && hasLiveness ? row.liveness().timestamp() : NO_TIMESTAMP;
    for (Cell c : cells) {
      writeCell(out, c, shareTimestamps && previous != NO_TIMESTAMP && c.timestamp() == previous);
      previous = shareTimestamps ? c.timestamp() : NO_TIMESTAMP;
    }
  }

  /**
   * As {@link #writeRow(DataWriter, Row, boolean)} for a row read by a cursor: its header
   * here, then each cell by {@link #writeCell(DataWriter, RowCursor, boolean)}; the same bytes.
   */
  public static void writeRowHeader(DataWriter out, byte[] clustering, RowCursor c) {
    boolean hasLiveness = c.hasLiveness();
    boolean hasDeletion = c.hasDeletion();
    out.writeByte((hasLiveness ? ROW_HAS_LIVENESS : 0) | (hasDeletion ? ROW_HAS_DELETION : 0));
    out.writeLengthPrefixed(clustering);
    if (hasLiveness) {
      out.writeLong(c.livenessTimestamp);
      out.writeVarInt(c.livenessTtl);
      if (c.livenessTtl > 0) {
        out.writeLong(c.livenessExpiration);
      }
    }
    if (hasDeletion) {
      out.writeLong(c.deletedAt);
      out.writeLong(c.deletionTime);
    }
    out.writeVarInt(c.cellCount);
  }

  /**
   * The cursor's current cell; {@code sharedTimestamp}: its timestamp is the row's previous
   * one (see {@link #writeRow(DataWriter, Row, boolean)}) and is left out.
   */
  public static void writeCell(DataWriter out, RowCursor c, boolean sharedTimestamp) {
    boolean tombstone = c.isTombstone();
    boolean expiring = c.isExpiring();
    out.writeByte((tombstone ? CELL_TOMBSTONE : 0) | (expiring ? CELL_EXPIRING : 0)
        | (c.hasPath() ? CELL_HAS_PATH : 0) | (sharedTimestamp ? CELL_SHARED_TIMESTAMP : 0));
    byte[] name = c.nameUtf8;
    if (name != null) { // the bytes writeName writes: varint length, UTF-8
      out.writeVarInt(name.length);
      out.writeBytes(name, 0, name.length);
    } else {
      writeName(out, c.columnName());
    }
    if (c.hasPath()) {
      out.writeVarInt(c.pathLength);
      out.writeBytes(c.in, c.pathOffset, c.pathLength);
    }
    if (!sharedTimestamp) {
      out.writeLong(c.timestamp);
    }
    if (expiring) {
      out.writeVarInt(c.ttl);
      out.writeLong(c.localDeletionTime);
    } else if (tombstone) {
      out.writeLong(c.localDeletionTime);
    }
    if (!tombstone) {
      out.writeVarInt(c.valueLength);
      out.writeBytes(c.in, c.valueOffset, c.valueLength);
    }
  }

  public static Row readRow(DataReader in) {
    int flags = in.readByte();
    byte[] clustering = in.readLengthPrefixed(MAX_VALUE_LENGTH);
    return readRowBody(in, flags, clustering);
  }

  /** The rest of a row after its flags byte and clustering have been read. */
  public static Row readRowBody(DataReader in, int flags, byte[] clustering) {
    LivenessInfo liveness = LivenessInfo.EMPTY;
    long previous = NO_TIMESTAMP;
    if ((flags & ROW_HAS_LIVENESS) != 0) {
      long ts = in.readLong();
      int ttl = in.readVarInt();
      liveness = new LivenessInfo(ts, ttl, ttl > 0 ? in.readLong() : Long.MAX_VALUE);
      previous = ts;
    }
    DeletionTime deletion = (flags & ROW_HAS_DELETION) != 0 ? readDeletion(in) : DeletionTime.LIVE;
    int count = in.readVarInt();
    if (count < 0 || count > MAX_VALUE_LENGTH) {
      throw new io.cassette.storage.StorageException("malformed cell count: " + count);
    }
    List<Cell> cells = new ArrayList<>(Math.min(count, 1024));
    for (int i = 0; i < count; i++) {
      Cell c = readCell(in, previous);
      cells.add(c);
      previous = c.timestamp();
    }
    return new Row(clustering, liveness, deletion, cells);
  }

  /** Bytes a varint takes. */
  public static int varIntSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }

  /**
   * A column name as {@link DataWriter#writeString} writes it, without first encoding a copy
   * when it is ASCII, as nearly every name is (a copy per cell was the largest allocation of
   * the commit-log record's encoding and of flushes).
   */
  static void writeName(DataWriter out, String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        out.writeString(s);
        return;
      }
    }
    out.writeVarInt(n);
    for (int i = 0; i < n; i++) {
      out.writeByte(s.charAt(i));
    }
  }

  private static void writeCell(DataWriter out, Cell c, boolean sharedTimestamp) {
    int flags = (c.isTombstone() ? CELL_TOMBSTONE : 0) | (c.isExpiring() ? CELL_EXPIRING : 0)
        | (c.path() != null ? CELL_HAS_PATH : 0) | (sharedTimestamp ? CELL_SHARED_TIMESTAMP : 0);
    out.writeByte(flags);
    writeName(out, c.column());
    if (c.path() != null) {
      out.writeLengthPrefixed(c.path());
    }
    if (!sharedTimestamp) {
      out.writeLong(c.timestamp());
    }
    if (c.isExpiring()) {
      out.writeVarInt(c.ttl());
      out.writeLong(c.localDeletionTime());
    } else if (c.isTombstone()) {
      out.writeLong(c.localDeletionTime());
    }
    if (!c.isTombstone()) {
      out.writeLengthPrefixed(c.value());
    }
  }

  /** A cell; {@code previous}: the row's timestamp before it, or NO_TIMESTAMP. */
  private static Cell readCell(DataReader in, long previous) {
    int flags = in.readByte();
    String column = in.readString();
    byte[] path = (flags & CELL_HAS_PATH) != 0 ? in.readLengthPrefixed(MAX_VALUE_LENGTH) : null;
    long ts;
    if ((flags & CELL_SHARED_TIMESTAMP) != 0) {
      if (previous == NO_TIMESTAMP) {
        throw new StorageException("malformed cell: shares a timestamp with nothing before it");
      }
      ts = previous;
    } else {
      ts = in.readLong();
    }
    int ttl = 0;
    long ldt = Long.MAX_VALUE;
    if ((flags & CELL_EXPIRING) != 0) {
      ttl = in.readVarInt();
      ldt = in.readLong();
    } else if ((flags & CELL_TOMBSTONE) != 0) {
      ldt = in.readLong();
    }
    byte[] value = (flags & CELL_TOMBSTONE) != 0 ? null : in.readLengthPrefixed(MAX_VALUE_LENGTH);
    return new Cell(column, path, value, ts, ttl, ldt);
  }
}
