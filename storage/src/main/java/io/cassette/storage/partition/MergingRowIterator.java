package io.cassette.storage.partition;

import io.cassette.storage.Bytes;
import io.cassette.storage.Row;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Merges several ascending row iterators into one ascending iterator, reconciling rows
 * with the same clustering. Sources are few (memtables plus SSTables that may hold the
 * partition), so a linear scan of their heads is cheaper than a heap. Not thread-safe.
 */
public final class MergingRowIterator implements Iterator<Row> {
  private final Iterator<Row>[] sources;
  private final Row[] heads;
  private Row next;
  private final int direction;

  public MergingRowIterator(List<Iterator<Row>> sources) {
    this(sources, false);
  }

  /** Requires: every source ascending, or every source descending when {@code descending}. */
  @SuppressWarnings("unchecked")
  public MergingRowIterator(List<Iterator<Row>> sources, boolean descending) {
    this.direction = descending ? -1 : 1;
    // copied by index: toArray(new Iterator[0]) makes its array by reflection
    // (Array.newInstance, a native call under C1) on every point read
    this.sources = new Iterator[sources.size()];
    for (int i = 0; i < this.sources.length; i++) {
      this.sources[i] = sources.get(i);
    }
    this.heads = new Row[this.sources.length];
    for (int i = 0; i < heads.length; i++) {
      heads[i] = this.sources[i].hasNext() ? this.sources[i].next() : null;
    }
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    byte[] min = null;
    for (Row h : heads) {
      if (h != null && (min == null || direction * Bytes.compare(h.clustering(), min) < 0)) {
        min = h.clustering();
      }
    }
    if (min == null) {
      return false;
    }
    Row merged = null;
    for (int i = 0; i < heads.length; i++) {
      Row h = heads[i];
      if (h != null && Bytes.compare(h.clustering(), min) == 0) {
        merged = Reconcile.row(merged, h);
        heads[i] = sources[i].hasNext() ? sources[i].next() : null;
      }
    }
    next = merged;
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row r = next;
    next = null;
    return r;
  }
}
