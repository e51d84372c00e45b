package io.cassette.coordinator.ring;

import java.util.function.Supplier;

/**
 * Group commit for an append-only log (the Paxos log, the batch log): a caller that needs record
 * number {@code n} on disk either finds an fsync done since {@code n} was written, or runs one that
 * covers every record appended so far; the callers that arrive meanwhile wait for it and then
 * mostly return without their own. Appends go on during an fsync: the log's own lock is held only
 * to read what the next fsync covers.
 */
public final class GroupSync {
  /** What one fsync covers: the log's count of records appended, and how to force them to disk. */
  public record Pending(long appended, Runnable force) {}

  private final Object logLock;
  private final Supplier<Pending> pending;
  /** Records known to be on disk (written while this is locked). */
  private volatile long synced;

  /**
   * @param logLock the lock the log appends under
   * @param pending read under {@code logLock}: the records appended so far and their fsync
   */
  public GroupSync(Object logLock, Supplier<Pending> pending) {
    this.logLock = logLock;
    this.pending = pending;
  }

  /** Returns once record number {@code record} is on disk; the force's exceptions pass through. */
  public void syncThrough(long record) {
    synchronized (this) {
      if (synced >= record) {
        return;
      }
      Pending p;
      synchronized (logLock) {
        p = pending.get();
      }
      p.force().run();
      synced = p.appended();
    }
  }

  /**
   * Runs {@code action} under the log's lock with no fsync running (for replacing or closing the
   * file), then counts every record the log reports appended as on disk.
   */
  public void exclusively(Runnable action) {
    synchronized (this) {
      synchronized (logLock) {
        action.run();
        synced = pending.get().appended();
      }
    }
  }

  /** Records known to be on disk. */
  public long synced() {
    return synced;
  }
}
