package io.cassette.storage.memtable;

import io.cassette.storage.Bytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The rows of a memtable partition that has more than one: packed rows ({@code byte[]}) by
 * clustering ({@code byte[]}, {@link Bytes#compare} order) in a B+ tree of small arrays, for
 * one writer at a time and any number of readers that never lock.
 *
 * <p>A node is one {@code Object[]} of pairs: a leaf holds {@code [clustering, row, ...]}, an
 * inner node {@code [first clustering, child, ...]} (a child's first clustering when it was
 * made; the first pair's stands for "everything smaller" too). Every array is exactly as long
 * as its pairs, so its heap bytes are known and counted exactly. Against the skip list it
 * replaces: one descent of about four binary searches over adjacent references where the skip
 * list compares some seventeen keys from scattered nodes (the HSET/ZADD profile of a 100,000-
 * member partition: half the CPU); a write that finds its row merges into it in the same
 * descent; 8 to 16 bytes a row (arrays a half to fully filled) against 36; in-order reads walk
 * arrays, not linked nodes.
 *
 * <p>Publication: a rewritten row is stored into its leaf's slot in place (release); a new row
 * copies its leaf (and, when the leaf splits, the nodes above it up to one with room) and
 * publishes the copy with one release store into the parent's slot or the root. Keys in a
 * published array never change. A reader that loaded an array sees a whole one: every row in it
 * before or after a write. Iterators re-descend from the root at each leaf, so they miss at most
 * rows added to the leaf they are in.
 */
final class RowTree {
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
  private static final VarHandle ROOT;

  static {
    try {
      ROOT = MethodHandles.lookup().findVarHandle(RowTree.class, "root", Object[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Pairs a node holds at most. 32: a leaf's binary search is five compares and its copy a few hundred bytes. */
  static final int MAX = 32;
  /**
   * Heap bytes of this object: header 12, root, size and the writer's three position fields, 4
   * each: 32 (measured: 100,000 two-row partitions, bench results 2026-12-02-memrows).
   */
  static final int TREE_BYTES = 32;

  /** Heap bytes of a node holding {@code pairs} pairs (16-byte header, 4-byte compressed references). */
  static long nodeBytes(int pairs) {
    return 16L + 8L * pairs;
  }

  private volatile Object[] root;
  /** Rows held; written under the writer's lock, read without it (a snapshot). */
  private volatile int size;
  // The writer's position after find(): the leaf, its parent (null: the leaf is the root), and
  // the leaf's pair index in the parent. Only the writer, holding the partition's lock, uses them.
  private Object[] foundLeaf;
  private Object[] foundParent;
  private int foundSlot;

  /** A tree of two rows, {@code a} before {@code b}. */
  RowTree(byte[] clusteringA, byte[] rowA, byte[] clusteringB, byte[] rowB) {
    root = new Object[] {clusteringA, rowA, clusteringB, rowB};
    size = 2;
  }

  /** Heap bytes of a new tree of two rows (beyond the rows' own arrays). */
  static long twoRowBytes() {
    return TREE_BYTES + nodeBytes(2);
  }

  int size() {
    return size;
  }

  private static boolean isLeaf(Object[] node) {
    return !(node[1] instanceof Object[]);
  }

  private static Object slot(Object[] node, int i) {
    return SLOT.getAcquire(node, i);
  }

  /** The pair in an inner node whose child may hold {@code key}: the last with a first key at most key (or the first). */
  private static int child(Object[] node, byte[] key) {
    int lo = 1;
    int hi = (node.length >> 1) - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compare((byte[]) node[mid << 1], key) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return lo - 1;
  }

  /** The pair of {@code key} in a leaf, or -(insertion point) - 1. */
  private static int search(Object[] leaf, byte[] key) {
    int lo = 0;
    int hi = (leaf.length >> 1) - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Bytes.compare((byte[]) leaf[mid << 1], key);
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

  /** The packed row of {@code clustering}, or null. */
  byte[] get(byte[] clustering) {
    Object[] node = root;
    while (!isLeaf(node)) {
      node = (Object[]) slot(node, (child(node, clustering) << 1) + 1);
    }
    int i = search(node, clustering);
    return i >= 0 ? (byte[]) slot(node, (i << 1) + 1) : null;
  }

  /**
   * The packed row of the empty clustering (a static row), or null: it sorts first, so it is the
   * first pair of the leftmost leaf, found without a comparison (reads ask on every page).
   */
  byte[] staticRow() {
    Object[] node = root;
    while (!isLeaf(node)) {
      node = (Object[]) slot(node, 1);
    }
    return ((byte[]) node[0]).length == 0 ? (byte[]) slot(node, 1) : null;
  }

  /**
   * Writer only: finds where {@code clustering} is or goes and remembers it for {@link #replace}
   * or {@link #insert}; returns its pair index in the leaf or -(insertion point) - 1.
   */
  int find(byte[] clustering) {
    Object[] parent = null;
    int slot = 0;
    Object[] node = root;
    while (!isLeaf(node)) {
      parent = node;
      slot = child(node, clustering);
      node = (Object[]) node[(slot << 1) + 1];
    }
    foundLeaf = node;
    foundParent = parent;
    foundSlot = slot;
    return search(node, clustering);
  }

  /** Writer only: the row at {@code found} (a pair index {@link #find} returned). */
  byte[] rowAt(int found) {
    return (byte[]) foundLeaf[(found << 1) + 1];
  }

  /** Writer only: replaces the row at {@code found}, in place. */
  void replace(int found, byte[] row) {
    SLOT.setRelease(foundLeaf, (found << 1) + 1, row);
  }

  /**
   * Writer only: adds a row at the insertion point {@link #find} returned ({@code found} as it
   * returned it); returns the heap bytes the tree's nodes grew by.
   */
  long insert(int found, byte[] clustering, byte[] row) {
    int at = -found - 1;
    Object[] leaf = foundLeaf;
    int pairs = leaf.length >> 1;
    long grew;
    if (pairs < MAX) {
      Object[] copy = inserted(leaf, at, clustering, row);
      if (foundParent == null) {
        ROOT.setRelease(this, copy);
      } else {
        SLOT.setRelease(foundParent, (foundSlot << 1) + 1, copy);
      }
      grew = nodeBytes(pairs + 1) - nodeBytes(pairs);
    } else {
      grew = insertSplitting(clustering, row);
    }
    size = size + 1;
    foundLeaf = null;
    foundParent = null;
    return grew;
  }

  /** {@code node} with the pair (key, value) at pair index {@code at}. */
  private static Object[] inserted(Object[] node, int at, Object key, Object value) {
    Object[] copy = new Object[node.length + 2];
    System.arraycopy(node, 0, copy, 0, at << 1);
    copy[at << 1] = key;
    copy[(at << 1) + 1] = value;
    System.arraycopy(node, at << 1, copy, (at << 1) + 2, node.length - (at << 1));
    return copy;
  }

  /**
   * The rare case: the leaf is full. Descends again keeping the path, splits the leaf and every
   * full node above it, and publishes the lowest node that changed, in one store.
   */
  private long insertSplitting(byte[] clustering, byte[] row) {
    Object[][] path = new Object[16][];
    int[] slots = new int[16];
    int depth = 0;
    Object[] node = root;
    while (!isLeaf(node)) {
      path[depth] = node;
      slots[depth] = child(node, clustering);
      node = (Object[]) node[(slots[depth] << 1) + 1];
      depth++;
    }
    int at = -search(node, clustering) - 1;
    Object[] full = inserted(node, at, clustering, row);
    long grew = -nodeBytes(node.length >> 1);
    // Split in two; a row added at the end of the leaf (ascending clusterings, the common time
    // series) leaves the left one full rather than half empty.
    int leftPairs = at == (node.length >> 1) ? MAX : (MAX + 1) / 2;
    Object[] left = java.util.Arrays.copyOfRange(full, 0, leftPairs << 1);
    Object[] right = java.util.Arrays.copyOfRange(full, leftPairs << 1, full.length);
    grew += nodeBytes(leftPairs) + nodeBytes((full.length >> 1) - leftPairs);
    while (true) {
      if (depth == 0) {
        ROOT.setRelease(this, new Object[] {left[0], left, right[0], right});
        return grew + nodeBytes(2);
      }
      depth--;
      Object[] parent = path[depth];
      int s = slots[depth];
      int parentPairs = parent.length >> 1;
      // the parent with left in place of the split child and right after it
      Object[] grown = inserted(parent, s + 1, right[0], right);
      grown[(s << 1) + 1] = left;
      grew -= nodeBytes(parentPairs);
      if (parentPairs < MAX) {
        grew += nodeBytes(parentPairs + 1);
        if (depth == 0) {
          ROOT.setRelease(this, grown);
        } else {
          SLOT.setRelease(path[depth - 1], (slots[depth - 1] << 1) + 1, grown);
        }
        return grew;
      }
      int half = (MAX + 1) / 2;
      left = java.util.Arrays.copyOfRange(grown, 0, half << 1);
      right = java.util.Arrays.copyOfRange(grown, half << 1, grown.length);
      grew += nodeBytes(half) + nodeBytes((grown.length >> 1) - half);
    }
  }

  /** Heap bytes of this tree and its nodes, counted by walking them (for tests of the accounting). */
  long walkedBytes() {
    return TREE_BYTES + walkedBytes(root);
  }

  private static long walkedBytes(Object[] node) {
    long bytes = nodeBytes(node.length >> 1);
    if (!isLeaf(node)) {
      for (int i = 1; i < node.length; i += 2) {
        bytes += walkedBytes((Object[]) node[i]);
      }
    }
    return bytes;
  }

  /**
   * Rows in clustering order from {@code from} (inclusive or not); {@code from} null: from the first.
   * Weakly consistent: see the class comment.
   */
  Cursor ascending(byte[] from, boolean inclusive) {
    return new Cursor(from, inclusive, false);
  }

  /** Rows in reverse clustering order from below {@code upper} (exclusive); null: from the last. */
  Cursor descending(byte[] upper) {
    return new Cursor(upper, false, true);
  }

  /** A position in the tree, moved by {@link #advance}; {@link #clustering} and {@link #row} read the current pair. */
  final class Cursor {
    private final boolean reverse;
    private Object[] leaf;
    /** The current pair in leaf; before advance(), the next one to return. */
    private int pos;
    private boolean started;
    /** Ascending: the first key of the next leaf (null: none); descending: whether a leaf lies to the left. */
    private byte[] nextBound;
    private boolean leftExists;
    private byte[] lastKey;

    Cursor(byte[] from, boolean inclusive, boolean reverse) {
      this.reverse = reverse;
      if (reverse) {
        seekBelow(from);
      } else {
        seekFrom(from, inclusive);
      }
    }

    /** Ascending: to the first pair at or after {@code key} (after it, if not inclusive; null: the first). */
    private void seekFrom(byte[] key, boolean inclusive) {
      nextBound = null;
      Object[] node = root;
      while (!isLeaf(node)) {
        int c = key == null ? 0 : child(node, key);
        if (c < (node.length >> 1) - 1) {
          nextBound = (byte[]) node[(c + 1) << 1];
        }
        node = (Object[]) slot(node, (c << 1) + 1);
      }
      leaf = node;
      if (key == null) {
        pos = 0;
      } else {
        int i = search(node, key);
        pos = i >= 0 ? (inclusive ? i : i + 1) : -i - 1;
      }
    }

    /** Descending: to the last pair before {@code key} (null: the last of all). */
    private void seekBelow(byte[] key) {
      leftExists = false;
      Object[] node = root;
      while (!isLeaf(node)) {
        int c;
        if (key == null) {
          c = (node.length >> 1) - 1;
        } else {
          // the last child whose first key is below key (the first child: everything smaller)
          int lo = 1;
          int hi = (node.length >> 1) - 1;
          while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.compare((byte[]) node[mid << 1], key) < 0) {
              lo = mid + 1;
            } else {
              hi = mid - 1;
            }
          }
          c = lo - 1;
        }
        if (c > 0) {
          leftExists = true;
        }
        node = (Object[]) slot(node, (c << 1) + 1);
      }
      leaf = node;
      if (key == null) {
        pos = (node.length >> 1) - 1;
      } else {
        int i = search(node, key);
        pos = (i >= 0 ? i : -i - 1) - 1;
      }
    }

    /** Moves to the next pair; false at the end. */
    boolean advance() {
      if (started) {
        pos += reverse ? -1 : 1;
      }
      started = true;
      while (true) {
        if (reverse ? pos >= 0 : pos < (leaf.length >> 1)) {
          lastKey = (byte[]) leaf[pos << 1];
          return true;
        }
        if (reverse) {
          if (!leftExists) {
            return false;
          }
          // the leaf this one is now (it may have grown), then the one on its left
          seekBelow((byte[]) leaf[0]);
        } else {
          byte[] bound = nextBound;
          if (lastKey != null) {
            seekFrom(lastKey, false); // rows added to this leaf since it was loaded
            if (pos < (leaf.length >> 1)) {
              continue;
            }
            bound = nextBound;
          }
          if (bound == null) {
            return false;
          }
          seekFrom(bound, true);
        }
      }
    }

    byte[] clustering() {
      return lastKey;
    }

    byte[] row() {
      return (byte[]) slot(leaf, (pos << 1) + 1);
    }
  }
}
