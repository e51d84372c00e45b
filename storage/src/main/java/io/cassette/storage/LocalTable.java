package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.compaction.CompactionMerger;
import io.cassette.storage.compaction.CompactionStrategy;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.memtable.MemtablePartition;
import io.cassette.storage.partition.PartitionReader;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.sstable.SSTableDescriptor;
import io.cassette.storage.sstable.SSTableReader;
import io.cassette.storage.sstable.SSTableScanner;
import io.cassette.storage.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table of the engine: its view (memtables and SSTables), its directory, reads, scans,
 * flushes and compactions. Writes arrive through {@link StorageEngine#apply}. Thread-safe.
 */
final class LocalTable implements Table {
  private static final Logger LOG = LoggerFactory.getLogger(LocalTable.class);
  private static final java.util.Comparator<SSTableReader> NEWEST_FIRST =
      (a, b) -> Long.compare(b.stats().maxTimestamp(), a.stats().maxTimestamp());
  /** How often a major compaction checks whether background compactions have finished. */
  private static final long MAJOR_COMPACTION_POLL_MILLIS = 20;

  private final StorageEngine engine;
  private volatile TableSpec spec;
  private volatile CompactionStrategy strategy;
  private final Path directory;
  final AtomicReference<TableView> view = new AtomicReference<>(TableView.empty());
  private final AtomicLong nextGeneration = new AtomicLong(1);
  /** Every write at or before this commit-log position is in an SSTable (or truncated). */
  volatile CommitLogPosition flushedPosition = CommitLogPosition.NONE;
  /** Set while a flush has failed and not yet succeeded on retry: the commit log keeps everything. */
  volatile boolean flushFailed;
  /** A switched-out memtable whose flush failed, with its commit-log upper bound. */
  record PendingFlush(Memtable memtable, CommitLogPosition upper) {}
  /** Failed flushes in order, retried before the next flush; touched only by the flush thread. */
  final java.util.ArrayDeque<PendingFlush> failedFlushes = new java.util.ArrayDeque<>();
  /** SSTables in a running compaction; guarded by itself. */
  private final Set<SSTableReader> compacting = new HashSet<>();
  volatile boolean dropped;

  private final LongAdder reads = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private final LongAdder readMicros = new LongAdder();
  private final LongAdder writeMicros = new LongAdder();
  private final LongAdder bytesWritten = new LongAdder();

  LocalTable(StorageEngine engine, TableSpec spec, Path directory) {
    this.engine = engine;
    this.spec = spec;
    this.strategy = CompactionStrategy.forOptions(spec.compaction());
    Compressors.forOptions(spec.compression());
    Compressors.chunkLength(spec.compression());
    this.directory = directory;
  }

  static Path directoryFor(Path dataDirectory, TableSpec spec) {
    return dataDirectory.resolve(spec.keyspace()).resolve(spec.name() + "-" + spec.id().toString().replace("-", ""));
  }

  /** Loads the SSTables in the directory, deleting temporary and incomplete ones. */
  void load(CommitLogPosition truncatedAt) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new StorageException("cannot create table directory " + directory + ": " + e, e);
    }
    Map<Long, Set<SSTableDescriptor.Component>> found = new HashMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        SSTableDescriptor.Parsed parsed = SSTableDescriptor.parse(p.getFileName().toString());
        if (parsed == null) {
          continue;
        }
        if (!parsed.version().equals(SSTableDescriptor.VERSION)) {
          throw new StorageException("SSTable " + p + " has version " + parsed.version()
              + " (expected: " + SSTableDescriptor.VERSION + ")");
        }
        nextGeneration.accumulateAndGet(parsed.generation() + 1, Math::max);
        if (parsed.temporary()) {
          LOG.info("deleting leftover temporary file {}", p);
          Files.deleteIfExists(p);
          continue;
        }
        found.computeIfAbsent(parsed.generation(), g -> new HashSet<>()).add(parsed.component());
      }
    } catch (IOException e) {
      throw new StorageException("cannot list table directory " + directory + ": " + e, e);
    }
    List<SSTableReader> readers = new ArrayList<>();
    CommitLogPosition flushed = truncatedAt;
    for (var e : found.entrySet()) {
      SSTableDescriptor d = new SSTableDescriptor(directory, e.getKey());
      if (!e.getValue().contains(SSTableDescriptor.Component.META)) {
        LOG.info("deleting incomplete SSTable {} (no Meta.db)", d);
        SSTableReader.deleteFiles(d);
        continue;
      }
      SSTableReader r = SSTableReader.open(d);
      r.useCache(engine.chunkCache(), engine.indexChunkCache());
      readers.add(r);
      flushed = CommitLogPosition.max(flushed, r.stats().commitLogUpperBound());
    }
    flushedPosition = flushed;
    view.set(new TableView(new Memtable(), List.of(), readers));
  }

  @Override
  public TableSpec spec() {
    return spec;
  }

  void setSpec(TableSpec newSpec) {
    CompactionStrategy s = CompactionStrategy.forOptions(newSpec.compaction());
    Compressors.forOptions(newSpec.compression());
    Compressors.chunkLength(newSpec.compression());
    this.spec = newSpec;
    this.strategy = s;
  }

  Path directory() {
    return directory;
  }

  @Override
  public void apply(PartitionUpdate update) {
    engine.apply(Mutation.of(update));
  }

  /** Requires: the engine's switch lock held for reading (or replay running alone). */
  long applyToMemtable(DecoratedKey key, PartitionUpdate update) {
    return view.get().active().apply(key, update);
  }

  void recordWrite(long micros) {
    writes.increment();
    writeMicros.add(micros);
  }

  /** The current view with a reference on each of its SSTables; release with {@link #release}. */
  TableView acquireView() {
    while (true) {
      TableView v = view.get();
      int acquired = 0;
      for (SSTableReader s : v.sstables()) {
        if (!s.tryRef()) {
          break;
        }
        acquired++;
      }
      if (acquired == v.sstables().size()) {
        return v;
      }
      for (int i = 0; i < acquired; i++) {
        v.sstables().get(i).release();
      }
    }
  }

  static void release(TableView v) {
    for (SSTableReader s : v.sstables()) {
      s.release();
    }
  }

  @Override
  public PartitionView read(byte[] partitionKey, ReadQuery query) {
    long t0 = System.nanoTime();
    DecoratedKey key = DecoratedKey.of(partitionKey);
    TableView v = acquireView();
    try {
      List<PartitionSource> sources = new ArrayList<>(4);
      // Newest deletion of the whole partition seen so far: an SSTable whose newest write is
      // older holds nothing visible for this partition and is not read at all.
      long deletedAt = Long.MIN_VALUE;
      for (Memtable m : v.memtables()) {
        MemtablePartition p = m.get(key);
        if (p != null) {
          sources.add(p);
          deletedAt = Math.max(deletedAt, p.partitionDeletion().markedForDeleteAt());
        }
      }
      List<SSTableReader> byNewest = v.sstables();
      if (byNewest.size() > 1) {
        byNewest = new ArrayList<>(byNewest);
        byNewest.sort(NEWEST_FIRST);
      }
      for (SSTableReader s : byNewest) {
        if (s.stats().maxTimestamp() <= deletedAt) {
          break; // this one and all older ones are shadowed
        }
        PartitionSource p = s.partition(key);
        if (p != null) {
          sources.add(p);
          deletedAt = Math.max(deletedAt, p.partitionDeletion().markedForDeleteAt());
        }
      }
      try {
        return PartitionReader.read(key, sources, query);
      } finally {
        for (PartitionSource p : sources) {
          p.release();
        }
      }
    } finally {
      release(v);
      reads.increment();
      readMicros.add((System.nanoTime() - t0) / 1000);
    }
  }

  @Override
  public CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
    reads.increment();
    TableView v = acquireView();
    List<PeekingSource> sources = new ArrayList<>();
    for (Memtable m : v.memtables()) {
      sources.add(new PeekingSource(memtableRange(m, range)));
    }
    List<SSTableScanner> scanners = new ArrayList<>();
    try {
      for (SSTableReader s : v.sstables()) {
        SSTableScanner scanner = s.scanner(range);
        scanners.add(scanner);
        sources.add(new PeekingSource(scanner));
      }
    } catch (RuntimeException e) {
      scanners.forEach(SSTableScanner::close);
      release(v);
      throw e;
    }
    return new ScanIterator(v, sources, scanners, query);
  }

  private static Iterator<? extends PartitionSource> memtableRange(Memtable m, KeyRange range) {
    var map = m.partitions();
    DecoratedKey after = range.after();
    Iterator<MemtablePartition> it;
    if (after == null) {
      it = map.values().iterator();
    } else if (after.key() == null) {
      if (after.token() == Long.MAX_VALUE) {
        return java.util.Collections.emptyIterator();
      }
      it = map.tailMap(new DecoratedKey(after.token() + 1, Bytes.EMPTY), true).values().iterator();
    } else {
      it = map.tailMap(after, false).values().iterator();
    }
    long end = range.endToken();
    return new Iterator<>() {
      MemtablePartition next;

      @Override
      public boolean hasNext() {
        if (next == null && it.hasNext()) {
          MemtablePartition p = it.next();
          if (p.key().token() <= end) {
            next = p;
          }
        }
        return next != null;
      }

      @Override
      public MemtablePartition next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        MemtablePartition p = next;
        next = null;
        return p;
      }
    };
  }

  /** An iterator with a look-ahead element. */
  static final class PeekingSource {
    private final Iterator<? extends PartitionSource> it;
    PartitionSource head;

    PeekingSource(Iterator<? extends PartitionSource> it) {
      this.it = it;
      advance();
    }

    void advance() {
      head = it.hasNext() ? it.next() : null;
    }
  }

  /** Merges the partitions of several sources in token order, lazily. */
  private final class ScanIterator implements CloseableIterator<PartitionView> {
    private final TableView view;
    private final List<PeekingSource> sources;
    private final List<SSTableScanner> scanners;
    private final ReadQuery query;
    private PartitionView next;
    private boolean closed;

    ScanIterator(TableView view, List<PeekingSource> sources, List<SSTableScanner> scanners, ReadQuery query) {
      this.view = view;
      this.sources = sources;
      this.scanners = scanners;
      this.query = query;
    }

    @Override
    public boolean hasNext() {
      while (next == null && !closed) {
        DecoratedKey min = null;
        for (PeekingSource s : sources) {
          if (s.head != null && (min == null || s.head.key().compareTo(min) < 0)) {
            min = s.head.key();
          }
        }
        if (min == null) {
          close();
          break;
        }
        List<PartitionSource> parts = new ArrayList<>();
        for (PeekingSource s : sources) {
          if (s.head != null && s.head.key().equals(min)) {
            parts.add(s.head);
          }
        }
        PartitionView pv;
        try {
          pv = PartitionReader.read(min, parts, query);
        } catch (RuntimeException e) {
          close();
          throw e;
        }
        for (PeekingSource s : sources) {
          if (s.head != null && s.head.key().equals(min)) {
            s.advance();
          }
        }
        if (!pv.isEmpty()) {
          next = pv;
        }
      }
      return next != null;
    }

    @Override
    public PartitionView next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      PartitionView p = next;
      next = null;
      return p;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        scanners.forEach(SSTableScanner::close);
        release(view);
      }
    }
  }

  @Override
  public void flush() {
    engine.flush(this).join();
  }

  /** Writes a switched-out memtable to a new SSTable; runs on the flush thread. */
  SSTableReader writeMemtable(Memtable memtable, CommitLogPosition upperBound) {
    if (memtable.isEmpty()) {
      return null;
    }
    TableSpec s = spec;
    SSTableDescriptor d = new SSTableDescriptor(directory, nextGeneration.getAndIncrement());
    try (SSTableWriter w = new SSTableWriter(d, Compressors.forOptions(s.compression()),
        Compressors.chunkLength(s.compression()), memtable.partitions().size(), s.bloomFilterFpChance(), null)) {
      for (MemtablePartition p : memtable.partitions().values()) {
        w.beginPartition(p.key(), p.partitionDeletion(), p.rangeTombstones());
        Iterator<Row> rows = p.rows(Bytes.EMPTY);
        while (rows.hasNext()) {
          w.row(rows.next());
        }
        w.endPartition();
      }
      SSTableDescriptor done = w.finish(upperBound);
      if (done == null) {
        return null;
      }
      SSTableReader r = SSTableReader.open(done);
      r.useCache(engine.chunkCache(), engine.indexChunkCache());
      bytesWritten.add(r.bytesOnDisk());
      return r;
    }
  }

  /** SSTables no compaction is using, or an empty list. */
  List<SSTableReader> compactionCandidates() {
    List<SSTableReader> live = view.get().sstables();
    synchronized (compacting) {
      List<SSTableReader> c = new ArrayList<>(live);
      c.removeAll(compacting);
      return c;
    }
  }

  /** Marks the SSTables as compacting; false if one of them already is. */
  boolean markCompacting(List<SSTableReader> sstables) {
    synchronized (compacting) {
      for (SSTableReader s : sstables) {
        if (compacting.contains(s) || !view.get().sstables().contains(s)) {
          return false;
        }
      }
      compacting.addAll(sstables);
      return true;
    }
  }

  void unmarkCompacting(List<SSTableReader> sstables) {
    synchronized (compacting) {
      compacting.removeAll(sstables);
    }
  }

  /** The next background compaction the strategy wants, marked as compacting; empty if none. */
  List<SSTableReader> nextBackgroundCompaction() {
    long now = System.currentTimeMillis() / 1000;
    synchronized (compacting) {
      List<SSTableReader> candidates = compactionCandidates();
      List<SSTableReader> task = strategy.nextBackgroundTask(candidates, now);
      if (task.isEmpty()) {
        SSTableReader expired = tombstoneCompactionCandidate(candidates, now);
        if (expired != null) {
          task = List.of(expired);
        }
      }
      if (!task.isEmpty() && markCompacting(task)) {
        return task;
      }
      return List.of();
    }
  }

  /** Cassandra's option: seconds an SSTable must exist before it is rewritten alone for its tombstones. */
  static final String TOMBSTONE_COMPACTION_INTERVAL = "tombstone_compaction_interval";
  static final long DEFAULT_TOMBSTONE_COMPACTION_INTERVAL_SECONDS = 86_400;

  /**
   * An SSTable worth rewriting alone to drop what has expired or been deleted (TTL-heavy
   * data that size tiering may never pick): every deletion and expiry in it is past
   * gc_grace and it is older than tombstone_compaction_interval. The usual purge rules keep
   * what older data elsewhere still needs. Null if none.
   */
  private SSTableReader tombstoneCompactionCandidate(List<SSTableReader> candidates, long now) {
    TableSpec s = spec;
    long gcBefore = now - s.gcGraceSeconds();
    long interval;
    try {
      interval = Long.parseLong(s.compaction().getOrDefault(TOMBSTONE_COMPACTION_INTERVAL,
          "" + DEFAULT_TOMBSTONE_COMPACTION_INTERVAL_SECONDS));
    } catch (NumberFormatException e) {
      interval = DEFAULT_TOMBSTONE_COMPACTION_INTERVAL_SECONDS;
    }
    for (SSTableReader c : candidates) {
      var st = c.stats();
      boolean hasDeletions = st.tombstoneCount() > 0 || st.minLocalDeletionTime() != Long.MAX_VALUE;
      if (!hasDeletions || st.maxLocalDeletionTime() >= gcBefore || c.ageSeconds() < interval) {
        continue;
      }
      if (!rewrittenAlone.contains(c.descriptor().generation())) {
        return c;
      }
    }
    return null;
  }

  /**
   * Generations written by compacting one SSTable alone: not picked again in this process,
   * since what they still hold past gc_grace could not be purged (older data elsewhere).
   */
  private final Set<Long> rewrittenAlone = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * Merges {@code inputs} (marked compacting, referenced by the view) into one SSTable and
   * swaps it in. Runs on a compaction thread.
   */
  void compact(List<SSTableReader> inputs, io.cassette.storage.io.Throttle throttle) {
    TableSpec s = spec;
    long startNanos = System.nanoTime();
    long now = System.currentTimeMillis() / 1000;
    CompactionMerger merger = new CompactionMerger(now, s.gcGraceSeconds());
    long expected = 0;
    CommitLogPosition upper = CommitLogPosition.NONE;
    for (SSTableReader r : inputs) {
      expected += r.stats().partitionCount();
      upper = CommitLogPosition.max(upper, r.stats().commitLogUpperBound());
    }
    for (int i = 0; i < inputs.size(); i++) {
      if (!inputs.get(i).tryRef()) {
        // released meanwhile (truncate, drop): give back what was taken and skip this compaction
        for (int j = 0; j < i; j++) {
          inputs.get(j).release();
        }
        unmarkCompacting(inputs);
        return;
      }
    }
    SSTableReader output = null;
    List<SSTableScanner> scanners = new ArrayList<>();
    try {
      SSTableDescriptor d = new SSTableDescriptor(directory, nextGeneration.getAndIncrement());
      try (SSTableWriter w = new SSTableWriter(d, Compressors.forOptions(s.compression()),
          Compressors.chunkLength(s.compression()), expected, s.bloomFilterFpChance(), throttle)) {
        List<PeekingSource> sources = new ArrayList<>();
        for (SSTableReader r : inputs) {
          SSTableScanner scanner = r.scanner(KeyRange.ALL);
          scanners.add(scanner);
          sources.add(new PeekingSource(scanner));
        }
        while (true) {
          DecoratedKey min = null;
          for (PeekingSource p : sources) {
            if (p.head != null && (min == null || p.head.key().compareTo(min) < 0)) {
              min = p.head.key();
            }
          }
          if (min == null) {
            break;
          }
          List<PartitionSource> parts = new ArrayList<>();
          for (PeekingSource p : sources) {
            if (p.head != null && p.head.key().equals(min)) {
              parts.add(p.head);
            }
          }
          merger.write(w, min, parts, maxPurgeableTimestamp(min, view.get(), inputs));
          for (PeekingSource p : sources) {
            if (p.head != null && p.head.key().equals(min)) {
              p.advance();
            }
          }
          if (dropped) {
            return;
          }
        }
        SSTableDescriptor done = w.finish(upper);
        output = done == null ? null : SSTableReader.open(done);
        if (output != null) {
          output.useCache(engine.chunkCache(), engine.indexChunkCache());
        }
      }
      if (output != null) {
        if (inputs.size() == 1) {
          rewrittenAlone.add(output.descriptor().generation());
        }
        bytesWritten.add(output.bytesOnDisk());
        engine.compaction.bytesWritten.add(output.bytesOnDisk());
      }
      final SSTableReader out = output;
      TableView replaced = view.updateAndGet(v -> {
        TableView n = v.compacted(inputs, out);
        return n == null ? v : n;
      });
      if (out != null && !replaced.sstables().contains(out)) {
        // Truncated or dropped meanwhile: the result must not come back.
        out.markObsolete();
        out.release();
      } else {
        for (SSTableReader r : inputs) {
          r.markObsolete();
          r.release(); // the view's reference
        }
      }
      engine.compaction.completed.increment();
      long bytesRead = 0;
      for (SSTableReader r : inputs) {
        bytesRead += r.bytesOnDisk();
      }
      engine.listener().compacted(s.keyspace() + "." + s.name(), (System.nanoTime() - startNanos) / 1000,
          bytesRead, out == null ? 0 : out.bytesOnDisk());
    } finally {
      scanners.forEach(SSTableScanner::close);
      for (SSTableReader r : inputs) {
        r.release(); // ours
      }
      unmarkCompacting(inputs);
    }
  }

  /**
   * The smallest timestamp outside the compaction that may belong to {@code key}: from
   * SSTables whose key range and Bloom filter admit it and memtables holding it (only
   * in-memory structures are consulted, so no references are needed).
   */
  private static long maxPurgeableTimestamp(DecoratedKey key, TableView v, List<SSTableReader> inputs) {
    long min = Long.MAX_VALUE;
    for (SSTableReader s : v.sstables()) {
      if (!inputs.contains(s) && s.stats().minTimestamp() < min && s.mightContain(key)) {
        min = s.stats().minTimestamp();
      }
    }
    for (Memtable m : v.memtables()) {
      if (m.minTimestamp() < min && m.get(key) != null) {
        min = m.minTimestamp();
      }
    }
    return min;
  }

  @Override
  public void compact() {
    engine.flush(this).join();
    List<SSTableReader> all;
    while (true) {
      synchronized (compacting) {
        all = compactionCandidates();
        if (compacting.isEmpty() && (all.isEmpty() || markCompacting(all))) {
          break;
        }
      }
      try {
        Thread.sleep(MAJOR_COMPACTION_POLL_MILLIS); // a background compaction is finishing
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException("interrupted while waiting for running compactions");
      }
    }
    if (all.isEmpty()) {
      return;
    }
    List<SSTableReader> inputs = all;
    engine.runCompaction(this, inputs).join();
  }

  @Override
  public void truncate() {
    engine.truncate(this);
  }

  @Override
  public void snapshot(String tag) {
    if (tag.isEmpty() || tag.contains("/") || tag.contains("\\") || tag.equals("..") || tag.equals(".")) {
      throw new StorageException("bad snapshot tag: '" + tag + "'");
    }
    flush();
    Path dir = directory.resolve("snapshots").resolve(tag);
    TableView v = acquireView();
    try {
      Files.createDirectories(dir);
      for (SSTableReader s : v.sstables()) {
        for (SSTableDescriptor.Component c : SSTableDescriptor.Component.values()) {
          Path src = s.descriptor().path(c);
          Path link = dir.resolve(src.getFileName());
          if (!Files.exists(link)) {
            Files.createLink(link, src);
          }
        }
      }
      io.cassette.storage.io.FileSync.syncDirectory(dir);
    } catch (IOException e) {
      throw new StorageException("cannot snapshot " + spec.keyspace() + "." + spec.name() + " into " + dir + ": " + e, e);
    } finally {
      release(v);
    }
  }

  int pendingCompactions() {
    return strategy.estimatedPendingTasks(compactionCandidates(), System.currentTimeMillis() / 1000);
  }

  @Override
  public TableMetrics metrics() {
    TableView v = view.get();
    long onDisk = 0;
    long fp = 0;
    for (SSTableReader s : v.sstables()) {
      onDisk += s.bytesOnDisk();
      fp += s.bloomFalsePositives();
    }
    long mem = 0;
    for (Memtable m : v.memtables()) {
      mem += m.liveBytes();
    }
    return new TableMetrics(reads.sum(), writes.sum(), readMicros.sum(), writeMicros.sum(),
        v.sstables().size(), onDisk, bytesWritten.sum(), mem, pendingCompactions(), fp);
  }

  @Override
  public String toString() {
    return "Table[" + spec.keyspace() + "." + spec.name() + "]";
  }
}
