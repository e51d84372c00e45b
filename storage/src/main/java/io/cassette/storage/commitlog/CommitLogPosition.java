package io.cassette.storage.commitlog;

/**
 * A point in the commit log: a segment id and a byte offset in it. Positions order by
 * segment, then offset; segment ids only grow, across restarts too.
 */
public record CommitLogPosition(long segmentId, long offset) implements Comparable<CommitLogPosition> {
  /** Before every record ever written. */
  public static final CommitLogPosition NONE = new CommitLogPosition(Long.MIN_VALUE, 0);

  @Override
  public int compareTo(CommitLogPosition o) {
    int c = Long.compare(segmentId, o.segmentId);
    return c != 0 ? c : Long.compare(offset, o.offset);
  }

  public static CommitLogPosition max(CommitLogPosition a, CommitLogPosition b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
