package io.cassette.storage.index;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Slice;
import io.cassette.storage.StorageException;
import io.cassette.storage.Table;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;

/**
 * A replica's answer to a range read with an index query ({@link IndexQuery}): the partitions
 * of a range in token order that hold rows its storage-attached indexes find, each read with
 * the query's slices narrowed to those rows (the whole of the query's slices when a hit has no
 * clustering: a static column, or a table without clustering columns). Live views for a lone
 * replica, unfiltered partitions for a coordinator that reconciles several. The caller pages by
 * resuming with {@code KeyRange(lastKey, end)}, as a plain scan.
 */
public final class IndexedScan {
  /** ANN candidates a replica looks at at most when its range holds few of the nearest. */
  public static final int MAX_ANN_FETCH = 16_384;

  private IndexedScan() {}

  /** Live partitions (empty ones skipped). */
  public static Table.CloseableIterator<PartitionView> live(Table table, KeyRange range, ReadQuery query,
                                                           IndexQuery index) {
    return new Reads<>(hits(table, range, index), query, (key, q) -> {
      PartitionView v = table.read(key, q);
      return v == null || v.isEmpty() ? null : v;
    });
  }

  /** Partitions with their tombstones, so that several replicas' answers reconcile. */
  public static Table.CloseableIterator<PartitionUpdate> unfiltered(Table table, KeyRange range, ReadQuery query,
                                                                   IndexQuery index) {
    return new Reads<>(hits(table, range, index), query, table::readUnfiltered);
  }

  /** The rows found, in scan order. */
  private static Iterator<PrimaryKey> hits(Table table, KeyRange range, IndexQuery index) {
    TableIndexes indexes = table.indexes();
    List<String> defined = new ArrayList<>();
    if (indexes != null) {
      indexes.definitions().forEach(d -> defined.add(d.name()));
    }
    for (String name : index.indexNames()) {
      if (!defined.contains(name)) {
        throw new StorageException("no storage-attached index " + name + " on this replica (schema not applied yet?)");
      }
    }
    if (!index.isNearest()) {
      return indexes.search(index.expressions(), range, null);
    }
    int k = Math.max(1, index.limit());
    List<PrimaryKey> inRange = new ArrayList<>();
    for (int fetch = Math.max(k, 10); ; fetch = Math.min(MAX_ANN_FETCH, fetch * 4)) {
      inRange.clear();
      List<Neighbour> found = indexes.nearest(index.annIndex(), index.vector(), fetch);
      for (Neighbour n : found) {
        if (inRange.size() < k && contains(range, n.key().partition())) {
          inRange.add(n.key());
        }
      }
      if (inRange.size() >= k || found.size() < fetch || fetch >= MAX_ANN_FETCH) {
        break;
      }
    }
    inRange.sort(null);
    return inRange.iterator();
  }

  static boolean contains(KeyRange range, DecoratedKey key) {
    DecoratedKey after = range.after();
    if (after != null) {
      int c = Long.compare(key.token(), after.token());
      if (c < 0 || (c == 0 && (after.key() == null || key.compareTo(after) <= 0))) {
        return false;
      }
    }
    return key.token() <= range.endToken();
  }

  /** The rows of each partition found, read with the query's slices narrowed to them. */
  private static final class Reads<T> implements Table.CloseableIterator<T> {
    private final Iterator<PrimaryKey> hits;
    private final ReadQuery query;
    private final BiFunction<byte[], ReadQuery, T> read;
    private PrimaryKey pending;
    private T next;

    Reads(Iterator<PrimaryKey> hits, ReadQuery query, BiFunction<byte[], ReadQuery, T> read) {
      this.hits = hits;
      this.query = query;
      this.read = read;
    }

    @Override
    public boolean hasNext() {
      while (next == null) {
        PrimaryKey first = pending != null ? pending : hits.hasNext() ? hits.next() : null;
        pending = null;
        if (first == null) {
          return false;
        }
        DecoratedKey partition = first.partition();
        boolean whole = false;
        List<Slice> slices = new ArrayList<>();
        for (PrimaryKey k = first; k != null; ) {
          add(k.clustering(), slices);
          whole |= k.clustering().length == 0;
          PrimaryKey n = hits.hasNext() ? hits.next() : null;
          if (n != null && !n.partition().equals(partition)) {
            pending = n;
            break;
          }
          k = n;
        }
        if (whole) {
          slices = query.slices();
        } else if (slices.isEmpty()) {
          continue;
        }
        next = read.apply(partition.key(), query.withSlices(slices));
      }
      return true;
    }

    private void add(byte[] clustering, List<Slice> out) {
      if (clustering.length == 0) {
        return;
      }
      for (Slice s : query.slices()) {
        if (s.includes(clustering)) {
          if (out.isEmpty() || !java.util.Arrays.equals(out.get(out.size() - 1).start(), clustering)) {
            out.add(Slice.prefix(clustering));
          }
          return;
        }
      }
    }

    @Override
    public T next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      T t = next;
      next = null;
      return t;
    }

    @Override
    public void close() {}
  }
}
