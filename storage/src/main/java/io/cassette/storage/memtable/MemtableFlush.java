package io.cassette.storage.memtable;

import io.cassette.storage.sstable.SSTableWriter;

/** Writes a memtable's partitions, in token order, into an SSTable writer: the flush's loop. */
public final class MemtableFlush {
  private MemtableFlush() {}

  /** Every partition of {@code memtable} into {@code writer}; the caller finishes the writer. */
  public static void write(Memtable memtable, SSTableWriter writer) {
    PackedCellCursor[] cursor = new PackedCellCursor[1]; // one for every row: the memtable's partitions share its dictionary
    for (MemtablePartition p : memtable.partitions()) {
      writer.beginPartition(p.key(), p.partitionDeletion(), p.rangeTombstones());
      p.writeRows(writer, cursor);
      writer.endPartition();
    }
  }
}
