package io.cassette.storage.index;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Streams of primary keys in scan order: the union of one expression's segments (memtables
 * and SSTables, a key in several counted once) and the intersection of several expressions.
 */
final class SortedKeys {
  private SortedKeys() {}

  /** The sorted union of sorted streams, each key once. */
  static Iterator<PrimaryKey> union(List<Iterator<PrimaryKey>> sources) {
    record Head(PrimaryKey key, Iterator<PrimaryKey> rest) {}
    PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> a.key.compareTo(b.key));
    for (Iterator<PrimaryKey> s : sources) {
      if (s.hasNext()) {
        heads.add(new Head(s.next(), s));
      }
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !heads.isEmpty();
      }

      @Override
      public PrimaryKey next() {
        if (heads.isEmpty()) {
          throw new NoSuchElementException();
        }
        PrimaryKey k = heads.peek().key;
        while (!heads.isEmpty() && heads.peek().key.equals(k)) {
          Head h = heads.poll();
          if (h.rest.hasNext()) {
            heads.add(new Head(h.rest.next(), h.rest));
          }
        }
        return k;
      }
    };
  }

  /** The keys every sorted stream holds, in order (a merge that advances the smaller head). */
  static Iterator<PrimaryKey> intersection(List<Iterator<PrimaryKey>> streams) {
    if (streams.size() == 1) {
      return streams.get(0);
    }
    return new Iterator<>() {
      private PrimaryKey next;
      private boolean done;

      @Override
      public boolean hasNext() {
        if (next != null || done) {
          return next != null;
        }
        PrimaryKey[] heads = new PrimaryKey[streams.size()];
        for (int i = 0; i < heads.length; i++) {
          if (!streams.get(i).hasNext()) {
            done = true;
            return false;
          }
          heads[i] = streams.get(i).next();
        }
        while (true) {
          PrimaryKey max = heads[0];
          for (PrimaryKey h : heads) {
            if (h.compareTo(max) > 0) {
              max = h;
            }
          }
          boolean all = true;
          for (int i = 0; i < heads.length; i++) {
            while (heads[i].compareTo(max) < 0) {
              if (!streams.get(i).hasNext()) {
                done = true;
                return false;
              }
              heads[i] = streams.get(i).next();
            }
            if (!heads[i].equals(max)) {
              all = false;
            }
          }
          if (all) {
            next = max;
            return true;
          }
        }
      }

      @Override
      public PrimaryKey next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        PrimaryKey k = next;
        next = null;
        return k;
      }
    };
  }
}
