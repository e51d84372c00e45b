package io.cassette.storage;

/**
 * When something was deleted: the write timestamp of the deletion (µs, compared with cell
 * timestamps: a deletion shadows data written at or before it) and the local time in seconds
 * at which it was made (used to purge it after {@code gc_grace_seconds}).
 */
public record DeletionTime(long markedForDeleteAt, long localDeletionTime) {
  /** Nothing deleted. */
  public static final DeletionTime LIVE = new DeletionTime(Long.MIN_VALUE, Long.MAX_VALUE);

  public boolean isLive() {
    return markedForDeleteAt == Long.MIN_VALUE;
  }

  /** True if data written at {@code timestamp} is shadowed by this deletion. */
  public boolean deletes(long timestamp) {
    return timestamp <= markedForDeleteAt;
  }

  public DeletionTime supersedes(DeletionTime other) {
    return markedForDeleteAt >= other.markedForDeleteAt ? this : other;
  }
}
