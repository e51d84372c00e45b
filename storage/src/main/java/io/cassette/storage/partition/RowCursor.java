package io.cassette.storage.partition;

/**
 * A row read in place from an encoding of it, one cell at a time, into plain fields: what
 * the SSTable writer takes to write a row without a {@code Row} and its {@code Cell}s (a
 * flush of a memtable's packed rows). A path's or value's bytes stay in {@link #in}, named by
 * offset and length. One cursor per row; not thread-safe.
 */
public abstract class RowCursor {
  public static final int TOMBSTONE = 1;
  public static final int EXPIRING = 2;
  public static final int HAS_PATH = 4;
  /** A timestamp that is none: the liveness timestamp of a row without liveness. */
  public static final long NO_TIMESTAMP = Long.MIN_VALUE;

  /** The bytes paths and values are read from. */
  public byte[] in;
  /** The row's liveness: timestamp {@link #NO_TIMESTAMP} when it has none. */
  public long livenessTimestamp;
  public int livenessTtl;
  public long livenessExpiration;
  /** The row's deletion: markedForDeleteAt {@code Long.MIN_VALUE} (and localDeletionTime max) when live. */
  public long deletedAt;
  public long deletionTime;
  public int cellCount;

  // the current cell, after next() returned true
  /** {@link #TOMBSTONE}, {@link #EXPIRING}, {@link #HAS_PATH}; other bits are the encoding's own. */
  public int flags;
  public int pathOffset = -1;
  public int pathLength;
  public long timestamp;
  public int ttl;
  public long localDeletionTime;
  public int valueOffset = -1;
  public int valueLength;
  /**
   * The current cell's column name as UTF-8 bytes in {@link #in} when the encoding holds it
   * so (an SSTable row); -1 when only {@link #columnName()} gives it.
   */
  public int nameOffset = -1;
  public int nameLength;
  /**
   * Else the current cell's column name as UTF-8 in an array of its own, shared and never
   * changed (a memtable's column dictionary keeps one per name); null when only
   * {@link #columnName()} gives it. Lets a flush write and hash the name with no String work.
   */
  public byte[] nameUtf8;

  /** Moves to the next cell; false after the last. */
  public abstract boolean next();

  /** The current cell's column name. */
  public abstract String columnName();

  public final boolean hasLiveness() {
    return livenessTimestamp != NO_TIMESTAMP;
  }

  public final boolean hasDeletion() {
    return deletedAt != Long.MIN_VALUE; // as DeletionTime.isLive
  }

  public final boolean isTombstone() {
    return (flags & TOMBSTONE) != 0;
  }

  public final boolean isExpiring() {
    return (flags & EXPIRING) != 0;
  }

  public final boolean hasPath() {
    return (flags & HAS_PATH) != 0;
  }
}
