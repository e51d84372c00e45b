package io.cassette.storage;

/**
 * What the reads made on this thread met, as Cassandra reports it in traces ("Merged data from
 * memtables and N sstables", "Read N live rows and M tombstone cells") and checks against
 * {@code tombstone_warn_threshold} / {@code tombstone_failure_threshold}: tombstones are deleted
 * or expired cells and row deletions seen while building the live view.
 *
 * <p>Per thread: a caller opens it ({@link #start}) around the reads it wants counted, on the
 * thread that iterates them. Nothing is counted when none is open.
 */
public final class ReadStats {
  private static final ThreadLocal<ReadStats> CURRENT = new ThreadLocal<>();

  private long tombstones;
  private int sstables;

  private ReadStats() {}

  /** Opens a count on this thread, replacing any open one. */
  public static ReadStats start() {
    ReadStats s = new ReadStats();
    CURRENT.set(s);
    return s;
  }

  /** Closes the count of this thread. */
  public static void stop() {
    CURRENT.remove();
  }

  /** The count open on this thread, or null. */
  public static ReadStats current() {
    return CURRENT.get();
  }

  /** Reopens {@code outer} after a nested count, adding what the nested one saw. */
  public static void restore(ReadStats outer, ReadStats nested) {
    outer.tombstones += nested.tombstones;
    outer.sstables += nested.sstables;
    CURRENT.set(outer);
  }

  /** Tombstones met since {@link #start} or the last {@link #reset}. */
  public long tombstones() {
    return tombstones;
  }

  /** SSTables merged into partitions read since {@link #start} or the last {@link #reset}. */
  public int sstables() {
    return sstables;
  }

  public void reset() {
    tombstones = 0;
    sstables = 0;
  }

  /** From the partition reader. */
  public static void countTombstones(int n) {
    ReadStats s = CURRENT.get();
    if (s != null) {
      s.tombstones += n;
    }
  }

  /** From the partition reader: {@code n} SSTables contributed to a partition. */
  public static void countSstables(int n) {
    ReadStats s = CURRENT.get();
    if (s != null) {
      s.sstables += n;
    }
  }
}
