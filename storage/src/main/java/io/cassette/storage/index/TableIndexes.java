package io.cassette.storage.index;

import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.StorageException;
import io.cassette.storage.compaction.CompactableTable;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.sstable.SSTableReader;
import io.cassette.storage.sstable.SSTableScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage-attached indexes of one table (Cassandra 5.0's SAI): each memtable has a
 * {@link MemtableIndex} filled as writes arrive, each SSTable one component file per index,
 * written when the SSTable is (flush, compaction) or built from it when missing (a new index
 * over existing data, an SSTable streamed in). A lookup unions the postings of every segment
 * per expression and intersects the expressions; the caller reads each row found and checks it
 * (postings are never removed, so overwritten, deleted and expired values are dropped there).
 *
 * <p>The table calls the hooks {@link #indexWrite}, {@link #flushed} and {@link #compacted};
 * the front door calls {@link #define} with the table's indexes whenever its schema changes.
 * Thread-safe.
 */
public final class TableIndexes {
  private static final Logger LOG = LoggerFactory.getLogger(TableIndexes.class);
  /**
   * Beam width of an SSTable graph search (nodes kept, all scored exactly: the candidates the
   * k best are taken from), at least k. On 128-d gaussians (the hard case: no structure) at
   * 20k vectors, degree 32: ef 100 gave recall@10 0.82, 400 0.94, 600 0.965 at 2.5 ms CPU.
   */
  static final int SEARCH_BEAM = 640;

  /**
   * Beam of a graph search over {@code vectors} vectors: {@link #SEARCH_BEAM} up to 20k, then
   * growing as the square root of the count (a fixed beam covers less of a larger graph: 640 gave
   * recall@10 0.873 on 100k in bench/sai, 1,431 gives 0.941 for ~1.75x the CPU per query; on
   * 128-d gaussians that is 0.81 of scoring every vector), at least k.
   */
  static int searchBeam(int vectors, int k) {
    double scale = Math.sqrt(Math.max(1.0, vectors / 20_000.0));
    return Math.max(k, (int) Math.round(SEARCH_BEAM * scale));
  }
  /** Retired component readers are closed this long after leaving the view (searches finish first). */
  private static final long RETIRE_NANOS = 60_000_000_000L;

  private final Path directory;
  private final Supplier<CompactableTable.View> view;
  private volatile List<IndexDefinition> definitions = List.of();
  private final Map<Memtable, MemtableIndex> memtables = new ConcurrentHashMap<>();
  /** Open components by (generation, index name). */
  private final Map<ComponentKey, ComponentReader> components = new ConcurrentHashMap<>();
  /**
   * Generations whose components were written before their SSTable entered the view (flush,
   * compaction): kept by the sweep until it sees them live; every other component whose
   * SSTable is not in the view is deleted.
   */
  private final Set<Long> pending = ConcurrentHashMap.newKeySet();
  private final List<Retired> retired = new ArrayList<>();
  private final Object buildLock = new Object();
  private volatile Build building;
  /**
   * Held while a component file is replaced by its version with a graph, and while components
   * leave (sweep, drop): a graph build never renames its file over a component that has gone.
   */
  private final Object swapLock = new Object();
  /** Vector components whose graph is queued or being built (VectorGraphBuilds). */
  private final Set<ComponentKey> graphsPending = ConcurrentHashMap.newKeySet();
  /** Set when the table closes or is dropped: graph builds stop and write nothing more. */
  private volatile boolean closed;
  /** The component whose graph this table's build is writing now, or null. */
  private volatile ComponentKey running;

  private record ComponentKey(long generation, String index) {}

  private record Retired(ComponentReader reader, long at) {}

  /** An index build in progress: what a nodetool-like view shows. */
  public record Build(String index, long sstablesDone, long sstablesTotal) {}

  public TableIndexes(Path directory, Supplier<CompactableTable.View> view) {
    this.directory = directory;
    this.view = view;
  }

  public List<IndexDefinition> definitions() {
    return definitions;
  }

  /** The build running now, or null. */
  public Build building() {
    return building;
  }

  /** Vector components whose graph is not built yet (their searches score every vector). */
  public int graphsPending() {
    return graphsPending.size();
  }

  /** Waits until no graph is pending, at most {@code timeoutMillis}; whether none is. */
  public boolean awaitGraphs(long timeoutMillis) throws InterruptedException {
    long end = System.nanoTime() + timeoutMillis * 1_000_000;
    while (!graphsPending.isEmpty()) {
      if (System.nanoTime() > end) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /**
   * Stops this table's graph builds (queued ones never start, a running one stops at its next
   * check and deletes its temporary file) and waits for them, at most {@code timeoutMillis}: the
   * engine closing or the table's directory being deleted must not race a build still writing
   * in it.
   */
  public void close(long timeoutMillis) {
    closed = true;
    // queued builds return at once when they run (perhaps behind another table's): not awaited
    ComponentKey now = running;
    graphsPending.removeIf(k -> !k.equals(now));
    try {
      if (!awaitGraphs(timeoutMillis)) {
        LOG.warn("graph builds of {} still running {} ms after close", directory, timeoutMillis);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ------------------------------------------------------------------ hooks from the table

  /**
   * Indexes the rows of {@code update}, just applied to {@code memtable}; returns the estimated
   * heap bytes the postings took (the caller counts them in the memtable). Cheap when no index.
   */
  public long indexWrite(Memtable memtable, DecoratedKey key, PartitionUpdate update) {
    List<IndexDefinition> defs = definitions;
    if (defs.isEmpty()) {
      return 0;
    }
    MemtableIndex mi = memtables.computeIfAbsent(memtable, m -> new MemtableIndex());
    long bytes = 0;
    for (Row r : update.rows()) {
      bytes += mi.index(defs, key, r);
    }
    return bytes;
  }

  /** Writes the components of {@code sstable}, just flushed from {@code memtable}. */
  public void flushed(Memtable memtable, SSTableReader sstable) {
    List<IndexDefinition> defs = definitions;
    if (defs.isEmpty() || sstable == null) {
      return;
    }
    buildFrom(sstable, defs, memtable.partitions(null, true));
  }

  /** Writes the components of {@code output}, a compaction's result, before it is swapped in. */
  public void compacted(SSTableReader output) {
    List<IndexDefinition> defs = definitions;
    if (defs.isEmpty() || output == null) {
      return;
    }
    try (SSTableScanner scanner = output.scanner(KeyRange.ALL)) {
      buildFrom(output, defs, scanner);
    }
  }

  /** After a compaction swapped {@code inputs} out of the view: their components go. */
  public void replaced(List<SSTableReader> inputs) {
    for (SSTableReader s : inputs) {
      pending.remove(s.descriptor().generation());
    }
    sweep();
  }

  /** Deletes the components of SSTables that left the view and the indexes of flushed memtables. */
  public void sweep() {
    CompactableTable.View v = view.get();
    Set<Long> live = new HashSet<>();
    for (SSTableReader s : v.sstables()) {
      live.add(s.descriptor().generation());
    }
    pending.removeAll(live);
    memtables.keySet().retainAll(new HashSet<>(v.memtables()));
    synchronized (swapLock) {
      sweepComponents(live);
    }
  }

  private void sweepComponents(Set<Long> live) {
    synchronized (retired) {
      for (var it = components.entrySet().iterator(); it.hasNext(); ) {
        var e = it.next();
        long g = e.getKey().generation();
        if (!live.contains(g) && !pending.contains(g)) {
          it.remove();
          retired.add(new Retired(e.getValue(), System.nanoTime()));
          delete(e.getValue().path);
        }
      }
      long now = System.nanoTime();
      retired.removeIf(r -> {
        if (now - r.at() > RETIRE_NANOS) {
          r.reader().close();
          return true;
        }
        return false;
      });
    }
  }

  /**
   * After the table loaded its SSTables: deletes component files of SSTables that do not exist
   * (compacted away before a crash) and temporary ones.
   */
  public void loaded() {
    Set<Long> live = new HashSet<>();
    for (SSTableReader s : view.get().sstables()) {
      live.add(s.descriptor().generation());
    }
    try (Stream<Path> files = Files.list(directory)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String name = p.getFileName().toString();
        long g = IndexComponent.generation(name);
        if (g >= 0 && (!live.contains(g) || name.endsWith(".tmp"))) {
          delete(p);
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot list {} for leftover index components: {}", directory, e.toString());
    }
  }

  // ------------------------------------------------------------------ schema

  /**
   * Sets the table's indexes: new ones index the memtables at once and get their SSTable
   * components built now (the caller waits: CREATE INDEX returns with the index built);
   * dropped ones lose their files.
   */
  public void define(List<IndexDefinition> wanted) {
    synchronized (buildLock) {
      List<IndexDefinition> before = definitions;
      List<IndexDefinition> added = new ArrayList<>();
      for (IndexDefinition d : wanted) {
        boolean known = false;
        for (IndexDefinition b : before) {
          known |= b.sameShape(d);
        }
        if (!known) {
          added.add(d);
        }
      }
      // writes from here on are indexed; the backfill below covers the ones before
      definitions = List.copyOf(wanted);
      for (IndexDefinition b : before) {
        boolean kept = false;
        for (IndexDefinition d : wanted) {
          kept |= b.sameShape(d);
        }
        if (!kept) {
          dropFiles(b.name());
        }
      }
      if (added.isEmpty()) {
        return;
      }
      CompactableTable.View v = view.get();
      for (Memtable m : v.memtables()) {
        MemtableIndex mi = memtables.computeIfAbsent(m, x -> new MemtableIndex());
        for (var p : m.partitions()) {
          Iterator<Row> rows = p.rows(Bytes.EMPTY);
          while (rows.hasNext()) {
            mi.index(added, p.key(), rows.next());
          }
        }
      }
      for (IndexDefinition d : added) {
        List<SSTableReader> sstables = v.sstables();
        long done = 0;
        for (SSTableReader s : sstables) {
          building = new Build(d.name(), done, sstables.size());
          component(s, d);
          done++;
        }
        building = null;
        LOG.info("index {} built over {} SSTables in {}", d.name(), sstables.size(), directory);
      }
    }
  }

  private void dropFiles(String index) {
    synchronized (swapLock) {
      dropComponents(index);
    }
  }

  private void dropComponents(String index) {
    for (var it = components.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (e.getKey().index().equals(index)) {
        it.remove();
        synchronized (retired) {
          retired.add(new Retired(e.getValue(), System.nanoTime()));
        }
      }
    }
    try (Stream<Path> files = Files.list(directory)) {
      String suffix = "-SAI_" + IndexComponent.fileSafe(index) + ".db";
      String graphSuffix = "-SAI_" + IndexComponent.fileSafe(index) + ".graph.db.tmp";
      for (Path p : (Iterable<Path>) files::iterator) {
        String name = p.getFileName().toString();
        if (name.endsWith(suffix) || name.endsWith(suffix + ".tmp") || name.endsWith(graphSuffix)) {
          delete(p);
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot list {} to drop index {}: {}", directory, index, e.toString());
    }
  }

  // ------------------------------------------------------------------ building components

  private void buildFrom(SSTableReader sstable, List<IndexDefinition> defs, Iterator<? extends PartitionSource> parts) {
    pending.add(sstable.descriptor().generation());
    List<SegmentWriter> writers = new ArrayList<>();
    List<IndexOutput> outputs = new ArrayList<>();
    try {
      for (IndexDefinition d : defs) {
        IndexOutput out = new IndexOutput(IndexComponent.tmpPath(sstable.descriptor(), d.name()),
            IndexComponent.path(sstable.descriptor(), d.name()));
        outputs.add(out);
        writers.add(d.isVector()
            ? new VectorIndexWriter(d, out, IndexComponent.tmpPath(sstable.descriptor(), d.name() + ".vectors"))
            : new TermIndexWriter(d, out));
      }
      while (parts.hasNext()) {
        PartitionSource p = parts.next();
        Iterator<Row> rows = p.rows(Bytes.EMPTY);
        while (rows.hasNext()) {
          Row r = rows.next();
          for (SegmentWriter w : writers) {
            w.row(p.key(), r);
          }
        }
      }
      for (int i = 0; i < writers.size(); i++) {
        writers.get(i).finish();
        IndexDefinition d = defs.get(i);
        Path path = IndexComponent.path(sstable.descriptor(), d.name());
        ComponentReader r = d.isVector() ? new VectorIndexReader(path) : new TermIndexReader(path);
        ComponentKey key = new ComponentKey(sstable.descriptor().generation(), d.name());
        ComponentReader old = components.put(key, r);
        if (old != null) {
          old.close();
        }
        scheduleGraph(key, r);
      }
    } finally {
      outputs.forEach(IndexOutput::close);
    }
  }

  /** The component of {@code sstable} for {@code d}: opened from its file, or built now. */
  private ComponentReader component(SSTableReader sstable, IndexDefinition d) {
    ComponentKey key = new ComponentKey(sstable.descriptor().generation(), d.name());
    ComponentReader r = components.get(key);
    if (r != null) {
      return r;
    }
    synchronized (components) {
      r = components.get(key);
      if (r != null) {
        return r;
      }
      Path path = IndexComponent.path(sstable.descriptor(), d.name());
      if (Files.exists(path)) {
        try {
          r = d.isVector() ? new VectorIndexReader(path) : new TermIndexReader(path);
          components.put(key, r);
          scheduleGraph(key, r); // a crash or a stop before the graph was built: built now
          return r;
        } catch (StorageException e) {
          LOG.warn("rebuilding index component: {}", e.getMessage());
        }
      }
      if (!sstable.tryRef()) {
        return null; // compacted away meanwhile: the caller's view is stale
      }
      try (SSTableScanner scanner = sstable.scanner(KeyRange.ALL)) {
        buildFrom(sstable, List.of(d), scanner);
      } finally {
        sstable.release();
      }
      return components.get(key);
    }
  }

  // ------------------------------------------------------------------ vector graphs

  /** Queues the graph build of {@code r} if it is a vectors component without one. */
  private void scheduleGraph(ComponentKey key, ComponentReader r) {
    if (!closed && r instanceof VectorIndexReader v && !v.hasGraph() && v.rowCount > 0 && graphsPending.add(key)) {
      VectorGraphBuilds.submit(() -> buildGraph(key, v));
    }
  }

  /**
   * On the graph thread: writes {@code reader}'s component again with its graph and swaps the
   * new file and reader in, unless the component left meanwhile (compacted, dropped, rebuilt).
   */
  private void buildGraph(ComponentKey key, VectorIndexReader reader) {
    running = key; // before the check: close either sees it running or this sees closed
    try {
      if (closed || components.get(key) != reader) {
        return;
      }
      long t0 = System.nanoTime();
      IndexOutput sealed = VectorGraphComponent.write(reader, () -> !closed && components.get(key) == reader);
      if (sealed == null) {
        return;
      }
      synchronized (swapLock) {
        if (closed || components.get(key) != reader) {
          sealed.discard();
          return;
        }
        sealed.install();
        VectorIndexReader built = new VectorIndexReader(reader.path);
        components.put(key, built);
        synchronized (retired) {
          retired.add(new Retired(reader, System.nanoTime())); // searches in flight finish on it
        }
      }
      LOG.info("vector graph of index {} over {} vectors of SSTable {} built in {} ms", key.index(), reader.rowCount,
          key.generation(), (System.nanoTime() - t0) / 1_000_000);
    } catch (RuntimeException e) {
      LOG.warn("vector graph of index {} for SSTable {} not built (its searches score every vector): {}",
          key.index(), key.generation(), e.toString());
    } finally {
      running = null;
      graphsPending.remove(key);
    }
  }

  private IndexDefinition definition(String name) {
    for (IndexDefinition d : definitions) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException("no storage-attached index " + name);
  }

  // ------------------------------------------------------------------ lookups

  /**
   * Keys of the rows that may satisfy every expression, in scan order, within {@code range}
   * and after {@code resumeAfter} (null: from the range's start). Candidates only: each row
   * must be read and checked.
   */
  public Iterator<PrimaryKey> search(List<IndexExpression> expressions, KeyRange range, PrimaryKey resumeAfter) {
    Predicate<PrimaryKey> started = k -> {
      DecoratedKey after = range.after();
      if (after != null) {
        int c = Long.compare(k.partition().token(), after.token());
        if (c < 0 || (c == 0 && (after.key() == null || k.partition().compareTo(after) <= 0))) {
          return false;
        }
      }
      return resumeAfter == null || k.compareTo(resumeAfter) > 0;
    };
    long end = range.endToken();
    CompactableTable.View v = view.get();
    List<Iterator<PrimaryKey>> perExpression = new ArrayList<>();
    for (IndexExpression e : expressions) {
      IndexDefinition d = definition(e.index());
      List<Iterator<PrimaryKey>> segments = new ArrayList<>();
      for (Memtable m : v.memtables()) {
        MemtableIndex mi = memtables.get(m);
        if (mi != null) {
          segments.add(mi.search(e, k -> started.test(k) && k.partition().token() <= end).iterator());
        }
      }
      for (SSTableReader s : v.sstables()) {
        ComponentReader r = component(s, d);
        if (r instanceof TermIndexReader t) {
          segments.add(rows(t, t.search(e), started, end));
        }
      }
      perExpression.add(SortedKeys.union(segments));
    }
    return SortedKeys.intersection(perExpression);
  }

  private static Iterator<PrimaryKey> rows(TermIndexReader t, BitSet ids, Predicate<PrimaryKey> started, long end) {
    IndexInput in = t.input();
    int from = ids.isEmpty() ? t.rowCount : t.first(in, started);
    return new Iterator<>() {
      int id = ids.nextSetBit(from);
      PrimaryKey next;

      @Override
      public boolean hasNext() {
        if (next == null && id >= 0 && id < t.rowCount) {
          PrimaryKey k = t.key(in, id);
          if (k.partition().token() > end) {
            id = -1;
            return false;
          }
          next = k;
          id = id + 1 < t.rowCount ? ids.nextSetBit(id + 1) : -1;
        }
        return next != null;
      }

      @Override
      public PrimaryKey next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        PrimaryKey k = next;
        next = null;
        return k;
      }
    };
  }

  /**
   * The {@code k} rows nearest {@code query} by the vector index {@code index}: exact over the
   * memtables, a graph search over each SSTable (each scored exactly on the full vector), merged
   * best first, a key once. Candidates: the caller reads each row and scores its current vector.
   */
  public List<Neighbour> nearest(String index, float[] query, int k) {
    IndexDefinition d = definition(index);
    CompactableTable.View v = view.get();
    List<Neighbour> all = new ArrayList<>();
    for (Memtable m : v.memtables()) {
      MemtableIndex mi = memtables.get(m);
      if (mi != null) {
        all.addAll(mi.nearest(index, d.similarity(), query, k));
      }
    }
    for (SSTableReader s : v.sstables()) {
      ComponentReader r = component(s, d);
      if (r instanceof VectorIndexReader vr) {
        for (VectorGraph.Scored sc : vr.search(query, k, searchBeam(vr.rowCount, k))) {
          all.add(new Neighbour(vr.key(vr.input(), sc.id()), sc.score()));
        }
      }
    }
    all.sort(Neighbour.BEST_FIRST);
    List<Neighbour> out = new ArrayList<>(k);
    Set<PrimaryKey> keys = new HashSet<>();
    for (Neighbour n : all) {
      if (out.size() == k) {
        break;
      }
      if (keys.add(n.key())) {
        out.add(n);
      }
    }
    return out;
  }

  /** Bytes of the index components on disk, for one index or all (null). */
  public long bytesOnDisk(String index) {
    long n = 0;
    for (var e : components.entrySet()) {
      if (index == null || e.getKey().index().equals(index)) {
        n += e.getValue().bytesOnDisk();
      }
    }
    return n;
  }

  /** Vectors per live SSTable for the vector index {@code index}, in the view's order (for figures). */
  public List<Integer> vectorsPerSSTable(String index) {
    IndexDefinition d = definition(index);
    List<Integer> out = new ArrayList<>();
    for (SSTableReader s : view.get().sstables()) {
      if (component(s, d) instanceof VectorIndexReader vr) {
        out.add(vr.rowCount);
      }
    }
    return out;
  }

  /** Heap held by the SSTables' vector graphs. */
  public long graphHeapBytes() {
    long n = 0;
    for (ComponentReader r : components.values()) {
      if (r instanceof VectorIndexReader v) {
        n += v.heapBytes();
      }
    }
    return n;
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      LOG.warn("cannot delete index component {}: {}", p, e.toString());
    }
  }
}
