package io.cassette.storage.commitlog;

import io.cassette.storage.CommitLogSync;
import io.cassette.storage.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: every mutation is appended here as one checksummed record before it
 * reaches a memtable.
 *
 * <p>Writers append under one short lock (a positional write to the page cache, no fsync).
 * A single sync thread fsyncs outside that lock: in {@code PERIODIC} mode every sync period
 * or as soon as half the backlog bound is unsynced; in {@code BATCH} mode whenever records
 * are waiting, so all writers that arrived during one fsync share the next (group commit).
 * A periodic writer waits only when the unsynced backlog exceeds its bound, i.e. when an
 * fsync has stalled for long: back-pressure instead of unbounded memory. Thread-safe.
 */
public final class CommitLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);
  /** While the log cannot write, how often the sync thread tries again (and tests for space). */
  static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  private final Path directory;
  /** Changed live by {@link #setSync}; read under {@code lock} except by the loop's wait. */
  private volatile CommitLogSync mode;
  private volatile long syncPeriodNanos;
  private final long segmentBytes;
  private final long backlogBytes;

  private final Object lock = new Object();
  /** Every segment on disk, oldest first (replayed ones, sealed ones, the current one). */
  private final List<CommitLogSegment> segments = new CopyOnWriteArrayList<>();
  /** Sealed segments whose tail has not been fsynced yet; guarded by lock. */
  private final List<CommitLogSegment> sealedUnsynced = new ArrayList<>();
  private CommitLogSegment current; // guarded by lock
  private long nextSegmentId; // guarded by lock
  private long writtenBytes; // guarded by lock: total appended since open
  private long syncedBytes; // guarded by lock: total known durable
  private long lastSyncNanos = System.nanoTime(); // guarded by lock
  private boolean closed; // guarded by lock
  /** Why writes are refused; null while the log writes. Guarded by lock. */
  private StorageException writeFailure;
  /** Batch-mode writers waiting for their fsync, oldest first; guarded by lock. */
  private final java.util.ArrayDeque<BatchWaiter> batchWaiters = new java.util.ArrayDeque<>();
  /** Counts batch rollbacks, so that an fsync that raced with one is not taken as success. Guarded by lock. */
  private long rollbacks;
  private final AtomicLong failures = new AtomicLong();
  private final CommitLogReserve reserve;
  private final Thread syncThread;

  private final AtomicLong syncCount = new AtomicLong();
  private final AtomicLong syncMicrosTotal = new AtomicLong();
  private final AtomicLong syncMicrosMax = new AtomicLong();
  /** Told of each completed fsync; see {@link #onSync}. */
  private volatile SyncObserver syncObserver = (micros, segment) -> { };

  /** Receives each completed fsync's duration and the last segment it covered. */
  @FunctionalInterface
  public interface SyncObserver {
    void synced(long micros, String segment);
  }
  private final AtomicLong backPressureWaits = new AtomicLong();
  private final AtomicLong backPressureMicros = new AtomicLong();
  private final AtomicLong bytesAppended = new AtomicLong();

  private CommitLog(Path directory, CommitLogSync mode, long syncPeriodNanos, long segmentBytes,
                    long backlogBytes, List<CommitLogSegment> existing, long firstNewId) {
    this.directory = directory;
    this.mode = mode;
    this.syncPeriodNanos = Math.max(1, syncPeriodNanos);
    this.segmentBytes = segmentBytes;
    this.backlogBytes = Math.max(backlogBytes, 64 * 1024);
    this.segments.addAll(existing);
    this.nextSegmentId = firstNewId;
    this.current = CommitLogSegment.create(directory, nextSegmentId++);
    segments.add(current);
    this.reserve = new CommitLogReserve(directory);
    if (!reserve.ensure()) {
      // Without it a disk that fills could take acknowledged records with it: refuse until there is room.
      writeFailure = new StorageException("no room for the commit log's reserve",
          new IOException("No space left on device"));
      LOG.error("commit log: no room for its {} KiB reserve in {}; writes are refused until there is",
          CommitLogReserve.BYTES / 1024, directory);
    }
    io.cassette.storage.io.FileSync.syncDirectory(directory);
    this.syncThread = new Thread(this::syncLoop, "commitlog-sync");
    syncThread.setDaemon(true);
    syncThread.start();
  }

  /**
   * Opens the commit log in {@code directory}: existing segments are kept (for replay, see
   * {@link #replayableSegments()}) and a new segment is started whose id is greater than
   * every existing id and than {@code minimumNextId}.
   */
  public static CommitLog open(Path directory, CommitLogSync mode, long syncPeriodNanos, long segmentBytes,
                               long backlogBytes, long minimumNextId) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new StorageException("cannot create commit-log directory " + directory + ": " + e, e);
    }
    List<CommitLogSegment> existing = new ArrayList<>();
    long maxId = Math.max(minimumNextId - 1, System.currentTimeMillis());
    try (Stream<Path> files = Files.list(directory)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String name = p.getFileName().toString();
        long id = CommitLogDescriptor.segmentId(name);
        if (id < 0) {
          continue;
        }
        int version = CommitLogDescriptor.version(name);
        if (version > CommitLogDescriptor.VERSION) {
          throw new StorageException("commit-log segment " + p + " has format version " + version
              + " (expected: <= " + CommitLogDescriptor.VERSION + "); written by a newer Cassette");
        }
        existing.add(CommitLogSegment.existing(id, p, Files.size(p)));
        maxId = Math.max(maxId, id);
      }
    } catch (IOException e) {
      throw new StorageException("cannot list commit-log directory " + directory + ": " + e, e);
    }
    existing.sort((a, b) -> Long.compare(a.id(), b.id()));
    return new CommitLog(directory, mode, syncPeriodNanos, segmentBytes, backlogBytes, existing, maxId + 1);
  }

  /** Segments that existed when the log was opened, oldest first, to be replayed. */
  public List<CommitLogSegment> replayableSegments() {
    List<CommitLogSegment> out = new ArrayList<>();
    synchronized (lock) {
      for (CommitLogSegment s : segments) {
        if (s.id() < current.id() && s.isSealed() && !sealedUnsynced.contains(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /**
   * Appends one record. Requires: {@code record[0, length)} framed by {@link #frame}. In batch
   * mode returns only once it is fsynced. (It returned the position past the record, which no
   * caller used: an object per write.)
   *
   * <p>Throws {@link StorageException} without the record having been appended (or, in batch
   * mode, with it cut from the file again) while the log cannot write: a record is either in
   * the buffer that the next successful write and fsync cover, or refused.
   */
  public void append(byte[] record, int length, Collection<UUID> tables) {
    synchronized (lock) {
      checkOpen();
      checkWritable();
      if (mode == CommitLogSync.PERIODIC && writtenBytes - syncedBytes > backlogBytes) {
        waitForBacklog();
        checkWritable();
      }
      try {
        if (current.isSealed()
            || (current.length() + length > segmentBytes && current.length() > CommitLogDescriptor.HEADER_SIZE)) {
          roll();
        }
        current.append(record, length);
      } catch (StorageException e) {
        failed(e);
        throw refusal();
      }
      if (mode == CommitLogSync.PERIODIC) {
        current.acknowledged();
        // Acknowledged means handed to the OS: a process crash (kill -9, the OOM killer) then
        // loses nothing, as with Cassandra's mapped segments and Redis's write before its reply;
        // only a power loss may take the unsynced period. A record left buffered by a failed
        // write is written by the sync thread's retries (or into the reserve's space). A door
        // answering a batch of requests writes them out once, before its replies (AckBatch).
        if (!io.cassette.storage.AckBatch.defer(this)) {
          writeOutQuietly();
        }
      }
      if (tables instanceof List<UUID> list) {
        for (int i = 0; i < list.size(); i++) { // indexed: no iterator per write
          current.markDirty(list.get(i));
        }
      } else {
        for (UUID t : tables) {
          current.markDirty(t);
        }
      }
      writtenBytes += length;
      bytesAppended.addAndGet(length);
      if (mode == CommitLogSync.BATCH || writtenBytes - syncedBytes > backlogBytes / 2) {
        lock.notifyAll();
      }
      if (mode == CommitLogSync.BATCH) {
        BatchWaiter waiter = new BatchWaiter(writtenBytes);
        batchWaiters.add(waiter);
        awaitBatch(waiter);
      }
    }
  }

  /** A batch-mode writer waiting for the fsync that covers its record, or for its failure. */
  private static final class BatchWaiter {
    final long target;
    StorageException failure; // guarded by lock

    BatchWaiter(long target) {
      this.target = target;
    }
  }

  /**
   * Hands every record appended so far to the OS (no fsync), for {@link io.cassette.storage.AckBatch}:
   * a periodic-mode writer in a batch acknowledges only after this.
   */
  public void writeOutAcknowledged() {
    synchronized (lock) {
      if (!closed && current.hasBuffered()) {
        writeOutQuietly();
      }
    }
  }

  private void waitForBacklog() {
    long t0 = System.nanoTime();
    backPressureWaits.incrementAndGet();
    writeOutQuietly(); // what was acknowledged reaches the OS even while fsync is stuck
    lock.notifyAll();
    try {
      while (writtenBytes - syncedBytes > backlogBytes && !closed && writeFailure == null) {
        lock.wait(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for the commit-log backlog to drain");
    } finally {
      backPressureMicros.addAndGet((System.nanoTime() - t0) / 1000);
    }
    checkOpen();
  }

  /** Requires: lock held. */
  private void awaitBatch(BatchWaiter waiter) {
    try {
      while (true) {
        if (waiter.failure != null) {
          throw new StorageException(waiter.failure.getMessage(), waiter.failure);
        }
        if (syncedBytes >= waiter.target) {
          return;
        }
        if (closed && !syncThread.isAlive()) {
          throw new StorageException("commit log closed before the write was synced");
        }
        lock.wait(100);
      }
    } catch (InterruptedException e) {
      // The record may still be synced: the write's outcome is unknown, as after a timeout.
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for commit-log fsync");
    }
  }

  /** Requires: lock held. Waits until everything up to {@code target} is fsynced (periodic callers). */
  private void awaitSynced(long target) {
    try {
      while (syncedBytes < target) {
        if (writeFailure != null) {
          throw refusal();
        }
        if (closed && !syncThread.isAlive()) {
          throw new StorageException("commit log closed before the write was synced");
        }
        lock.wait(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for commit-log fsync");
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new StorageException("commit log is closed");
    }
  }

  /** Requires: lock held. Refuses a write while the log cannot write. */
  private void checkWritable() {
    if (writeFailure != null) {
      throw refusal();
    }
  }

  /** Requires: lock held, writeFailure set. What a refused writer is told (no paths: it goes to clients). */
  private StorageException refusal() {
    return new StorageException("write refused: the commit log cannot write (" + reason(writeFailure)
        + "); writes resume when it can", writeFailure);
  }

  /** The operating system's words for a failure (e.g. "No space left on device"), without file names. */
  static String reason(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof IOException && t.getMessage() != null) {
        String m = t.getMessage();
        int colon = m.lastIndexOf(": ");
        return t instanceof java.nio.file.FileSystemException && colon >= 0 ? m.substring(colon + 2) : m;
      }
    }
    return failure == null || failure.getMessage() == null ? "I/O error" : failure.getMessage();
  }

  /**
   * Requires: lock held. A write or fsync failed: from now on writes are refused until a
   * sync succeeds and the reserve is back. Periodic mode keeps the buffered (acknowledged)
   * records and writes them into the reserve's space; batch mode cuts every record not yet
   * fsynced from the files and then tells its writers they failed, so none is ever replayed.
   */
  private void failed(StorageException e) {
    if (writeFailure == null) {
      LOG.error("commit log cannot write; refusing writes until it can", e);
    }
    writeFailure = e;
    failures.incrementAndGet();
    lastSyncNanos = System.nanoTime();
    if (mode == CommitLogSync.BATCH) {
      rollBack(e);
    } else if (current.hasBuffered() && reserve.release()) {
      try {
        current.writeOut();
      } catch (StorageException again) {
        LOG.error("commit log: acknowledged records could not be written even into the reserve's space; "
            + "they are written when space returns (a crash before then loses them)", again);
      }
    }
    lock.notifyAll();
  }

  /** Requires: lock held, batch mode. See {@link #failed}. */
  private void rollBack(StorageException cause) {
    rollbacks++;
    StorageException answer = new StorageException("commit log not synced (" + reason(cause)
        + "); the write was not applied", cause);
    List<CommitLogSegment> pending = new ArrayList<>(sealedUnsynced);
    pending.add(current);
    try {
      for (CommitLogSegment s : pending) {
        s.rollBackToSynced();
        s.close();
      }
    } catch (StorageException cut) {
      LOG.error("commit log: records not synced could not be cut from the file", cut);
      answer = new StorageException("commit log failed (" + reason(cause)
          + "); the write may or may not have been applied", cut);
    }
    sealedUnsynced.clear();
    for (BatchWaiter w : batchWaiters) {
      w.failure = answer;
    }
    batchWaiters.clear();
  }

  /**
   * Requires: lock held. Starts the next segment and seals the current one (unless a
   * rollback sealed it already). Throws leaving the current segment as it was.
   */
  private void roll() {
    CommitLogSegment next = CommitLogSegment.create(directory, nextSegmentId++);
    CommitLogSegment old = current;
    if (!old.isSealed()) {
      try {
        old.seal();
      } catch (StorageException e) {
        next.delete();
        throw e;
      }
      old.sealedAtTarget = writtenBytes;
      sealedUnsynced.add(old);
    }
    current = next;
    segments.add(current);
  }

  /** Position just past the last appended record. */
  public CommitLogPosition currentPosition() {
    synchronized (lock) {
      return current.end();
    }
  }

  /**
   * Switches between periodic and batch mode, and changes the period, at once (Redis's
   * CONFIG SET appendfsync). A sync follows right away, so writers that were waiting for a
   * batch fsync are released whatever the new mode, and periodic writers start from a
   * clean backlog.
   */
  public void setSync(CommitLogSync newMode, long newSyncPeriodNanos) {
    synchronized (lock) {
      mode = newMode;
      syncPeriodNanos = Math.max(1, newSyncPeriodNanos);
      forceRequested = true;
      lock.notifyAll();
    }
  }

  /** Blocks until everything appended so far is fsynced. */
  public void syncNow() {
    synchronized (lock) {
      long target = writtenBytes;
      forceRequested = true;
      lock.notifyAll();
      awaitSynced(target);
    }
  }

  private boolean forceRequested; // guarded by lock

  private void syncLoop() {
    while (true) {
      long target;
      long epoch;
      List<CommitLogSegment> toSync;
      long[] lengths;
      synchronized (lock) {
        try {
          while (!closed && !syncDue()) {
            // Periodic with nothing to sync: wait a whole period. The remaining period went
            // negative once a period had passed since the last sync, and an idle node woke
            // every millisecond, for ever (~1,000 wakeups/s, 4% of a core on a ring node).
            boolean nothing = writtenBytes == syncedBytes && sealedUnsynced.isEmpty();
            long waitNanos = mode == CommitLogSync.BATCH || writeFailure != null ? RETRY_NANOS
                : nothing ? syncPeriodNanos
                : Math.max(1_000_000, syncPeriodNanos - (System.nanoTime() - lastSyncNanos));
            TimeUnit.NANOSECONDS.timedWait(lock, waitNanos);
          }
        } catch (InterruptedException e) {
          return;
        }
        if (!writeOutQuietly()) {
          if (closed) {
            return;
          }
          try {
            lock.wait(TimeUnit.NANOSECONDS.toMillis(RETRY_NANOS)); // e.g. disk full: retry without spinning
          } catch (InterruptedException e) {
            return;
          }
          continue;
        }
        target = writtenBytes;
        epoch = rollbacks;
        toSync = new ArrayList<>(sealedUnsynced);
        toSync.add(current);
        lengths = new long[toSync.size()];
        for (int i = 0; i < lengths.length; i++) {
          lengths[i] = toSync.get(i).fileLength();
        }
        forceRequested = false;
        if (closed && target == syncedBytes && toSync.size() == 1) {
          return;
        }
      }
      long t0 = System.nanoTime();
      StorageException failure = null;
      for (int i = 0; i < toSync.size() && failure == null; i++) {
        CommitLogSegment s = toSync.get(i);
        try {
          s.sync();
        } catch (StorageException e) {
          failure = e;
          break;
        }
        synchronized (lock) {
          if (epoch == rollbacks) {
            s.synced(lengths[i]);
            if (s.isSealed() && sealedUnsynced.remove(s)) {
              s.close();
              syncedBytes = Math.max(syncedBytes, s.sealedAtTarget);
            }
          }
        }
      }
      if (failure != null) {
        synchronized (lock) {
          if (epoch == rollbacks) {
            failed(failure);
          }
          lastSyncNanos = System.nanoTime();
          lock.notifyAll();
          if (closed) {
            return;
          }
        }
        continue;
      }
      long micros = (System.nanoTime() - t0) / 1000;
      syncCount.incrementAndGet();
      syncMicrosTotal.addAndGet(micros);
      syncMicrosMax.accumulateAndGet(micros, Math::max);
      syncObserver.synced(micros, toSync.get(toSync.size() - 1).path().getFileName().toString());
      synchronized (lock) {
        if (epoch == rollbacks) {
          syncedBytes = Math.max(syncedBytes, target);
          while (!batchWaiters.isEmpty() && batchWaiters.peek().target <= syncedBytes) {
            batchWaiters.poll();
          }
          if (writeFailure != null) {
            tryToResume();
          }
        }
        lastSyncNanos = System.nanoTime();
        lock.notifyAll();
      }
    }
  }

  /**
   * Requires: lock held, everything appended is written and fsynced. Writes resume once the
   * reserve is back (periodic mode's proof that space returned) and, after a batch rollback,
   * a new segment could be started.
   */
  private void tryToResume() {
    if (!reserve.ensure()) {
      return;
    }
    if (current.isSealed()) {
      try {
        roll();
      } catch (StorageException e) {
        return;
      }
    }
    LOG.info("commit log writes again after {} failed attempts", failures.get());
    writeFailure = null;
  }

  /**
   * Requires: lock held. Writes the current segment's buffer out; on failure see
   * {@link #failed}. False if records are still waiting in the buffer.
   */
  private boolean writeOutQuietly() {
    try {
      current.writeOut();
      return true;
    } catch (StorageException e) {
      failed(e);
      return !current.hasBuffered();
    }
  }

  /** Requires: lock held. */
  private boolean syncDue() {
    if (writeFailure != null) {
      return System.nanoTime() - lastSyncNanos >= RETRY_NANOS;
    }
    long unsynced = writtenBytes - syncedBytes;
    if (unsynced == 0 && sealedUnsynced.isEmpty()) {
      return false;
    }
    if (mode == CommitLogSync.BATCH || forceRequested) {
      return true;
    }
    return System.nanoTime() - lastSyncNanos >= syncPeriodNanos || unsynced > backlogBytes / 2;
  }

  /**
   * Deletes sealed segments for which {@code clean} holds (every table with records in them
   * has flushed past their end, into fsynced SSTables), synced or not: nothing in them is
   * needed any more. Returns how many were deleted.
   */
  public int discardSegments(Predicate<CommitLogSegment> clean) {
    List<CommitLogSegment> victims = new ArrayList<>();
    synchronized (lock) {
      for (CommitLogSegment s : segments) {
        if (s != current && s.isSealed() && clean.test(s)) {
          victims.add(s);
        }
      }
      segments.removeAll(victims);
      sealedUnsynced.removeAll(victims);
    }
    for (CommitLogSegment s : victims) {
      s.delete();
    }
    return victims.size();
  }

  /** All segments, oldest first. */
  public List<CommitLogSegment> segments() {
    return List.copyOf(segments);
  }

  /** Segments held, without copying the list (every write asks). */
  public int segmentCount() {
    return segments.size();
  }

  /** The oldest segment, or null when there is none. */
  public CommitLogSegment oldestSegment() {
    try {
      return segments.get(0);
    } catch (IndexOutOfBoundsException e) {
      return null; // dropped meanwhile
    }
  }

  public Path directory() {
    return directory;
  }

  public long syncCount() {
    return syncCount.get();
  }

  /** Replaces the observer told of each fsync; it runs on the sync thread and must be quick. */
  public void onSync(SyncObserver observer) {
    this.syncObserver = observer;
  }

  public long syncMicrosTotal() {
    return syncMicrosTotal.get();
  }

  public long syncMicrosMax() {
    return syncMicrosMax.get();
  }

  public long backPressureWaits() {
    return backPressureWaits.get();
  }

  public long backPressureMicros() {
    return backPressureMicros.get();
  }

  public long bytesAppended() {
    return bytesAppended.get();
  }

  /** True while writes are refused because the log cannot write (disk full, I/O error). */
  public boolean isFailing() {
    synchronized (lock) {
      return writeFailure != null;
    }
  }

  /** Write or fsync failures since open. */
  public long failures() {
    return failures.get();
  }

  public long unsyncedBytes() {
    synchronized (lock) {
      return writtenBytes - syncedBytes;
    }
  }

  /** Syncs everything and stops the sync thread. */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      forceRequested = true;
      closed = true;
      lock.notifyAll();
    }
    try {
      syncThread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (lock) {
      try {
        current.seal();
        current.sync();
      } catch (StorageException e) {
        LOG.error("commit log: the last records could not be written at close", e);
      }
      current.close();
    }
  }

  /**
   * Frames a payload already written at {@code buf[RECORD_HEADER, RECORD_HEADER+payloadLength)}:
   * fills in the length and its checksum and appends the payload checksum. Returns the record length.
   */
  public static int frame(io.cassette.storage.io.ByteArrayWriter buf, int payloadLength) {
    if (payloadLength > CommitLogDescriptor.MAX_RECORD_LENGTH) {
      throw new StorageException("mutation too large: " + payloadLength + " bytes (expected: <= "
          + CommitLogDescriptor.MAX_RECORD_LENGTH + ")");
    }
    buf.putInt(0, payloadLength);
    buf.putInt(4, io.cassette.storage.io.Checksums.crc32c(buf.buffer(), 0, 4));
    buf.writeInt(io.cassette.storage.io.Checksums.crc32c(buf.buffer(), RECORD_HEADER, payloadLength));
    return buf.length();
  }

  /** Bytes before the payload in a record: length and its checksum. */
  public static final int RECORD_HEADER = 8;
}
