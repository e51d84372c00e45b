package io.cassette.storage.partition;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import java.util.Iterator;
import java.util.List;

/**
 * One source's unfiltered version of a partition (a memtable's or one SSTable's): the
 * partition deletion, its range tombstones, and its rows including tombstoned ones.
 */
public interface PartitionSource {
  DecoratedKey key();

  DeletionTime partitionDeletion();

  List<RangeTombstone> rangeTombstones();

  /**
   * Rows in ascending clustering order (the static row, whose clustering is empty, first),
   * starting at the first row whose clustering is {@code >= from} (empty: from the start).
   * Lazily read; the iterator is valid while the source's owner holds its resources.
   */
  Iterator<Row> rows(byte[] from);

  /**
   * Rows at or before the end of {@code slice}, in descending clustering order, never the
   * static row; rows before the slice's start may follow (the caller stops). Lazily read.
   */
  Iterator<Row> rowsDescending(io.cassette.storage.Slice slice);

  /** The static row (empty clustering) of this source, or null. */
  default Row staticRow() {
    Iterator<Row> it = rows(io.cassette.storage.Bytes.EMPTY);
    if (it.hasNext()) {
      Row r = it.next();
      if (r.clustering().length == 0) {
        return r;
      }
    }
    return null;
  }

  /**
   * The exclusive upper bound of the clusterings a slice's end admits, or null if unbounded:
   * an inclusive end admits every clustering that has it as prefix.
   */
  static byte[] upperBound(io.cassette.storage.Slice slice) {
    byte[] end = slice.end();
    if (end.length == 0) {
      return null;
    }
    if (!slice.endInclusive()) {
      return end;
    }
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xFF) {
        byte[] next = java.util.Arrays.copyOf(end, i + 1);
        next[i]++;
        return next;
      }
    }
    return null; // all 0xFF: every longer clustering with this prefix is admitted
  }

  /** Gives back buffers held for reading; the source must not be used afterwards. */
  default void release() {}
}
