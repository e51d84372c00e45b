package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLog;
import java.util.ArrayList;
import java.util.List;

/**
 * One thread's batch of replies. A periodic-mode commit log hands each record to the OS before
 * its write returns, so that a process crash loses nothing acknowledged; that is one system call
 * per write. A front door that answers many requests at once (a Redis pipeline drained in one
 * pass) opens a batch around them: the writes this thread makes meanwhile leave their records
 * in the log's buffer, and {@link #flush()}, which the door calls before any reply leaves,
 * hands them to the OS in one call, as Redis writes its AOF buffer once per event-loop pass
 * before it sends the replies. Writes on other threads, and on this one outside a batch, are
 * written at once. Not nested; not shared between threads.
 */
public final class AckBatch {
  private static final ThreadLocal<AckBatch> CURRENT = new ThreadLocal<>();

  /** Logs with records of this batch not yet handed to the OS (nearly always one). */
  private final List<CommitLog> pending = new ArrayList<>(1);

  private AckBatch() {}

  /** Opens this thread's batch (a no-op if one is open). */
  public static void open() {
    if (CURRENT.get() == null) {
      CURRENT.set(new AckBatch());
    }
  }

  /**
   * Hands what this thread's batch wrote to the OS; call it before sending any reply to a
   * request of the batch. Cheap when nothing is pending. Failures are the log's: it refuses
   * later writes until it can write again, as for an unbatched write.
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
    if (b != null) {
      CURRENT.remove();
      b.writeOut();
    }
  }

  /**
   * For the commit log: true if a batch is open on this thread, which then takes over handing
   * {@code log}'s records to the OS; false if the caller must write them out itself now.
   */
  public static boolean defer(CommitLog log) {
    AckBatch b = CURRENT.get();
    if (b == null) {
      return false;
    }
    if (!b.pending.contains(log)) {
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
