package io.cassette.storage;

import io.cassette.storage.compaction.CompactableTable;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;

/**
 * An immutable snapshot of where a table's data is: the memtable taking writes, memtables
 * being flushed (still readable), and the live SSTables. Swapped atomically. What every point
 * read needs is computed once per view, not per read: the memtables as one list, and the
 * SSTables newest first (a read used to copy and sort them, and build the memtable list, each time).
 */
record TableView(Memtable active, List<Memtable> flushing, List<SSTableReader> sstables,
                 List<Memtable> memtables, List<SSTableReader> byNewest)
    implements CompactableTable.View {
  /** SSTables by their newest write, newest first (a stable sort: ties keep the view's order). */
  static final java.util.Comparator<SSTableReader> NEWEST_FIRST =
      (a, b) -> Long.compare(b.stats().maxTimestamp(), a.stats().maxTimestamp());

  TableView {
    flushing = List.copyOf(flushing);
    sstables = List.copyOf(sstables);
    List<Memtable> m = new ArrayList<>(flushing.size() + 1);
    m.add(active);
    m.addAll(flushing);
    memtables = List.copyOf(m);
    List<SSTableReader> b = new ArrayList<>(sstables);
    b.sort(NEWEST_FIRST);
    byNewest = List.copyOf(b);
  }

  TableView(Memtable active, List<Memtable> flushing, List<SSTableReader> sstables) {
    this(active, flushing, sstables, null, null);
  }

  static TableView empty() {
    return new TableView(new Memtable(), List.of(), List.of());
  }

  TableView switchMemtable(Memtable fresh) {
    List<Memtable> f = new ArrayList<>(flushing);
    f.add(active);
    return new TableView(fresh, f, sstables);
  }

  /** Replaces a flushed memtable by the SSTable written from it (null if it was empty). */
  TableView flushed(Memtable memtable, SSTableReader sstable) {
    List<Memtable> f = new ArrayList<>(flushing);
    f.remove(memtable);
    List<SSTableReader> s = new ArrayList<>(sstables);
    if (sstable != null) {
      s.add(sstable);
    }
    return new TableView(active, f, s);
  }

  /** Adds SSTables written outside a flush (a stream's, through {@link SSTableSink}). */
  TableView imported(List<SSTableReader> added) {
    List<SSTableReader> s = new ArrayList<>(sstables);
    s.addAll(added);
    return new TableView(active, flushing, s);
  }

  /** Replaces compacted SSTables by the result; null if some input is no longer live. */
  TableView compacted(List<SSTableReader> inputs, SSTableReader output) {
    List<SSTableReader> s = new ArrayList<>(sstables);
    if (!s.containsAll(inputs)) {
      return null;
    }
    s.removeAll(inputs);
    if (output != null) {
      s.add(output);
    }
    return new TableView(active, flushing, s);
  }

  /** The active memtable, then the flushing ones (read-only). */
  @Override
  public List<Memtable> memtables() {
    return memtables;
  }

  /** The SSTables, newest write first (read-only). */
  @Override
  public List<SSTableReader> byNewest() {
    return byNewest;
  }
}
