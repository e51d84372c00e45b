package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLog;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.commitlog.CommitLogSegment;
import io.cassette.storage.commitlog.MutationSerializer;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.FileTree;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.sstable.KeyCache;
import io.cassette.storage.sstable.SSTableReader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine: commit log, the write path and the flush thread. Beside it:
 * {@link TableRegistry} (the tables and the catalog that persists them),
 * {@link CommitLogReplay} (recovery at open), {@link MemtableBudget} (the memory all
 * memtables share) and {@link CompactionScheduler} (when compactions run).
 *
 * <p>Write path: serialize the mutation, append it to the commit log, apply it to each
 * table's active memtable. Both steps run under the read side of {@link #switchLock}; a
 * memtable switch (flush, truncate) takes the write side, so every record before the
 * commit-log position captured at a switch is in the switched-out memtable. That position
 * becomes the SSTable's commit-log upper bound, from which replay resumes.
 *
 * <p>Memory: all memtables share {@code memtableBudgetBytes}. When active memtables use
 * half of it the largest is flushed; when active plus flushing memtables use all of it,
 * writers wait for a flush to finish (counted in {@link StorageMetrics#writeStalls()}).
 */
final class StorageEngine implements Engine {
  private static final Logger LOG = LoggerFactory.getLogger(StorageEngine.class);
  /** Commit-log segments on disk beyond which the tables pinning the oldest are flushed. */
  static final int MAX_SEGMENTS_BEFORE_FORCED_FLUSH = 4;
  /** A serialization buffer that grew past this is dropped after use instead of kept per thread. */
  private static final int MAX_RETAINED_BUFFER = 1 << 20;
  /** How long closing or dropping a table waits for its running vector graph build to stop. */
  private static final long GRAPH_BUILD_STOP_MILLIS = 30_000;
  private static final ThreadLocal<ByteArrayWriter> BUFFER = ThreadLocal.withInitial(() -> new ByteArrayWriter(4096));

  private final EngineOptions options;
  /** The tables by id and name, their truncation positions, the catalog file. */
  private final TableRegistry tables;
  private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();
  private final FileChannel lockChannel;
  private final FileLock directoryLock;
  private CommitLog commitLog;
  private final ExecutorService flushExecutor;
  /** The compaction pool, its throttle and counters; what a compaction does: compaction/TableCompactions. */
  final CompactionScheduler compaction;
  /**
   * Data and index chunks each get half of the chunk-cache budget: a 4 KB index chunk serves
   * as many keys as a 16 KB data chunk, so per byte it is worth more on uniform reads, while
   * data chunks pay off on skewed (hot-key) reads.
   */
  private final io.cassette.storage.sstable.ChunkCache chunkCache =
      new io.cassette.storage.sstable.ChunkCache(io.cassette.storage.sstable.ChunkCache.budgetForHeap() / 2);
  private final io.cassette.storage.sstable.ChunkCache indexChunkCache =
      new io.cassette.storage.sstable.ChunkCache(io.cassette.storage.sstable.ChunkCache.budgetForHeap() / 2);
  private volatile CommitLogPosition replayPosition;
  private volatile boolean replaying;
  private volatile boolean closed;
  /** Set by {@link #drain}; writes check it under the read side of switchLock. */
  private volatile boolean drained;
  private volatile StorageListener listener = StorageListener.NONE;

  private final MemtableBudget memory;
  private final AtomicBoolean memoryFlushRunning = new AtomicBoolean();
  private final AtomicLong segmentFlushRequestedFor = new AtomicLong(Long.MIN_VALUE);
  private final LongAdder flushes = new LongAdder();

  private StorageEngine(EngineOptions options) {
    this.options = options;
    this.tables = new TableRegistry(options.dataDirectory());
    try {
      Files.createDirectories(options.dataDirectory());
      lockChannel = FileChannel.open(options.dataDirectory().resolve(".lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE);
      directoryLock = lockChannel.tryLock();
    } catch (IOException e) {
      throw new StorageException("cannot open data directory " + options.dataDirectory() + ": " + e, e);
    }
    if (directoryLock == null) {
      throw new StorageException("data directory " + options.dataDirectory() + " is in use by another process");
    }
    this.flushExecutor = Executors.newSingleThreadExecutor(daemon("memtable-flush"));
    this.memory = new MemtableBudget(options.memtableBudgetBytes());
    this.compaction = new CompactionScheduler(options.compactionThreads(),
        options.compactionThroughputBytesPerSecond(), () -> closed);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  static Engine open(EngineOptions options) {
    StorageEngine e = new StorageEngine(options);
    try {
      e.start();
    } catch (RuntimeException ex) {
      e.abandon();
      throw ex;
    }
    return e;
  }

  private void start() {
    long minNextSegment = Long.MIN_VALUE;
    for (Catalog.Entry entry : tables.persisted()) {
      LocalTable t = new LocalTable(this, entry.spec(), LocalTable.directoryFor(options.dataDirectory(), entry.spec()));
      t.load(entry.truncatedAt());
      tables.loaded(t, entry.truncatedAt());
      minNextSegment = Math.max(minNextSegment, t.flushedPosition.segmentId());
    }
    commitLog = CommitLog.open(options.commitLogDirectory(), options.commitLogSync(),
        options.commitLogSyncPeriod().toNanos(), options.commitLogSegmentBytes(),
        options.commitLogBacklogBytes(), minNextSegment == Long.MIN_VALUE ? 0 : minNextSegment + 1);
    commitLog.onSync((micros, segment) -> listener.commitLogSynced(micros, segment));
    replay();
    discardCommitLogSegments();
    for (LocalTable t : tables.all()) {
      maybeCompact(t);
    }
  }

  private void replay() {
    replaying = true;
    try {
      replaySegments();
    } finally {
      replaying = false;
    }
  }

  private void replaySegments() {
    CommitLogReplay.replay(commitLog.replayableSegments(), new CommitLogReplay.Target() {
      @Override
      public LocalTable table(UUID id) {
        return tables.get(id);
      }

      @Override
      public void replaying(CommitLogPosition end) {
        replayPosition = end;
      }

      @Override
      public void apply(LocalTable t, PartitionUpdate update) {
        awaitMemory();
        memory.addActive(t.applyToMemtable(DecoratedKey.of(update.key()), update));
        maybeFlush();
      }
    });
    replayPosition = null;
  }

  @Override
  public Table createTable(TableSpec spec) {
    checkOpen();
    return tables.create(spec, sp -> new LocalTable(this, sp, LocalTable.directoryFor(options.dataDirectory(), sp)),
        commitLog::currentPosition);
  }

  @Override
  public Table alterTable(TableSpec spec) {
    checkOpen();
    return tables.alter(spec, this::maybeCompact);
  }

  @Override
  public Optional<Table> table(String keyspace, String name) {
    return Optional.ofNullable(tables.get(keyspace, name));
  }

  @Override
  public Collection<Table> tables() {
    return List.copyOf(tables.all());
  }

  @Override
  public void dropTable(String keyspace, String name) {
    checkOpen();
    LocalTable t = tables.drop(keyspace, name);
    TableView old;
    switchLock.writeLock().lock();
    try {
      old = t.view.getAndSet(TableView.empty());
      memory.addActive(-old.active().liveBytes());
    } finally {
      switchLock.writeLock().unlock();
    }
    for (SSTableReader s : old.sstables()) {
      s.markObsolete();
      s.release();
    }
    t.indexes.close(GRAPH_BUILD_STOP_MILLIS);
    deleteRecursively(t.directory());
  }

  private static void deleteRecursively(Path dir) {
    try {
      FileTree.delete(dir);
    } catch (IOException e) {
      LOG.warn("could not delete all of {}: {}", dir, e.toString());
    }
  }

  private LocalTable resolve(PartitionUpdate u) {
    LocalTable t = tables.get(u.keyspace(), u.table());
    if (t == null) {
      throw new StorageException("unknown table " + u.keyspace() + "." + u.table());
    }
    return t;
  }

  @Override
  public void apply(Mutation mutation) {
    checkOpen();
    checkNotDrained();
    List<PartitionUpdate> updates = mutation.updates();
    int n = updates.size();
    if (n == 0) {
      return;
    }
    if (n == 1) {
      // Nearly every write: one partition of one table, with nothing allocated but its key.
      PartitionUpdate u = updates.get(0);
      LocalTable t = resolve(u);
      DecoratedKey key = DecoratedKey.of(u.key());
      awaitMemory();
      ByteArrayWriter buf = frame(mutation, t.ids);
      long t0 = System.nanoTime();
      switchLock.readLock().lock();
      try {
        checkNotDrained();
        commitLog.append(buf.buffer(), buf.length(), t.ids);
        memory.addActive(t.applyToMemtable(key, u));
      } finally {
        switchLock.readLock().unlock();
        release(buf);
      }
      t.recordWrite((System.nanoTime() - t0) / 1000);
      maybeFlush();
      return;
    }
    LocalTable[] tables = new LocalTable[n];
    DecoratedKey[] keys = new DecoratedKey[n];
    List<UUID> ids = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      tables[i] = resolve(updates.get(i));
      keys[i] = DecoratedKey.of(updates.get(i).key());
      ids.add(tables[i].spec().id());
    }
    awaitMemory();
    ByteArrayWriter buf = frame(mutation, ids);
    long t0 = System.nanoTime();
    switchLock.readLock().lock();
    try {
      checkNotDrained();
      commitLog.append(buf.buffer(), buf.length(), ids);
      for (int i = 0; i < n; i++) {
        memory.addActive(tables[i].applyToMemtable(keys[i], updates.get(i)));
      }
    } finally {
      switchLock.readLock().unlock();
      release(buf);
    }
    long micros = (System.nanoTime() - t0) / 1000;
    for (int i = 0; i < n; i++) {
      tables[i].recordWrite(micros);
    }
    maybeFlush();
  }

  /** The mutation framed as a commit-log record in this thread's buffer. */
  private static ByteArrayWriter frame(Mutation mutation, List<UUID> ids) {
    ByteArrayWriter buf = BUFFER.get();
    buf.reset();
    buf.writeLong(0); // length and its checksum, filled in by frame()
    MutationSerializer.write(buf, mutation, ids);
    CommitLog.frame(buf, buf.length() - CommitLog.RECORD_HEADER);
    return buf;
  }

  /** Drops this thread's buffer when one huge mutation grew it. */
  private static void release(ByteArrayWriter buf) {
    if (buf.buffer().length > MAX_RETAINED_BUFFER) {
      BUFFER.remove();
    }
  }

  /** Waits while memtables hold the whole budget (a visible stall: writeStalls). */
  private void awaitMemory() {
    if (memory.hasRoom()) {
      return; // the usual case, without building the callbacks below
    }
    memory.awaitRoom(() -> closed, this::maybeFlush, memoryFlushRunning::get);
  }

  /** Starts a flush of the largest memtable when active memtables hold half the budget. */
  private void maybeFlush() {
    if (memory.activeOverHalf() && memoryFlushRunning.compareAndSet(false, true)) {
      LocalTable largest = null;
      long size = 0;
      for (LocalTable t : tables.all()) {
        long s = t.view.get().active().liveBytes();
        if (s > size) {
          size = s;
          largest = t;
        }
      }
      if (largest == null) {
        memoryFlushRunning.set(false);
      } else {
        flush(largest).whenComplete((r, e) -> {
          memoryFlushRunning.set(false);
          if (!closed) {
            maybeFlush();
          }
        });
      }
    }
    if (commitLog != null && replayPosition == null) {
      // the count first: a copy of the segment list per write showed in allocation profiles
      CommitLogSegment oldest = commitLog.segmentCount() > MAX_SEGMENTS_BEFORE_FORCED_FLUSH ? commitLog.oldestSegment() : null;
      if (oldest != null) {
        long previous = segmentFlushRequestedFor.get();
        if (previous < oldest.id() && segmentFlushRequestedFor.compareAndSet(previous, oldest.id())) {
          for (UUID id : oldest.dirtyTables()) {
            LocalTable t = tables.get(id);
            if (t != null && t.flushedPosition.compareTo(oldest.end()) < 0) {
              flush(t);
            }
          }
        }
      }
    }
  }

  /** Switches the table's memtable out and flushes it on the flush thread. */
  CompletableFuture<Void> flush(LocalTable t) {
    Memtable old = null;
    CommitLogPosition position = null;
    switchLock.writeLock().lock();
    try {
      Memtable active = t.view.get().active();
      if (!active.isEmpty() && !t.dropped) {
        old = active;
        position = replayPosition != null ? replayPosition : commitLog.currentPosition();
        t.view.updateAndGet(v -> v.switchMemtable(new Memtable()));
        memory.switchedOut(old);
      }
    } finally {
      switchLock.writeLock().unlock();
    }
    if (old == null) {
      // nothing new: wait for earlier flushes, and retry failed ones if any
      return CompletableFuture.runAsync(() -> {
        if (!t.failedFlushes.isEmpty() && !t.dropped) {
          writeFlush(t, null, null);
        }
      }, flushExecutor);
    }
    Memtable memtable = old;
    CommitLogPosition upper = position;
    return CompletableFuture.runAsync(() -> writeFlush(t, memtable, upper), flushExecutor);
  }

  /**
   * Runs on the flush thread. Memtables whose flush failed earlier (disk full...) are retried
   * first, in order; the table's flushed position only advances once none is pending, so
   * their commit-log segments are kept exactly as long as needed.
   */
  private void writeFlush(LocalTable t, Memtable memtable, CommitLogPosition upper) {
    try {
      CommitLogPosition flushed = CommitLogPosition.NONE;
      while (!t.failedFlushes.isEmpty()) {
        LocalTable.PendingFlush retry = t.failedFlushes.peek();
        writeMemtable(t, retry.memtable(), retry.upper());
        t.failedFlushes.poll();
        flushed = retry.upper();
        flushes.increment();
        LOG.info("flush of {} that had failed succeeded now", t);
      }
      if (memtable != null) {
        long t0 = System.nanoTime();
        long bytes = writeMemtable(t, memtable, upper);
        t.compactions.flushed(bytes);
        flushed = upper;
        flushes.increment();
        listener.memtableFlushed(t.spec().keyspace() + "." + t.spec().name(),
            (System.nanoTime() - t0) / 1000, bytes);
      }
      t.flushFailed = false;
      t.flushedPosition = CommitLogPosition.max(t.flushedPosition, flushed);
    } catch (RuntimeException e) {
      // The memtable stays readable in the view; its commit-log segments are kept and it is
      // retried before the table's next flush.
      if (memtable != null && t.failedFlushes.stream().noneMatch(f -> f.memtable() == memtable)) {
        t.failedFlushes.add(new LocalTable.PendingFlush(memtable, upper));
      }
      t.flushFailed = true;
      LOG.error("flush of {} failed; it is retried with the next flush, its commit log is kept", t, e);
      throw e;
    } finally {
      // A failed memtable stays readable but stops counting against the budget: writers
      // then fail at the commit log (disk full) with a clear error rather than wait forever.
      memory.flushEnded(memtable);
    }
    discardCommitLogSegments();
    maybeCompact(t);
  }


  /** Returns the bytes of the SSTable written, 0 when none was (dropped, truncated, empty). */
  private long writeMemtable(LocalTable t, Memtable memtable, CommitLogPosition upper) {
    SSTableReader r = null;
    boolean truncated = upper.compareTo(tables.truncatedAt(t.spec().id())) <= 0;
    if (!t.dropped && !truncated) {
      r = t.writeMemtable(memtable, upper);
    }
    SSTableReader written = r;
    t.view.updateAndGet(v -> v.flushed(memtable, written));
    if (r != null && (t.dropped || upper.compareTo(tables.truncatedAt(t.spec().id())) <= 0)) {
      t.view.updateAndGet(v -> {
        TableView without = v.compacted(List.of(written), null);
        return without == null ? v : without;
      });
      r.markObsolete();
      r.release();
      return 0;
    }
    return r == null ? 0 : r.bytesOnDisk();
  }

  private void discardCommitLogSegments() {
    if (replaying) {
      // Replayed segments learn which tables they hold only as replay reads them: until it
      // has read them all, "every dirty table flushed past the end" proves nothing.
      return;
    }
    commitLog.discardSegments(segment -> {
      for (UUID id : segment.dirtyTables()) {
        LocalTable t = tables.get(id);
        if (t != null && (t.flushFailed || t.flushedPosition.compareTo(segment.end()) < 0)) {
          return false;
        }
      }
      return true;
    });
  }

  /** Schedules background compactions for the table unless some are already scheduled. */
  void maybeCompact(LocalTable t) {
    compaction.maybeCompact(t);
  }

  /** Runs a compaction of marked inputs on the compaction pool. */
  CompletableFuture<Void> runCompaction(LocalTable t, List<SSTableReader> inputs) {
    return compaction.run(t, inputs);
  }

  CompletableFuture<Void> runCleanup(LocalTable t, List<SSTableReader> inputs, java.util.function.LongPredicate keep) {
    return compaction.cleanup(t, inputs, keep);
  }

  io.cassette.storage.sstable.ChunkCache chunkCache() {
    return chunkCache;
  }

  io.cassette.storage.sstable.ChunkCache indexChunkCache() {
    return indexChunkCache;
  }

  boolean isClosed() {
    return closed;
  }

  void truncate(LocalTable t) {
    checkOpen();
    checkNotDrained();
    TableView old;
    synchronized (tables.lock) {
      switchLock.writeLock().lock();
      try {
        CommitLogPosition position = commitLog.currentPosition();
        old = t.view.getAndUpdate(v -> new TableView(new Memtable(), v.flushing(), List.of()));
        memory.addActive(-old.active().liveBytes());
        tables.truncated(t.spec().id(), position);
        t.truncations++;
        t.flushedPosition = CommitLogPosition.max(t.flushedPosition, position);
      } finally {
        switchLock.writeLock().unlock();
      }
    }
    for (SSTableReader s : old.sstables()) {
      s.markObsolete();
      s.release();
    }
    // Memtables being flushed stay readable until their flush completes and is discarded.
    flush(t).join();
  }

  @Override
  public void flush() {
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (LocalTable t : tables.all()) {
      all.add(flush(t));
    }
    CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).join();
  }

  @Override
  public void listen(StorageListener l) {
    listener = l == null ? StorageListener.NONE : l;
  }

  StorageListener listener() {
    return listener;
  }

  @Override
  public void setCommitLogSync(CommitLogSync mode, java.time.Duration period) {
    commitLog.setSync(mode, period.toNanos());
  }

  /** Commit-log bytes written out and not yet fsynced; for tests that wait on a sync. */
  long commitLogUnsyncedBytes() {
    return commitLog.unsyncedBytes();
  }

  @Override
  public void setCompactionThroughput(long bytesPerSecond) {
    compaction.setRate(bytesPerSecond);
  }

  @Override
  public StorageMetrics metrics() {
    KeyCache keys = KeyCache.shared();
    return new StorageMetrics(memory.writeStalls.sum(), memory.writeStallMicros.sum(), memory.usedBytes(),
        memory.budgetBytes(), memory.pendingFlushes(), commitLog.syncCount(), commitLog.syncMicrosMax(),
        commitLog.syncMicrosTotal(), commitLog.backPressureWaits(), commitLog.backPressureMicros(),
        commitLog.bytesAppended(), commitLog.segments().size(), flushes.sum(), compaction.completed.sum(),
        compaction.bytesWritten.sum(), chunkCache.hits() + indexChunkCache.hits(),
        chunkCache.misses() + indexChunkCache.misses(), chunkCache.sizeBytes() + indexChunkCache.sizeBytes(),
        keys.hits(), keys.misses(), keys.entries(), keys.entries() * KeyCache.BYTES_PER_ENTRY, keys.sizeBytes());
  }

  /** The message a client sees after nodetool drain (no file names: it reaches clients). */
  static final String DRAINED_MESSAGE = "write refused: the node is drained (nodetool drain); "
      + "restart it to accept writes";

  private void checkNotDrained() {
    if (drained) {
      throw new StorageException(DRAINED_MESSAGE);
    }
  }

  @Override
  public void drain() {
    checkOpen();
    switchLock.writeLock().lock(); // waits for writes in flight: each is in a memtable after this
    try {
      drained = true;
    } finally {
      switchLock.writeLock().unlock();
    }
    flush();
    commitLog.syncNow();
    LOG.info("drained: writes are refused until restart");
  }

  @Override
  public boolean isDrained() {
    return drained;
  }

  private void checkOpen() {
    if (closed) {
      throw new StorageException("storage engine is closed");
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      flush();
    } catch (RuntimeException e) {
      LOG.error("flush at close failed; the commit log keeps the data", e);
    }
    closed = true;
    flushExecutor.shutdown();
    try {
      compaction.shutdown();
      flushExecutor.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    discardCommitLogSegments();
    commitLog.close();
    for (LocalTable t : tables.all()) {
      t.indexes.close(GRAPH_BUILD_STOP_MILLIS);
      TableView v = t.view.getAndSet(TableView.empty());
      for (SSTableReader s : v.sstables()) {
        s.release();
      }
    }
    releaseLock();
  }

  /**
   * Stops the engine as a crash would, for tests: nothing is flushed, the commit log is
   * left as the OS has it (periodic mode may not have synced it).
   */
  void simulateCrash() {
    closed = true;
    abandon();
  }

  /** Gives up after a failed open: stops threads and releases the directory lock. */
  private void abandon() {
    closed = true;
    flushExecutor.shutdownNow();
    try {
      compaction.shutdownNow();
      flushExecutor.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (commitLog != null) {
      commitLog.close();
    }
    for (LocalTable t : tables.all()) {
      t.indexes.close(GRAPH_BUILD_STOP_MILLIS);
      for (SSTableReader s : t.view.get().sstables()) {
        s.release();
      }
    }
    releaseLock();
  }

  private void releaseLock() {
    try {
      directoryLock.release();
      lockChannel.close();
    } catch (IOException e) {
      // the process is letting go of the directory anyway
    }
  }
}
