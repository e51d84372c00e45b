package io.cassette.storage.memtable;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.Row;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A memtable row as one byte array: its liveness, deletion and cells, without its clustering
 * (the partition holds that). A stress row (five 34-byte cells) takes one 216-byte array
 * instead of ~620 bytes of Row, cell list, Cells and value arrays, so a memtable budget holds
 * about twice the rows and flushes half as often (bench/results/2026-12-02-perfstore2.md).
 * In memory only, never on disk or on the wire: the layout may change freely.
 *
 * <pre>
 * row   := flags:u8 [liveness] [deletion] cellCount:varint cell*
 *          flags: 1 has liveness, 2 has deletion
 * liveness := timestamp:i64 ttl:varint [localExpirationTime:i64 if ttl &gt; 0]
 * deletion := markedForDeleteAt:i64 localDeletionTime:i64
 * cell  := flags:u8 column:varint (a {@link ColumnDictionary} number) [path:bytes]
 *          [timestamp:i64 unless flags&amp;8] [ttl:varint localDeletionTime:i64 if expiring]
 *          [localDeletionTime:i64 if tombstone] [value:bytes unless tombstone]
 *          flags: 1 tombstone, 2 expiring, 4 has path, 8 timestamp as the row's previous one
 * bytes := length:varint byte*      (i64 in the platform's order: never leaves the process)
 * </pre>
 *
 * A decoded row is equal ({@code Row}, {@code Cell} records) to the one encoded.
 */
final class PackedRow {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  static final int HAS_LIVENESS = 1;
  static final int HAS_DELETION = 2;
  static final int TOMBSTONE = 1;
  static final int EXPIRING = 2;
  static final int HAS_PATH = 4;
  static final int SHARED_TIMESTAMP = 8;
  static final long NO_TIMESTAMP = Long.MIN_VALUE;

  private PackedRow() {}

  /** Heap bytes of a byte array of {@code length} (16-byte header, 8-byte alignment; compressed oops). */
  static long arrayBytes(int length) {
    return (16L + length + 7) & ~7L;
  }

  /** {@code row} packed; new column names go into {@code columns} ({@code added[0]} grows by their bytes). */
  static byte[] encode(Row row, ColumnDictionary columns, long[] added) {
    List<Cell> cells = row.cells();
    int n = cells.size();
    boolean hasLiveness = !row.liveness().isEmpty();
    boolean hasDeletion = !row.deletion().isLive();
    int size = 1 + varIntSize(n);
    if (hasLiveness) {
      size += 8 + varIntSize(row.liveness().ttl()) + (row.liveness().ttl() > 0 ? 8 : 0);
    }
    if (hasDeletion) {
      size += 16;
    }
    long previous = hasLiveness ? row.liveness().timestamp() : NO_TIMESTAMP;
    for (int i = 0; i < n; i++) {
      Cell c = cells.get(i);
      size += 1 + varIntSize(columns.id(c.column(), added));
      if (c.path() != null) {
        size += varIntSize(c.path().length) + c.path().length;
      }
      if (c.timestamp() != previous || previous == NO_TIMESTAMP) {
        size += 8;
      }
      if (c.isExpiring()) {
        size += varIntSize(c.ttl()) + 8;
      } else if (c.isTombstone()) {
        size += 8;
      }
      if (!c.isTombstone()) {
        size += varIntSize(c.value().length) + c.value().length;
      }
      previous = c.timestamp();
    }
    byte[] out = new byte[size];
    int p = 0;
    out[p++] = (byte) ((hasLiveness ? HAS_LIVENESS : 0) | (hasDeletion ? HAS_DELETION : 0));
    if (hasLiveness) {
      LivenessInfo l = row.liveness();
      p = putLong(out, p, l.timestamp());
      p = putVarInt(out, p, l.ttl());
      if (l.ttl() > 0) {
        p = putLong(out, p, l.localExpirationTime());
      }
    }
    if (hasDeletion) {
      p = putLong(out, p, row.deletion().markedForDeleteAt());
      p = putLong(out, p, row.deletion().localDeletionTime());
    }
    p = putVarInt(out, p, n);
    previous = hasLiveness ? row.liveness().timestamp() : NO_TIMESTAMP;
    for (int i = 0; i < n; i++) {
      Cell c = cells.get(i);
      boolean shared = previous != NO_TIMESTAMP && c.timestamp() == previous;
      out[p++] = (byte) ((c.isTombstone() ? TOMBSTONE : 0) | (c.isExpiring() ? EXPIRING : 0)
          | (c.path() != null ? HAS_PATH : 0) | (shared ? SHARED_TIMESTAMP : 0));
      p = putVarInt(out, p, columns.id(c.column(), added)); // numbered in the first pass: found at once
      if (c.path() != null) {
        p = putBytes(out, p, c.path());
      }
      if (!shared) {
        p = putLong(out, p, c.timestamp());
      }
      if (c.isExpiring()) {
        p = putVarInt(out, p, c.ttl());
        p = putLong(out, p, c.localDeletionTime());
      } else if (c.isTombstone()) {
        p = putLong(out, p, c.localDeletionTime());
      }
      if (!c.isTombstone()) {
        p = putBytes(out, p, c.value());
      }
      previous = c.timestamp();
    }
    assert p == size : p + " != " + size;
    return out;
  }

  /** The row packed in {@code in}, with {@code clustering}. */
  static Row decode(byte[] clustering, byte[] in, ColumnDictionary columns) {
    int[] pos = {0};
    int flags = in[pos[0]++];
    LivenessInfo liveness = LivenessInfo.EMPTY;
    long previous = NO_TIMESTAMP;
    if ((flags & HAS_LIVENESS) != 0) {
      long ts = getLong(in, pos);
      int ttl = getVarInt(in, pos);
      liveness = new LivenessInfo(ts, ttl, ttl > 0 ? getLong(in, pos) : Long.MAX_VALUE);
      previous = ts;
    }
    DeletionTime deletion = DeletionTime.LIVE;
    if ((flags & HAS_DELETION) != 0) {
      long at = getLong(in, pos);
      deletion = new DeletionTime(at, getLong(in, pos));
    }
    int n = getVarInt(in, pos);
    Cell[] cells = new Cell[n];
    for (int i = 0; i < n; i++) {
      int cf = in[pos[0]++];
      String column = columns.name(getVarInt(in, pos));
      byte[] path = (cf & HAS_PATH) != 0 ? getBytes(in, pos) : null;
      long ts = (cf & SHARED_TIMESTAMP) != 0 ? previous : getLong(in, pos);
      int ttl = 0;
      long ldt = Long.MAX_VALUE;
      if ((cf & EXPIRING) != 0) {
        ttl = getVarInt(in, pos);
        ldt = getLong(in, pos);
      } else if ((cf & TOMBSTONE) != 0) {
        ldt = getLong(in, pos);
      }
      byte[] value = (cf & TOMBSTONE) != 0 ? null : getBytes(in, pos);
      cells[i] = new Cell(column, path, value, ts, ttl, ldt);
      previous = ts;
    }
    return new Row(clustering, liveness, deletion, List.of(cells)); // Row keeps List.of's list as is
  }

  static int varIntSize(int v) {
    return v >>> 7 == 0 ? 1 : v >>> 14 == 0 ? 2 : v >>> 21 == 0 ? 3 : v >>> 28 == 0 ? 4 : 5;
  }

  static int putVarInt(byte[] out, int p, int v) {
    while ((v & ~0x7F) != 0) {
      out[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[p++] = (byte) v;
    return p;
  }

  static int getVarInt(byte[] in, int[] pos) {
    int p = pos[0];
    int v = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in[p++];
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        pos[0] = p;
        return v;
      }
    }
  }

  static int putLong(byte[] out, int p, long v) {
    LONG.set(out, p, v);
    return p + 8;
  }

  static long longAt(byte[] in, int p) {
    return (long) LONG.get(in, p);
  }

  static long getLong(byte[] in, int[] pos) {
    long v = (long) LONG.get(in, pos[0]);
    pos[0] += 8;
    return v;
  }

  static int putBytes(byte[] out, int p, byte[] b) {
    p = putVarInt(out, p, b.length);
    System.arraycopy(b, 0, out, p, b.length);
    return p + b.length;
  }

  private static byte[] getBytes(byte[] in, int[] pos) {
    int length = getVarInt(in, pos);
    int p = pos[0];
    byte[] b = java.util.Arrays.copyOfRange(in, p, p + length);
    pos[0] = p + length;
    return b;
  }
}
