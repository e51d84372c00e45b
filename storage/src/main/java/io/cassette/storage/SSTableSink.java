package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.partition.Reconcile;
import io.cassette.storage.sstable.SSTableDescriptor;
import io.cassette.storage.sstable.SSTableReader;
import io.cassette.storage.sstable.SSTableWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Writes streamed partitions straight into new SSTables of a table, as Cassandra's streaming
 * does: no commit log, no memtable, no flush and fewer compactions for the bytes a bootstrap
 * moves. Nothing is visible until {@link #commit}, which finishes every file and adds them to
 * the table together; {@link #abort} (or a crash before commit: the files are still
 * temporary, deleted when the table loads) leaves the table as it was, so a stream is never
 * half applied.
 *
 * <p>Partitions should come in token order (a scan's order). One that does not starts
 * another SSTable, as does a file that reaches its expected key count (its bloom filter's
 * size), which doubles from file to file: a small stream stays small, a large one ends in a
 * few files that compaction merges later. Not thread-safe: one stream, one sink.
 */
public final class SSTableSink implements AutoCloseable {
  /** Keys the first file's bloom filter is sized for. */
  static final long FIRST_FILE_KEYS = 8_192;
  /** The largest bloom filter a file gets (about 1.2 MB at 1% false positives). */
  static final long MAX_FILE_KEYS = 1 << 20;

  private final LocalTable table;
  private final int truncationsAtOpen;
  private final List<SSTableWriter> writers = new ArrayList<>();
  private SSTableWriter current;
  private long currentKeys;
  private long nextFileKeys = FIRST_FILE_KEYS;
  private DecoratedKey last;
  private long partitions;
  private boolean done;

  SSTableSink(LocalTable table, int truncationsAtOpen) {
    this.table = table;
    this.truncationsAtOpen = truncationsAtOpen;
  }

  /** Appends one partition (its rows in any order; equal clusterings are reconciled). */
  public void add(PartitionUpdate u) {
    if (done) {
      throw new IllegalStateException("sink already " + (table.dropped ? "dropped" : "closed"));
    }
    DecoratedKey key = DecoratedKey.of(u.key());
    if (current == null || (last != null && key.compareTo(last) <= 0) || current.partitionCount() >= currentKeys) {
      startFile();
    }
    current.beginPartition(key, u.partitionDeletion(), u.rangeTombstones());
    Iterator<Row> rows = sortedRows(u.rows());
    while (rows.hasNext()) {
      current.row(rows.next());
    }
    current.endPartition();
    last = key;
    partitions++;
  }

  /** Partitions added so far. */
  public long partitions() {
    return partitions;
  }

  /**
   * Finishes the files and makes them live together; returns the bytes written. A table
   * dropped or truncated since the sink opened gets nothing (the stream predates it).
   */
  public long commit() {
    if (done) {
      throw new IllegalStateException("sink already closed");
    }
    done = true;
    if (table.dropped || table.truncations != truncationsAtOpen) {
      writers.forEach(SSTableWriter::abort);
      return 0;
    }
    List<SSTableReader> readers = new ArrayList<>();
    long bytes = 0;
    try {
      for (SSTableWriter w : writers) {
        SSTableDescriptor d = w.finish(CommitLogPosition.NONE);
        if (d != null) {
          SSTableReader r = table.open(d);
          readers.add(r);
          bytes += r.bytesOnDisk();
        }
      }
    } catch (RuntimeException e) {
      writers.forEach(SSTableWriter::abort);
      for (SSTableReader r : readers) {
        r.markObsolete();
        r.release();
      }
      throw e;
    }
    table.imported(readers, bytes);
    return bytes;
  }

  /** Deletes what was written; the table is unchanged. */
  public void abort() {
    if (!done) {
      done = true;
      writers.forEach(SSTableWriter::abort);
    }
  }

  /** Aborts unless committed. */
  @Override
  public void close() {
    abort();
  }

  private void startFile() {
    TableSpec s = table.spec();
    currentKeys = nextFileKeys;
    nextFileKeys = Math.min(MAX_FILE_KEYS, nextFileKeys * 2);
    current = new SSTableWriter(table.newSSTable(), Compressors.forOptions(s.compression()),
        Compressors.chunkLength(s.compression()), currentKeys, s.bloomFilterFpChance(), null);
    writers.add(current);
    last = null;
  }

  /** A stream's rows come sorted from a scan; sort (and reconcile) anyway, the writer requires it. */
  private static Iterator<Row> sortedRows(List<Row> rows) {
    boolean sorted = true;
    for (int i = 1; i < rows.size() && sorted; i++) {
      sorted = Bytes.compare(rows.get(i - 1).clustering(), rows.get(i).clustering()) < 0;
    }
    if (sorted) {
      return rows.iterator();
    }
    Row[] a = rows.toArray(new Row[0]);
    Arrays.sort(a, (x, y) -> Bytes.compare(x.clustering(), y.clustering()));
    List<Row> merged = new ArrayList<>(a.length);
    for (Row r : a) {
      int n = merged.size();
      if (n > 0 && Bytes.compare(merged.get(n - 1).clustering(), r.clustering()) == 0) {
        merged.set(n - 1, Reconcile.row(merged.get(n - 1), r));
      } else {
        merged.add(r);
      }
    }
    return merged.iterator();
  }
}
