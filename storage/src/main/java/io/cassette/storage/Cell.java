package io.cassette.storage;

import java.util.Arrays;

/**
 * One timestamped value of one column in a row; last write wins by {@code timestamp} (µs).
 *
 * <p>Three kinds: a live cell ({@code value != null}, {@code ttl == 0}); an expiring cell
 * ({@code ttl > 0}, dead from {@code localDeletionTime} seconds on); a tombstone
 * ({@code value == null}, {@code localDeletionTime} = when it was deleted, for purging).
 * {@code path} is non-null for an element of a non-frozen collection (list position, set
 * element, map key, UDT field) and orders elements inside the column by unsigned bytes.
 *
 * <p>Equal timestamps resolve as in Cassandra: a tombstone wins, then the greater value.
 */
public record Cell(String column, byte[] path, byte[] value, long timestamp, int ttl,
                   long localDeletionTime) {

  public static Cell live(String column, byte[] value, long timestamp) {
    return new Cell(column, null, value, timestamp, 0, Long.MAX_VALUE);
  }

  public static Cell expiring(String column, byte[] value, long timestamp, int ttl,
                              long nowInSeconds) {
    return new Cell(column, null, value, timestamp, ttl, nowInSeconds + ttl);
  }

  public static Cell tombstone(String column, long timestamp, long nowInSeconds) {
    return new Cell(column, null, null, timestamp, 0, nowInSeconds);
  }

  public Cell withPath(byte[] elementPath) {
    return new Cell(column, elementPath, value, timestamp, ttl, localDeletionTime);
  }

  public boolean isTombstone() {
    return value == null;
  }

  public boolean isExpiring() {
    return value != null && ttl > 0;
  }

  /** Live at {@code nowInSeconds}: not a tombstone and not expired. */
  public boolean isLive(long nowInSeconds) {
    return value != null && (ttl == 0 || nowInSeconds < localDeletionTime);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cell c && column.equals(c.column) && Arrays.equals(path, c.path)
        && Arrays.equals(value, c.value) && timestamp == c.timestamp && ttl == c.ttl
        && localDeletionTime == c.localDeletionTime;
  }

  @Override
  public int hashCode() {
    return column.hashCode() * 31 + Arrays.hashCode(path) * 17 + Long.hashCode(timestamp);
  }

  @Override
  public String toString() {
    return "Cell[" + column + (path == null ? "" : Bytes.hex(path)) + "="
        + (value == null ? "tombstone" : Bytes.hex(value)) + "@" + timestamp
        + (ttl > 0 ? " ttl=" + ttl : "") + "]";
  }
}
