package io.cassette.storage.memtable;

import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A memtable's partitions by token: a lock-free radix tree over the 64 bits of the Murmur3
 * token (8 bits at the root, 4 per level below), whose in-order walk is token order. A write
 * finds or adds its partition in one descent (about four array loads for 100,000 partitions,
 * then one key comparison) where a skip list compares keys some seventeen times; tokens are
 * uniform hashes, so the tree stays balanced without rebalancing.
 *
 * <p>A slot holds null, a {@link MemtablePartition}, a {@link Collision} (partitions whose
 * tokens are equal, by key) or an inner node ({@code Object[]}). Slots only move forward
 * (null to partition, partition to node or collision, collision to a larger collision), each
 * by one compare-and-set of a fully built value, so readers never lock and see every
 * partition either before or after it was added. Heap bytes of the nodes and collisions it
 * allocates are reported to the caller, exactly, as they are published.
 */
final class PartitionTrie {
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
  private static final int ROOT_BITS = 8;
  private static final int BITS = 4;
  private static final int FANOUT = 1 << BITS;
  /** Heap bytes of an inner node: an Object[16] (16-byte header, 4-byte compressed references). */
  static final int NODE_BYTES = 16 + 4 * FANOUT;
  /** Heap bytes of the root: an Object[256]. */
  static final int ROOT_BYTES = 16 + 4 * (1 << ROOT_BITS);

  private final Object[] root = new Object[1 << ROOT_BITS];
  private final AtomicInteger count = new AtomicInteger();

  /** Partitions whose tokens are equal (rare: 64-bit hashes), sorted by key bytes. */
  private record Collision(long token, MemtablePartition[] partitions) {
    /** Heap bytes: this record (12-byte header, a reference, a long: 24) and its array. */
    static long bytes(int n) {
      return 24 + PackedRow.arrayBytes(4 * n);
    }
  }

  /** The token as unsigned bits, so that unsigned bit order is the signed token's order. */
  private static long bits(long token) {
    return token ^ Long.MIN_VALUE;
  }

  /** The slot index of {@code bits} in a node at {@code depth} (0: the root). */
  private static int index(long bits, int depth) {
    if (depth == 0) {
      return (int) (bits >>> (64 - ROOT_BITS));
    }
    return (int) (bits >>> (64 - ROOT_BITS - depth * BITS)) & (FANOUT - 1);
  }

  private static Object slot(Object[] node, int i) {
    return SLOT.getAcquire(node, i);
  }

  private static boolean cas(Object[] node, int i, Object expected, Object value) {
    return SLOT.compareAndSet(node, i, expected, value);
  }

  /** The partition of {@code key}, or null. */
  MemtablePartition get(DecoratedKey key) {
    long bits = bits(key.token());
    Object[] node = root;
    int depth = 0;
    while (true) {
      Object o = slot(node, index(bits, depth));
      if (o instanceof Object[] inner) {
        node = inner;
        depth++;
      } else if (o instanceof MemtablePartition p) {
        return p.token == key.token() && Arrays.equals(p.key().key(), key.key()) ? p : null;
      } else if (o instanceof Collision c) {
        return c.token() == key.token() ? find(c.partitions(), key.key()) : null;
      } else {
        return null;
      }
    }
  }

  private static MemtablePartition find(MemtablePartition[] ps, byte[] key) {
    int i = search(ps, key);
    return i >= 0 ? ps[i] : null;
  }

  /** Binary search by key bytes: the index, or -(insertion point) - 1. */
  private static int search(MemtablePartition[] ps, byte[] key) {
    int lo = 0;
    int hi = ps.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Bytes.compare(ps[mid].key().key(), key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /**
   * The partition of {@code key}: the one already here, or a new empty one, added in the same
   * descent. A new one adds its heap bytes and those of the nodes it took (the root's with
   * the first) to {@code added[0]}.
   */
  MemtablePartition getOrAdd(DecoratedKey key, ColumnDictionary columns, long[] added) {
    long bits = bits(key.token());
    Object[] node = root;
    int depth = 0;
    MemtablePartition fresh = null;
    while (true) {
      int i = index(bits, depth);
      Object o = slot(node, i);
      if (o == null) {
        fresh = fresh != null ? fresh : new MemtablePartition(key, columns);
        if (cas(node, i, null, fresh)) {
          return added(fresh, 0, added);
        }
      } else if (o instanceof Object[] inner) {
        node = inner;
        depth++;
      } else if (o instanceof MemtablePartition p) {
        if (p.token == key.token()) {
          DecoratedKey k = p.key();
          if (Arrays.equals(k.key(), key.key())) {
            return p;
          }
          fresh = fresh != null ? fresh : new MemtablePartition(key, columns);
          MemtablePartition[] two = Bytes.compare(k.key(), key.key()) < 0
              ? new MemtablePartition[] {p, fresh} : new MemtablePartition[] {fresh, p};
          if (cas(node, i, p, new Collision(key.token(), two))) {
            return added(fresh, Collision.bytes(2), added);
          }
        } else {
          fresh = fresh != null ? fresh : new MemtablePartition(key, columns);
          long[] nodes = {0};
          Object[] split = split(p, bits(p.token), fresh, bits, depth + 1, nodes);
          if (cas(node, i, p, split)) {
            return added(fresh, nodes[0] * NODE_BYTES, added);
          }
        }
      } else {
        Collision c = (Collision) o;
        if (c.token() == key.token()) {
          MemtablePartition[] ps = c.partitions();
          int at = search(ps, key.key());
          if (at >= 0) {
            return ps[at];
          }
          at = -at - 1;
          fresh = fresh != null ? fresh : new MemtablePartition(key, columns);
          MemtablePartition[] more = new MemtablePartition[ps.length + 1];
          System.arraycopy(ps, 0, more, 0, at);
          more[at] = fresh;
          System.arraycopy(ps, at, more, at + 1, ps.length - at);
          if (cas(node, i, c, new Collision(c.token(), more))) {
            return added(fresh, Collision.bytes(more.length) - Collision.bytes(ps.length), added);
          }
        } else {
          fresh = fresh != null ? fresh : new MemtablePartition(key, columns);
          long[] nodes = {0};
          Object[] split = split(c, bits(c.token()), fresh, bits, depth + 1, nodes);
          if (cas(node, i, c, split)) {
            return added(fresh, nodes[0] * NODE_BYTES, added);
          }
        }
      }
      // a lost race: read the same slot again
    }
  }

  /** Counts a partition just published, with {@code nodeBytes} of structure it took. */
  private MemtablePartition added(MemtablePartition p, long nodeBytes, long[] added) {
    added[0] += nodeBytes + MemtablePartition.PARTITION_OVERHEAD + PackedRow.arrayBytes(p.key().key().length);
    if (count.incrementAndGet() == 1) {
      added[0] += ROOT_BYTES;
    }
    return p;
  }

  /** Partitions held. */
  int size() {
    return count.get();
  }

  /**
   * New nodes from {@code depth} down to where the two differ, holding {@code old} and
   * {@code fresh}; counts them in {@code nodes[0]}. The bits differ, so this ends by depth 14.
   */
  private static Object[] split(Object old, long oldBits, Object fresh, long freshBits, int depth, long[] nodes) {
    Object[] n = new Object[FANOUT];
    nodes[0]++;
    int a = index(oldBits, depth);
    int b = index(freshBits, depth);
    if (a != b) {
      n[a] = old;
      n[b] = fresh;
    } else {
      n[a] = split(old, oldBits, fresh, freshBits, depth + 1, nodes);
    }
    return n;
  }

  /**
   * Partitions in token order from {@code from} (all of them when null; a bound whose key is
   * null stands before every key of its token); weakly consistent, like a concurrent map's:
   * it sees every partition added before it began, and perhaps some added since.
   */
  Iterator<MemtablePartition> iterator(DecoratedKey from, boolean inclusive) {
    return new Walk(from, inclusive);
  }

  private final class Walk implements Iterator<MemtablePartition> {
    /** Nodes on the path, and the next slot to visit in each (depth 15 at most). */
    private final Object[][] nodes = new Object[16][];
    private final int[] next = new int[16];
    private int depth;
    private DecoratedKey from;
    private final boolean inclusive;
    /** A collision being walked, and its next index. */
    private MemtablePartition[] group;
    private int groupNext;
    private MemtablePartition pending;

    Walk(DecoratedKey from, boolean inclusive) {
      this.from = from;
      this.inclusive = inclusive;
      nodes[0] = root;
      if (from == null) {
        return;
      }
      // Start on the path of from's token: everything left of it is smaller.
      long bits = bits(from.token());
      int d = 0;
      while (true) {
        int i = index(bits, d);
        next[d] = i;
        Object o = slot(nodes[d], i);
        if (o instanceof Object[] inner && d < 15) {
          next[d] = i + 1;
          nodes[d + 1] = inner;
          d++;
        } else {
          break;
        }
      }
      depth = d;
    }

    /** Past the bound: the first partition at or after it ends the filtering. */
    private boolean accepts(MemtablePartition p) {
      if (from == null) {
        return true;
      }
      int c = Long.compare(p.token, from.token());
      if (c == 0) {
        c = from.key() == null ? 1 : Bytes.compare(p.key().key(), from.key());
      }
      if (c > 0 || (c == 0 && inclusive)) {
        from = null;
        return true;
      }
      return false;
    }

    @Override
    public boolean hasNext() {
      while (pending == null) {
        if (group != null) {
          if (groupNext < group.length) {
            MemtablePartition p = group[groupNext++];
            if (accepts(p)) {
              pending = p;
            }
            continue;
          }
          group = null;
        }
        Object[] node = nodes[depth];
        int i = next[depth];
        if (i == node.length) {
          if (depth == 0) {
            return false;
          }
          depth--;
          continue;
        }
        next[depth] = i + 1;
        Object o = slot(node, i);
        if (o == null) {
          continue;
        }
        // exact class tests, the partition first (most slots that are not null hold one):
        // "instanceof Object[]" on a partition takes the slower array subtype check
        Class<?> type = o.getClass();
        if (type == MemtablePartition.class) {
          MemtablePartition p = (MemtablePartition) o;
          if (from == null || accepts(p)) {
            pending = p;
          }
        } else if (type == Object[].class) {
          depth++;
          nodes[depth] = (Object[]) o;
          next[depth] = 0;
        } else {
          group = ((Collision) o).partitions();
          groupNext = 0;
        }
      }
      return true;
    }

    @Override
    public MemtablePartition next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      MemtablePartition p = pending;
      pending = null;
      return p;
    }
  }
}
