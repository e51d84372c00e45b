package io.cassette.storage.compaction;

import io.cassette.storage.TableSpec;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.sstable.SSTableDescriptor;
import io.cassette.storage.sstable.SSTableReader;
import java.util.List;

/**
 * What compaction needs from a table, and nothing more: its spec, a snapshot of where its
 * data is, a name and a reader for a new SSTable, the swap of inputs for their result, and
 * where to count what was done. The engine's table implements it; the table's directory,
 * generation counter, memtable switching and view updates stay its own.
 */
public interface CompactableTable {
  /** One immutable snapshot of the table's data (read both lists from the same snapshot). */
  interface View {
    /** The live SSTables. */
    List<SSTableReader> sstables();

    /** The memtable taking writes and those being flushed. */
    List<Memtable> memtables();
  }

  TableSpec spec();

  /** The current snapshot; it may be replaced at any time by writes, flushes and truncation. */
  View view();

  /** True once the table is dropped: a running compaction stops and its result is discarded. */
  boolean dropped();

  /** A new SSTable name in the table's directory (a fresh generation). */
  SSTableDescriptor newSSTable();

  /** Opens a written SSTable for reading through the engine's chunk caches. */
  SSTableReader open(SSTableDescriptor descriptor);

  /**
   * Replaces {@code inputs} by {@code output} (null: nothing survived) in the view, unless
   * some input is no longer live (truncated or dropped meanwhile), in which case the view is
   * left as it is. Returns true when the inputs were replaced (so the view no longer holds
   * them), false when the view was left as it is; with a null output the two differ only here.
   */
  boolean swap(List<SSTableReader> inputs, SSTableReader output);

  /** Counts {@code bytes} of SSTable written by a compaction (table and engine metrics). */
  void written(long bytes);

  /** Counts a finished compaction and tells the engine's listener. */
  void compacted(long micros, long bytesRead, long bytesWritten);
}
