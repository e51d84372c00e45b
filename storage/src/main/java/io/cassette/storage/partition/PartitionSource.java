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

  /** Gives back buffers held for reading; the source must not be used afterwards. */
  default void release() {}
}
