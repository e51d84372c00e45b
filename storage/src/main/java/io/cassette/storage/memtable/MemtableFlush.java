package io.cassette.storage.memtable;

import io.cassette.storage.Bytes;
import io.cassette.storage.Row;
import io.cassette.storage.sstable.SSTableWriter;
import java.util.Iterator;

/** Writes a memtable's partitions, in token order, into an SSTable writer: the flush's loop. */
public final class MemtableFlush {
  private MemtableFlush() {}

  /** Every partition of {@code memtable} into {@code writer}; the caller finishes the writer. */
  public static void write(Memtable memtable, SSTableWriter writer) {
    for (MemtablePartition p : memtable.partitions()) {
      writer.beginPartition(p.key(), p.partitionDeletion(), p.rangeTombstones());
      Iterator<Row> rows = p.rows(Bytes.EMPTY);
      while (rows.hasNext()) {
        writer.row(rows.next());
      }
      writer.endPartition();
    }
  }
}
