package io.cassette.storage.index;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Predicate;

/**
 * The indexes of one memtable, filled as writes arrive: per term index, terms in unsigned
 * order to the sorted keys of the rows that wrote them; per vector index, the vectors written
 * (searched exactly: a memtable is small). Entries are never removed: an overwritten or
 * deleted value leaves a stale posting that the reader's re-check drops. Thread-safe.
 */
final class MemtableIndex {
  private final Map<String, ConcurrentSkipListMap<byte[], Set<PrimaryKey>>> terms = new ConcurrentHashMap<>();
  private final Map<String, ConcurrentLinkedQueue<VectorEntry>> vectors = new ConcurrentHashMap<>();

  record VectorEntry(PrimaryKey key, float[] vector) {}

  /**
   * Heap estimates (64-bit JVM, compressed references): a skip-list entry with its node and
   * index levels; a set or queue element (its node and the key record, whose clustering array
   * is the row's own); an array's header.
   */
  static final int TERM_ENTRY_BYTES = 120;
  static final int KEY_ENTRY_BYTES = 72;
  static final int ARRAY_BYTES = 16;

  /** Adds the live cells of {@code row} to the indexes in {@code defs}; returns the heap bytes added. */
  long index(List<IndexDefinition> defs, DecoratedKey partition, Row row) {
    long[] bytes = {0};
    for (IndexDefinition def : defs) {
      for (Cell c : row.cells()) {
        if (c.isTombstone() || !c.column().equals(def.column())) {
          continue;
        }
        PrimaryKey key = new PrimaryKey(partition, row.clustering());
        if (def.isVector()) {
          def.extractor().terms(c, t -> {
            if (t.length == def.dimensions() * 4) {
              vectors.computeIfAbsent(def.name(), n -> new ConcurrentLinkedQueue<>())
                  .add(new VectorEntry(key, VectorSimilarity.floats(t)));
              bytes[0] += KEY_ENTRY_BYTES + ARRAY_BYTES + t.length;
            }
          });
        } else {
          ConcurrentSkipListMap<byte[], Set<PrimaryKey>> map =
              terms.computeIfAbsent(def.name(), n -> new ConcurrentSkipListMap<>(Bytes::compare));
          def.extractor().terms(c, t -> {
            Set<PrimaryKey> keys = map.get(t);
            if (keys == null) {
              Set<PrimaryKey> fresh = new ConcurrentSkipListSet<>();
              keys = map.putIfAbsent(t, fresh);
              if (keys == null) {
                keys = fresh;
                bytes[0] += TERM_ENTRY_BYTES + ARRAY_BYTES + t.length;
              }
            }
            if (keys.add(key)) {
              bytes[0] += KEY_ENTRY_BYTES;
            }
          });
        }
      }
    }
    return bytes[0];
  }

  /** The keys of rows holding a term {@code e} admits that {@code wanted} accepts, sorted. */
  TreeSet<PrimaryKey> search(IndexExpression e, Predicate<PrimaryKey> wanted) {
    TreeSet<PrimaryKey> out = new TreeSet<>();
    ConcurrentSkipListMap<byte[], Set<PrimaryKey>> map = terms.get(e.index());
    if (map == null) {
      return out;
    }
    NavigableMap<byte[], Set<PrimaryKey>> range = map;
    if (e.lower() != null && e.upper() != null) {
      int c = Bytes.compare(e.lower(), e.upper());
      if (c > 0 || (c == 0 && !(e.lowerInclusive() && e.upperInclusive()))) {
        return out; // an empty range
      }
    }
    if (e.lower() != null) {
      range = range.tailMap(e.lower(), e.lowerInclusive());
    }
    if (e.upper() != null) {
      range = range.headMap(e.upper(), e.upperInclusive());
    }
    for (Set<PrimaryKey> keys : range.values()) {
      for (PrimaryKey k : keys) {
        if (wanted.test(k)) {
          out.add(k);
        }
      }
    }
    return out;
  }

  /** The {@code k} best vectors for {@code query}, exactly. */
  List<Neighbour> nearest(String index, VectorSimilarity sim, float[] query, int k) {
    List<Neighbour> all = new ArrayList<>();
    ConcurrentLinkedQueue<VectorEntry> q = vectors.get(index);
    if (q != null) {
      for (VectorEntry v : q) {
        all.add(new Neighbour(v.key(), sim.score(query, v.vector())));
      }
    }
    all.sort(Neighbour.BEST_FIRST);
    return all.size() > k ? new ArrayList<>(all.subList(0, k)) : all;
  }
}
