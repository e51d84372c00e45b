package io.cassette.storage.partition;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The 128-bit digest of a partition's content that repair's Merkle trees are built from: a
 * MurmurHash3 x64_128 (seed 0) of the partition's fields, fed in this order (all integers
 * little-endian, byte strings length-prefixed by an int):
 *
 * <pre>
 * partition := key:bytes deletion rtCount:int (start:bytes end:bytes inclusive:u8 deletion){rtCount} row*
 * deletion  := 0:u8 (live) | 1:u8 markedForDeleteAt:i64 localDeletionTime:i64
 * row       := 0xAA:u8 clustering:bytes liveness deletion cellCount:int cell{cellCount}
 * liveness  := 0:u8 (none) | 1:u8 timestamp:i64 ttl:int [localExpirationTime:i64 if ttl > 0]
 * cell      := kind:u8 (0 live, 1 expiring, 2 tombstone) column:bytes (path:bytes | -1:int)
 *              timestamp:i64 [ttl:int localDeletionTime:i64 if expiring]
 *              [localDeletionTime:i64 if tombstone] [value:bytes unless tombstone]
 * </pre>
 *
 * Only what a partition means is hashed, never how a file lays it out, so replicas holding the
 * same writes agree whatever their SSTables and formats. Do not change the feed: digests are
 * stored in SSTables' Digest.db, and replicas of different versions must agree on them.
 *
 * <p>What is hashed is the partition as repair's validation sees it at {@code nowInSeconds}
 * ({@link #normalize}, as Cassandra's validation compaction does): without data shadowed by a
 * deletion, expired cells as the tombstones compaction turns them into, and tombstones older
 * than gc grace dropped. A partition without deletions, tombstones or TTLs ({@link #timeless})
 * is its own normal form at every time, so its digest can be computed once when it is written.
 *
 * <p>One instance per thread: it reuses its buffer. Not thread-safe.
 */
public final class PartitionDigest {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int ROW_MARK = 0xAA;

  /** Column names' UTF-8 bytes, so a flush does not encode each cell's name again; bounded. */
  private final java.util.HashMap<String, byte[]> columnNames = new java.util.HashMap<>();
  private static final int MAX_COLUMN_NAMES = 256;
  /** Bytes staged before they are mixed, a multiple of 16. */
  private final byte[] stage = new byte[256];
  private int staged;
  private long h1;
  private long h2;
  private long length;
  private boolean timeless;
  private long high;
  private long low;

  /** Starts a partition's digest. */
  public void begin(byte[] key, DeletionTime deletion, List<RangeTombstone> tombstones) {
    staged = 0;
    h1 = 0;
    h2 = 0;
    length = 0;
    timeless = deletion.isLive() && tombstones.isEmpty();
    putBytes(key);
    putDeletion(deletion);
    putInt(tombstones.size());
    for (RangeTombstone rt : tombstones) {
      putBytes(rt.slice().start());
      putBytes(rt.slice().end());
      putByte((rt.slice().startInclusive() ? 1 : 0) | (rt.slice().endInclusive() ? 2 : 0));
      putDeletion(rt.deletion());
    }
  }

  /** Adds the partition's next row (rows in the partition's order: the static row first, then by clustering). */
  public void row(Row row) {
    putByte(ROW_MARK);
    putBytes(row.clustering());
    LivenessInfo l = row.liveness();
    if (l.isEmpty()) {
      putByte(0);
      if (row.cells().isEmpty()) {
        timeless = false; // a row of nothing: not in a scan's answer
      }
    } else {
      putByte(1);
      putLong(l.timestamp());
      putInt(l.ttl());
      if (l.ttl() > 0) {
        putLong(l.localExpirationTime());
        timeless = false;
      }
    }
    putDeletion(row.deletion());
    if (!row.deletion().isLive()) {
      timeless = false;
    }
    putInt(row.cells().size());
    for (Cell c : row.cells()) {
      int kind = c.isTombstone() ? 2 : c.isExpiring() ? 1 : 0;
      putByte(kind);
      putString(c.column());
      if (c.path() == null) {
        putInt(-1);
      } else {
        putBytes(c.path());
      }
      putLong(c.timestamp());
      if (kind == 1) {
        putInt(c.ttl());
        putLong(c.localDeletionTime());
      } else if (kind == 2) {
        putLong(c.localDeletionTime());
      }
      if (kind != 2) {
        putBytes(c.value());
      } else {
        timeless = false;
      }
      if (kind == 1) {
        timeless = false;
      }
    }
  }

  /**
   * As {@link #row(Row)} for a row read by a cursor: its header here, then each cell by
   * {@link #cell(RowCursor)} as the cursor reaches it (the same bytes are fed).
   */
  public void rowHeader(byte[] clustering, RowCursor c) {
    putByte(ROW_MARK);
    putBytes(clustering);
    if (!c.hasLiveness()) {
      putByte(0);
      if (c.cellCount == 0) {
        timeless = false; // a row of nothing: not in a scan's answer
      }
    } else {
      putByte(1);
      putLong(c.livenessTimestamp);
      putInt(c.livenessTtl);
      if (c.livenessTtl > 0) {
        putLong(c.livenessExpiration);
        timeless = false;
      }
    }
    if (c.hasDeletion()) {
      putByte(1);
      putLong(c.deletedAt);
      putLong(c.deletionTime);
      timeless = false;
    } else {
      putByte(0);
    }
    putInt(c.cellCount);
  }

  /** The cursor's current cell; see {@link #rowHeader}. */
  public void cell(RowCursor c) {
    int kind = c.isTombstone() ? 2 : c.isExpiring() ? 1 : 0;
    putByte(kind);
    if (c.nameOffset >= 0) {
      putInt(c.nameLength); // the same bytes as putString's: the name's UTF-8
      putRaw(c.in, c.nameOffset, c.nameLength);
    } else if (c.nameUtf8 != null) {
      putBytes(c.nameUtf8); // likewise
    } else {
      putString(c.columnName());
    }
    if (c.hasPath()) {
      putInt(c.pathLength);
      putRaw(c.in, c.pathOffset, c.pathLength);
    } else {
      putInt(-1);
    }
    putLong(c.timestamp);
    if (kind == 1) {
      putInt(c.ttl);
      putLong(c.localDeletionTime);
      timeless = false;
    } else if (kind == 2) {
      putLong(c.localDeletionTime);
      timeless = false;
    }
    if (kind != 2) {
      putInt(c.valueLength);
      putRaw(c.in, c.valueOffset, c.valueLength);
    }
  }

  /** Ends the partition: {@link #high()} and {@link #low()} hold its digest. */
  public void end() {
    int full = staged & ~15;
    mix(stage, 0, full);
    long k1 = 0;
    long k2 = 0;
    int tail = staged - full;
    for (int i = tail - 1; i >= 8; i--) {
      k2 = (k2 << 8) | (stage[full + i] & 0xFFL);
    }
    for (int i = Math.min(tail, 8) - 1; i >= 0; i--) {
      k1 = (k1 << 8) | (stage[full + i] & 0xFFL);
    }
    if (tail > 8) {
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
    }
    if (tail > 0) {
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
    }
    length += staged;
    staged = 0;
    long a = h1 ^ length;
    long b = h2 ^ length;
    a += b;
    b += a;
    a = fmix(a);
    b = fmix(b);
    a += b;
    b += a;
    high = a;
    low = b;
  }

  public long high() {
    return high;
  }

  public long low() {
    return low;
  }

  /**
   * True when the partition fed since {@link #begin} has no deletion, tombstone, TTL or empty
   * row: its digest is then the same at any validation time, and may be stored.
   */
  public boolean timeless() {
    return timeless;
  }

  /**
   * Digests {@code u} as repair sees it at {@code nowInSeconds} ({@link #normalize}); false
   * (and no digest) when nothing of it is left.
   * REQUIRES: {@code u} as {@code Table.scanUnfiltered}/{@code readUnfiltered} read it.
   */
  public boolean digest(PartitionUpdate u, long nowInSeconds, long gcBefore) {
    PartitionUpdate n = normalize(u, nowInSeconds, gcBefore);
    if (n == null) {
      return false;
    }
    begin(n.key(), n.partitionDeletion(), n.rangeTombstones());
    for (Row r : n.rows()) {
      row(r);
    }
    end();
    return true;
  }

  /**
   * The partition as validation hashes it, Cassandra's validation compaction's view: an
   * unfiltered read (shadowed data already dropped), where an expired cell becomes the
   * tombstone compaction turns it into (local deletion time = expiry - ttl, so gc grace counts
   * from the write), and every tombstone, deletion and expired row marker whose local time is
   * before {@code gcBefore} (now - gc_grace_seconds) is dropped, as is a row left empty. Null when
   * nothing is left. Replicas that compacted differently thus agree: compaction makes the same
   * conversions, and purges a subset of what is dropped here. {@code u} itself when unchanged.
   */
  public static PartitionUpdate normalize(PartitionUpdate u, long nowInSeconds, long gcBefore) {
    boolean changed = false;
    DeletionTime pd = u.partitionDeletion();
    if (!pd.isLive() && pd.localDeletionTime() < gcBefore) {
      pd = DeletionTime.LIVE;
      changed = true;
    }
    List<RangeTombstone> rts = u.rangeTombstones();
    for (RangeTombstone rt : rts) {
      if (rt.deletion().localDeletionTime() < gcBefore) {
        changed = true;
        break;
      }
    }
    if (changed && !rts.isEmpty()) {
      List<RangeTombstone> kept = new ArrayList<>(rts.size());
      for (RangeTombstone rt : rts) {
        if (rt.deletion().localDeletionTime() >= gcBefore) {
          kept.add(rt);
        }
      }
      rts = kept;
    }
    List<Row> rows = new ArrayList<>(u.rows().size());
    for (Row r : u.rows()) {
      Row n = normalize(r, nowInSeconds, gcBefore);
      if (n != r) {
        changed = true;
      }
      if (n != null) {
        rows.add(n);
      }
    }
    if (!changed) {
      return u;
    }
    if (pd.isLive() && rts.isEmpty() && rows.isEmpty()) {
      return null;
    }
    return new PartitionUpdate(u.keyspace(), u.table(), u.key(), pd, rts, rows);
  }

  private static Row normalize(Row r, long nowInSeconds, long gcBefore) {
    boolean changed = false;
    DeletionTime d = r.deletion();
    if (!d.isLive() && d.localDeletionTime() < gcBefore) {
      d = DeletionTime.LIVE;
      changed = true;
    }
    LivenessInfo l = r.liveness();
    if (!l.isEmpty() && l.ttl() > 0 && l.localExpirationTime() <= nowInSeconds
        && l.localExpirationTime() - l.ttl() < gcBefore) {
      l = LivenessInfo.EMPTY;
      changed = true;
    }
    List<Cell> cells = r.cells();
    for (Cell c : cells) {
      if (c.isExpiring() && c.localDeletionTime() <= nowInSeconds || c.isTombstone() && c.localDeletionTime() < gcBefore) {
        changed = true;
        break;
      }
    }
    if (changed) {
      List<Cell> kept = new ArrayList<>(cells.size());
      for (Cell c : cells) {
        if (c.isExpiring() && c.localDeletionTime() <= nowInSeconds) {
          c = new Cell(c.column(), c.path(), null, c.timestamp(), 0, c.localDeletionTime() - c.ttl());
        }
        if (c.isTombstone() && c.localDeletionTime() < gcBefore) {
          continue;
        }
        kept.add(c);
      }
      cells = kept;
    }
    if (l.isEmpty() && d.isLive() && cells.isEmpty()) {
      return null;
    }
    return changed ? new Row(r.clustering(), l, d, cells) : r;
  }

  // ------------------------------------------------------------------ feeding the hash

  private void putDeletion(DeletionTime d) {
    if (d.isLive()) {
      putByte(0);
    } else {
      putByte(1);
      putLong(d.markedForDeleteAt());
      putLong(d.localDeletionTime());
    }
  }

  private void putString(String s) {
    byte[] b = columnNames.get(s);
    if (b == null) {
      if (columnNames.size() >= MAX_COLUMN_NAMES) {
        columnNames.clear();
      }
      b = s.getBytes(StandardCharsets.UTF_8);
      columnNames.put(s, b);
    }
    putBytes(b);
  }

  private void putBytes(byte[] b) {
    putInt(b.length);
    putRaw(b, 0, b.length);
  }

  private void putByte(int b) {
    if (staged == stage.length) {
      flushStage();
    }
    stage[staged++] = (byte) b;
  }

  private void putInt(int v) {
    if (staged + 4 > stage.length) {
      flushStage();
    }
    stage[staged] = (byte) v;
    stage[staged + 1] = (byte) (v >>> 8);
    stage[staged + 2] = (byte) (v >>> 16);
    stage[staged + 3] = (byte) (v >>> 24);
    staged += 4;
  }

  private void putLong(long v) {
    if (staged + 8 > stage.length) {
      flushStage();
    }
    LONG_LE.set(stage, staged, v);
    staged += 8;
  }

  /** Large values are mixed straight from their array, 16 bytes at a time, once the stage is aligned. */
  private void putRaw(byte[] b, int offset, int count) {
    if (count <= stage.length - staged) {
      System.arraycopy(b, offset, stage, staged, count);
      staged += count;
      return;
    }
    int fill = (16 - (staged & 15)) & 15;
    System.arraycopy(b, offset, stage, staged, fill);
    staged += fill;
    offset += fill;
    count -= fill;
    flushStage();
    int blocks = count & ~15;
    mix(b, offset, blocks);
    length += blocks;
    System.arraycopy(b, offset + blocks, stage, 0, count - blocks);
    staged = count - blocks;
  }

  /** Mixes the whole 16-byte blocks of the stage; keeps the rest staged. */
  private void flushStage() {
    int full = staged & ~15;
    mix(stage, 0, full);
    length += full;
    System.arraycopy(stage, full, stage, 0, staged - full);
    staged -= full;
  }

  /** MurmurHash3 x64_128's body over {@code count} (a multiple of 16) bytes. */
  private void mix(byte[] b, int offset, int count) {
    long a = h1;
    long c = h2;
    for (int i = offset, end = offset + count; i < end; i += 16) {
      long k1 = (long) LONG_LE.get(b, i);
      long k2 = (long) LONG_LE.get(b, i + 8);
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      a ^= k1;
      a = Long.rotateLeft(a, 27);
      a += c;
      a = a * 5 + 0x52dce729;
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      c ^= k2;
      c = Long.rotateLeft(c, 31);
      c += a;
      c = c * 5 + 0x38495ab5;
    }
    h1 = a;
    h2 = c;
  }

  private static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb93fe53ae53bL;
    k ^= k >>> 33;
    return k;
  }
}
