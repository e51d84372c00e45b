package io.cassette.storage.memtable;

import io.cassette.storage.Cell;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.Row;
import java.util.Arrays;
import java.util.List;

/**
 * Merges an update into a packed row ({@link PackedRow}) without decoding it: the result is
 * what {@code PackedRow.encode(Reconcile.row(decode(old), update))} gives, byte for byte, built
 * in two passes over both rows (its size, then its bytes) into one array of exactly that size;
 * when the old row wins everything (a replayed or repeated write) the old array itself. The
 * decode-reconcile-encode path allocated about 1,200 B per stress-row overwrite (a Row, five
 * Cells and their value copies, a merged list, the result); this allocates the result only.
 * The rules are Reconcile's (row, cell, liveness, deletion), restated on the packed fields.
 */
final class PackedRowMerger {
  private PackedRowMerger() {}

  /** {@code old} merged with {@code update} (same clustering; cells sorted as Reconcile sorts them). */
  static byte[] merge(byte[] old, Row update, ColumnDictionary columns, long[] added) {
    long sized = write(null, 0, old, update, columns, added);
    if (sized < 0) {
      return old;
    }
    byte[] out = new byte[(int) sized];
    int written = (int) write(out, (int) (sized >>> 32), old, update, columns, added);
    assert written == out.length : written + " != " + out.length;
    return out;
  }

  /**
   * With {@code out} null: the merged row's size in the lower 32 bits and its cell count in
   * the upper, or -1 when the merge is {@code old} unchanged. Else writes the merged row
   * ({@code cellCount} cells, as the sizing pass counted) into {@code out} and returns the
   * bytes written. Both passes take the same decisions, so they agree.
   */
  private static long write(byte[] out, int cellCount, byte[] old, Row update, ColumnDictionary columns,
                            long[] added) {
    PackedCellCursor o = new PackedCellCursor(old);
    // liveness: Reconcile.liveness(old, update)
    LivenessInfo ul = update.liveness();
    boolean oldLiveness;
    if (o.livenessTimestamp != ul.timestamp()) {
      oldLiveness = o.livenessTimestamp > ul.timestamp();
    } else if ((o.livenessTtl > 0) != (ul.ttl() > 0)) {
      oldLiveness = o.livenessTtl > 0;
    } else {
      oldLiveness = o.livenessExpiration >= ul.localExpirationTime();
    }
    long lts = oldLiveness ? o.livenessTimestamp : ul.timestamp();
    int lttl = oldLiveness ? o.livenessTtl : ul.ttl();
    long lexp = oldLiveness ? o.livenessExpiration : ul.localExpirationTime();
    // deletion: Reconcile.deletion(old, update)
    long uAt = update.deletion().markedForDeleteAt();
    long uLdt = update.deletion().localDeletionTime();
    boolean oldDeletion = o.deletedAt != uAt ? o.deletedAt > uAt : o.deletionTime >= uLdt;
    long dAt = oldDeletion ? o.deletedAt : uAt;
    long dLdt = oldDeletion ? o.deletionTime : uLdt;
    boolean changed = !oldLiveness || !oldDeletion;
    boolean hasLiveness = lts != PackedRow.NO_TIMESTAMP;
    boolean hasDeletion = dAt != Long.MIN_VALUE;

    int p = 1;
    if (out != null) {
      out[0] = (byte) ((hasLiveness ? PackedRow.HAS_LIVENESS : 0) | (hasDeletion ? PackedRow.HAS_DELETION : 0));
    }
    if (hasLiveness) {
      if (out != null) {
        PackedRow.putLong(out, p, lts);
        PackedRow.putVarInt(out, p + 8, lttl);
        if (lttl > 0) {
          PackedRow.putLong(out, p + 8 + PackedRow.varIntSize(lttl), lexp);
        }
      }
      p += 8 + PackedRow.varIntSize(lttl) + (lttl > 0 ? 8 : 0);
    }
    if (hasDeletion) {
      if (out != null) {
        PackedRow.putLong(out, p, dAt);
        PackedRow.putLong(out, p + 8, dLdt);
      }
      p += 16;
    }
    // the count precedes the cells: the sizing pass leaves room for it and adds it at the end
    if (out != null) {
      p = PackedRow.putVarInt(out, p, cellCount);
    }

    List<Cell> cells = update.cells();
    int m = cells.size();
    int j = 0;
    long previous = hasLiveness ? lts : PackedRow.NO_TIMESTAMP;
    boolean oldValid = o.next();
    int n = 0;
    while (oldValid || j < m) {
      Cell u = j < m ? cells.get(j) : null;
      int uId = u == null ? -1 : columns.id(u.column(), added);
      int cmp = !oldValid ? 1 : u == null ? -1 : compareIdentity(o, columns, u, uId);
      boolean takeOld = cmp < 0 || (cmp == 0 && oldWins(o, u));
      long ts = takeOld ? o.timestamp : u.timestamp();
      boolean shared = previous != PackedRow.NO_TIMESTAMP && ts == previous;
      if (takeOld) {
        p = putOld(out, p, o, shared);
      } else {
        p = putUpdate(out, p, u, uId, shared);
        changed = true;
      }
      previous = ts;
      n++;
      if (cmp <= 0) {
        oldValid = o.next();
      }
      if (cmp >= 0) {
        j++;
      }
    }
    if (out != null) {
      return p;
    }
    if (!changed) {
      return -1;
    }
    return ((long) n << 32) | (p + PackedRow.varIntSize(n));
  }

  /** Reconcile.compareCellIdentity(old cell, u): column name, then path (none first, then unsigned bytes). */
  private static int compareIdentity(PackedCellCursor o, ColumnDictionary columns, Cell u, int uId) {
    if (o.column != uId) {
      return columns.name(o.column).compareTo(u.column());
    }
    byte[] path = u.path();
    if (!o.hasPath() || path == null) {
      return !o.hasPath() ? (path == null ? 0 : -1) : 1;
    }
    return Arrays.compareUnsigned(o.in, o.pathOffset, o.pathOffset + o.pathLength, path, 0, path.length);
  }

  /** Reconcile.cell(old cell, u) == old: newer timestamp, then tombstone, deletion time, greater value, later expiry. */
  private static boolean oldWins(PackedCellCursor o, Cell u) {
    if (o.timestamp != u.timestamp()) {
      return o.timestamp > u.timestamp();
    }
    if (o.isTombstone() != u.isTombstone()) {
      return o.isTombstone();
    }
    if (o.isTombstone()) {
      return o.localDeletionTime >= u.localDeletionTime();
    }
    byte[] v = u.value();
    int c = Arrays.compareUnsigned(o.in, o.valueOffset, o.valueOffset + o.valueLength, v, 0, v.length);
    if (c != 0) {
      return c > 0;
    }
    return o.localDeletionTime >= u.localDeletionTime();
  }

  /** The cursor's cell at {@code p} (its size only when {@code out} is null); returns the end. */
  private static int putOld(byte[] out, int p, PackedCellCursor o, boolean shared) {
    boolean expiring = (o.flags & PackedRow.EXPIRING) != 0;
    boolean tombstone = o.isTombstone();
    if (out == null) {
      return p + 1 + PackedRow.varIntSize(o.column)
          + (o.hasPath() ? PackedRow.varIntSize(o.pathLength) + o.pathLength : 0)
          + (shared ? 0 : 8)
          + (expiring ? PackedRow.varIntSize(o.ttl) + 8 : tombstone ? 8 : 0)
          + (tombstone ? 0 : PackedRow.varIntSize(o.valueLength) + o.valueLength);
    }
    out[p++] = (byte) ((o.flags & ~PackedRow.SHARED_TIMESTAMP) | (shared ? PackedRow.SHARED_TIMESTAMP : 0));
    p = PackedRow.putVarInt(out, p, o.column);
    if (o.hasPath()) {
      p = PackedRow.putVarInt(out, p, o.pathLength);
      System.arraycopy(o.in, o.pathOffset, out, p, o.pathLength);
      p += o.pathLength;
    }
    if (!shared) {
      p = PackedRow.putLong(out, p, o.timestamp);
    }
    if (expiring) {
      p = PackedRow.putVarInt(out, p, o.ttl);
      p = PackedRow.putLong(out, p, o.localDeletionTime);
    } else if (tombstone) {
      p = PackedRow.putLong(out, p, o.localDeletionTime);
    }
    if (!tombstone) {
      p = PackedRow.putVarInt(out, p, o.valueLength);
      System.arraycopy(o.in, o.valueOffset, out, p, o.valueLength);
      p += o.valueLength;
    }
    return p;
  }

  /** The update's cell at {@code p}, packed as {@link PackedRow#encode} packs it (its size only when {@code out} is null). */
  private static int putUpdate(byte[] out, int p, Cell c, int column, boolean shared) {
    if (out == null) {
      return p + 1 + PackedRow.varIntSize(column)
          + (c.path() != null ? PackedRow.varIntSize(c.path().length) + c.path().length : 0)
          + (shared ? 0 : 8)
          + (c.isExpiring() ? PackedRow.varIntSize(c.ttl()) + 8 : c.isTombstone() ? 8 : 0)
          + (c.isTombstone() ? 0 : PackedRow.varIntSize(c.value().length) + c.value().length);
    }
    out[p++] = (byte) ((c.isTombstone() ? PackedRow.TOMBSTONE : 0) | (c.isExpiring() ? PackedRow.EXPIRING : 0)
        | (c.path() != null ? PackedRow.HAS_PATH : 0) | (shared ? PackedRow.SHARED_TIMESTAMP : 0));
    p = PackedRow.putVarInt(out, p, column);
    if (c.path() != null) {
      p = PackedRow.putBytes(out, p, c.path());
    }
    if (!shared) {
      p = PackedRow.putLong(out, p, c.timestamp());
    }
    if (c.isExpiring()) {
      p = PackedRow.putVarInt(out, p, c.ttl());
      p = PackedRow.putLong(out, p, c.localDeletionTime());
    } else if (c.isTombstone()) {
      p = PackedRow.putLong(out, p, c.localDeletionTime());
    }
    if (!c.isTombstone()) {
      p = PackedRow.putBytes(out, p, c.value());
    }
    return p;
  }
}
