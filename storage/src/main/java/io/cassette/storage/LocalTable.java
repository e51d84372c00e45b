package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.compaction.CompactableTable;
import io.cassette.storage.compaction.CompactionStrategy;
import io.cassette.storage.compaction.TableCompactions;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.memtable.MemtablePartition;
import io.cassette.storage.partition.PartitionReader;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.partition.PeekingSource;
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
 * A table of the engine: its view (memtables and SSTables), its directory, reads, scans and
 * flushes. Writes arrive through {@link StorageEngine#apply}. Its compactions (choosing,
 * running, swapping in) are {@link TableCompactions}, which sees the table only as a
 * {@link CompactableTable}. Thread-safe.
 */
final class LocalTable implements Table, CompactableTable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalTable.class);

  private final StorageEngine engine;
  private volatile TableSpec spec;
  /** Its compactions: which SSTables are compacting, what to compact next, running one. */
  final TableCompactions compactions;
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
  volatile boolean dropped;
  /** TRUNCATEs so far (this run): a stream that began before one must not land after it. */
  volatile int truncations;
  /** Its storage-attached indexes (none until the front door defines some). */
  final io.cassette.storage.index.TableIndexes indexes;

  /** Its id alone, as the commit log takes the tables of a mutation (a write of one table allocates none). */
  final List<java.util.UUID> ids;

  private final LongAdder reads = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private final LongAdder readMicros = new LongAdder();
  private final LongAdder writeMicros = new LongAdder();
  private final LongAdder bytesWritten = new LongAdder();

  LocalTable(StorageEngine engine, TableSpec spec, Path directory) {
    this.engine = engine;
    this.spec = spec;
    this.ids = List.of(spec.id());
    CompactionStrategy strategy = CompactionStrategy.forOptions(spec.compaction());
    Compressors.forOptions(spec.compression());
    Compressors.chunkLength(spec.compression());
    this.directory = directory;
    this.compactions = new TableCompactions(this, strategy);
    this.indexes = new io.cassette.storage.index.TableIndexes(directory, view::get);
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
    indexes.loaded();
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
    compactions.setStrategy(s);
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
    Memtable m = view.get().active();
    long added = m.apply(key, update);
    // the memtable's index postings live as long as it does: counted in its bytes (and so in
    // the memtable budget), released with it when it is flushed
    long indexed = indexes.indexWrite(m, key, update);
    if (indexed > 0) {
      m.addIndexBytes(indexed);
    }
    return added + indexed;
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
    return read(partitionKey, (key, sources) -> PartitionReader.read(key, sources, query));
  }

  @Override
  public PartitionUpdate readUnfiltered(byte[] partitionKey, ReadQuery query) {
    return read(partitionKey,
        (key, sources) -> PartitionReader.readUnfiltered(spec.keyspace(), spec.name(), key, sources, query));
  }

  /** Collects the partition's sources (memtables, then SSTables newest first) and reads them with {@code reader}. */
  private <T> T read(byte[] partitionKey,
                     java.util.function.BiFunction<DecoratedKey, List<PartitionSource>, T> reader) {
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
      for (SSTableReader s : v.byNewest()) { // sorted once per view
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
        return reader.apply(key, sources);
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
    return scan(range, (key, parts) -> PartitionReader.read(key, parts, query), PartitionView::isEmpty);
  }

  @Override
  public CloseableIterator<TokenDigest> digests(long startTokenExclusive, long endToken, long nowInSeconds) {
    return DigestScan.open(this, startTokenExclusive, endToken, nowInSeconds);
  }

  @Override
  public CloseableIterator<PartitionUpdate> scanUnfiltered(KeyRange range, ReadQuery query) {
    return scan(range,
        (key, parts) -> PartitionReader.readUnfiltered(spec.keyspace(), spec.name(), key, parts, query),
        u -> u.partitionDeletion().isLive() && u.rangeTombstones().isEmpty() && u.rows().isEmpty());
  }

  private <T> CloseableIterator<T> scan(KeyRange range,
                                        java.util.function.BiFunction<DecoratedKey, List<PartitionSource>, T> reader,
                                        java.util.function.Predicate<T> empty) {
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
    return new ScanIterator<>(v, sources, scanners, reader, empty);
  }

  /** The partitions of one memtable in a key range, in order (scans, and {@link DigestScan}). */
  static Iterator<? extends PartitionSource> memtableRange(Memtable m, KeyRange range) {
    DecoratedKey after = range.after();
    Iterator<MemtablePartition> it;
    if (after == null) {
      it = m.partitions(null, true);
    } else if (after.key() == null) {
      if (after.token() == Long.MAX_VALUE) {
        return java.util.Collections.emptyIterator();
      }
      it = m.partitions(new DecoratedKey(after.token() + 1, null), true);
    } else {
      it = m.partitions(after, false);
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

  /** Merges the partitions of several sources in token order, lazily. */
  private final class ScanIterator<T> implements CloseableIterator<T> {
    private final TableView view;
    private final List<PeekingSource> sources;
    private final List<SSTableScanner> scanners;
    private final java.util.function.BiFunction<DecoratedKey, List<PartitionSource>, T> reader;
    private final java.util.function.Predicate<T> empty;
    private T next;
    private boolean closed;

    ScanIterator(TableView view, List<PeekingSource> sources, List<SSTableScanner> scanners,
                 java.util.function.BiFunction<DecoratedKey, List<PartitionSource>, T> reader,
                 java.util.function.Predicate<T> empty) {
      this.view = view;
      this.sources = sources;
      this.scanners = scanners;
      this.reader = reader;
      this.empty = empty;
    }

    @Override
    public boolean hasNext() {
      while (next == null && !closed) {
        DecoratedKey min = null;
        for (PeekingSource s : sources) {
          if (s.head() != null && (min == null || s.head().key().compareTo(min) < 0)) {
            min = s.head().key();
          }
        }
        if (min == null) {
          close();
          break;
        }
        List<PartitionSource> parts = new ArrayList<>();
        for (PeekingSource s : sources) {
          if (s.head() != null && s.head().key().equals(min)) {
            parts.add(s.head());
          }
        }
        T pv;
        try {
          pv = reader.apply(min, parts);
        } catch (RuntimeException e) {
          close();
          throw e;
        }
        for (PeekingSource s : sources) {
          if (s.head() != null && s.head().key().equals(min)) {
            s.advance();
          }
        }
        if (!empty.test(pv)) {
          next = pv;
        }
      }
      return next != null;
    }

    @Override
    public T next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      T p = next;
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
        Compressors.chunkLength(s.compression()), memtable.size(), s.bloomFilterFpChance(), null)) {
      io.cassette.storage.memtable.MemtableFlush.write(memtable, w);
      SSTableDescriptor done = w.finish(upperBound);
      if (done == null) {
        return null;
      }
      SSTableReader r = SSTableReader.open(done);
      r.useCache(engine.chunkCache(), engine.indexChunkCache());
      bytesWritten.add(r.bytesOnDisk());
      indexes.sweep();
      indexes.flushed(memtable, r);
      return r;
    }
  }

  @Override
  public SSTableSink sink() {
    return new SSTableSink(this, truncations);
  }

  /** Adds SSTables a {@link SSTableSink} wrote; they hold no commit-log position. */
  void imported(List<SSTableReader> readers, long bytes) {
    if (readers.isEmpty()) {
      return;
    }
    for (SSTableReader r : readers) {
      indexes.compacted(r); // indexed before it is live, as a compaction's output is
    }
    view.updateAndGet(v -> v.imported(readers));
    bytesWritten.add(bytes);
    engine.maybeCompact(this);
  }

  @Override
  public TableView view() {
    return view.get();
  }

  @Override
  public boolean dropped() {
    return dropped;
  }

  @Override
  public SSTableDescriptor newSSTable() {
    return new SSTableDescriptor(directory, nextGeneration.getAndIncrement());
  }

  @Override
  public SSTableReader open(SSTableDescriptor descriptor) {
    SSTableReader r = SSTableReader.open(descriptor);
    r.useCache(engine.chunkCache(), engine.indexChunkCache());
    return r;
  }

  @Override
  public boolean swap(List<SSTableReader> inputs, SSTableReader output) {
    indexes.compacted(output);
    boolean[] swapped = new boolean[1];
    view.updateAndGet(v -> {
      TableView n = v.compacted(inputs, output);
      swapped[0] = n != null; // the last attempt is the one that counts
      return n == null ? v : n;
    });
    if (swapped[0]) {
      indexes.replaced(inputs);
    }
    return swapped[0];
  }

  @Override
  public void written(long bytes) {
    bytesWritten.add(bytes);
    engine.compaction.bytesWritten.add(bytes);
  }

  @Override
  public void compacted(long micros, long bytesRead, long bytesWritten) {
    engine.compaction.completed.increment();
    engine.listener().compacted(spec.keyspace() + "." + spec.name(), micros, bytesRead, bytesWritten);
  }

  @Override
  public void compact() {
    engine.flush(this).join();
    List<SSTableReader> all = compactions.markAllWhenIdle();
    if (all.isEmpty()) {
      return;
    }
    List<SSTableReader> inputs = all;
    engine.runCompaction(this, inputs).join();
  }

  @Override
  public void cleanup(java.util.function.LongPredicate keepToken) {
    engine.flush(this).join();
    List<SSTableReader> all = compactions.markAllWhenIdle();
    if (!all.isEmpty()) {
      engine.runCleanup(this, all, keepToken).join();
    }
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
          if (c == SSTableDescriptor.Component.DIGEST && !Files.exists(src)) {
            continue; // optional: SSTables written before it existed have none
          }
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
    return compactions.pendingTasks();
  }

  @Override
  public io.cassette.storage.index.TableIndexes indexes() {
    return indexes;
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
