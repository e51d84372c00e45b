package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Replies that acknowledge several writes at once. A periodic-mode commit log hands each record
 * to the OS before its write returns, so that a process crash loses nothing acknowledged; that
 * is one system call per write. A front door can instead hand a group of writes to the OS in
 * one call, before any reply to them leaves, as Redis writes its AOF buffer once per event-loop
 * pass before it sends the replies:
 * <ul>
 *   <li>a batch on one thread ({@link #open}, {@link #flush}, {@link #close}): the Redis door
 *       drains a client's pipeline in one; it flushes before each write of replies;
 *   <li>threads whose every answer leaves through a door's socket flush
 *       ({@link #deferOnThisThread}: the CQL door's workers): their writes are handed over by the
 *       next {@link #beforeReplies} of any thread, which that door calls on every flush.
 * </ul>
 * Writes on any other thread are written at once.
 */
public final class AckBatch {
  private static final ThreadLocal<AckBatch> CURRENT = new ThreadLocal<>();
  /** Open logs that {@link #deferOnThisThread} threads wrote to (nearly always one). */
  private static final Set<CommitLog> LOGS = ConcurrentHashMap.newKeySet();

  /** For the life of the thread (no {@link #close}): its writes wait for {@link #beforeReplies}. */
  private final boolean untilReplies;
  /** Logs with records of this thread's batch not yet handed to the OS (nearly always one). */
  private final List<CommitLog> pending = new ArrayList<>(1);

  private AckBatch(boolean untilReplies) {
    this.untilReplies = untilReplies;
  }

  /** Opens this thread's batch (a no-op if one is open). */
  public static void open() {
    if (CURRENT.get() == null) {
      CURRENT.set(new AckBatch(false));
    }
  }

  /**
   * Hands what this thread's batch wrote to the OS; call it before sending any reply to a
   * request of the batch. Cheap when nothing is pending. Failures are the log's: it refuses
   * later writes until it can write again, as for a write outside a batch.
   */
  public static void flush() {
    AckBatch b = CURRENT.get();
    if (b != null) {
      b.writeOut();
    }
  }

  /** Flushes and closes this thread's batch. */
  public static void close() {
    AckBatch b = CURRENT.get();
    if (b != null && !b.untilReplies) {
      CURRENT.remove();
      b.writeOut();
    }
  }

  /**
   * Marks the calling thread, for its whole life, as one whose answers to clients all leave
   * through socket flushes that call {@link #beforeReplies} first: its periodic-mode writes are
   * handed to the OS then, together with the other such threads' writes.
   */
  public static void deferOnThisThread() {
    CURRENT.set(new AckBatch(true));
  }

  /**
   * Hands to the OS every record written by {@link #deferOnThisThread} threads so far; returns
   * once they are there, also when another thread is writing them out at this moment.
   */
  public static void beforeReplies() {
    for (CommitLog log : LOGS) {
      if (log.unwrittenForReplies()) { // cleared only once the write that covers them returned
        log.writeOutAcknowledged();
      }
    }
  }

  /** For the commit log as it closes. */
  public static void forget(CommitLog log) {
    LOGS.remove(log);
  }

  /**
   * For the commit log, after appending a periodic-mode record: true if this thread's batch takes
   * over handing {@code log}'s records to the OS; false if the caller must write them out now.
   */
  public static boolean defer(CommitLog log) {
    AckBatch b = CURRENT.get();
    if (b == null) {
      return false;
    }
    if (b.untilReplies) {
      if (!log.unwrittenForReplies()) {
        LOGS.add(log);
        log.markUnwrittenForReplies();
      }
    } else if (!b.pending.contains(log)) {
      b.pending.add(log);
    }
    return true;
  }

  private void writeOut() {
    for (int i = 0; i < pending.size(); i++) {
      pending.get(i).writeOutAcknowledged();
    }
    pending.clear();
  }
}
