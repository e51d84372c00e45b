package io.cassette.coordinator.ring.repair;

import io.cassette.coordinator.ring.Range;
import io.cassette.storage.StorageException;
import io.cassette.storage.io.ByteArrayReader;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.DataReader;
import java.util.ArrayList;
import java.util.List;

/**
 * A Merkle tree of one token range of one table on one replica, as Cassandra's repair builds
 * it: the range is cut into {@code 2^depth} leaves of equal token width; a leaf's hash is the
 * XOR of the 128-bit hashes of the partitions whose tokens fall in it, and an inner node's hash
 * is the XOR of its children's (Cassandra's {@code MerkleTree} does the same), so two replicas
 * holding equal data get equal trees whatever order they added partitions in. An empty leaf
 * is all zeros.
 *
 * <p>Memory is bounded by the depth: {@code 16 × 2^depth} bytes for the leaves (512 KiB at
 * {@link #MAX_DEPTH}), whatever the range holds. On the wire only the non-empty leaves travel:
 * {@code range start, end | depth | count | (leaf index varint, hash 16 bytes)...}.
 *
 * <p>Leaf {@code i} covers tokens {@code (boundary(i), boundary(i + 1)]} with
 * {@code boundary(i) = start + floor(width × i / 2^depth)}, computed exactly in unsigned
 * 128-bit arithmetic, so the sub-ranges repair streams are exactly the leaves that differ.
 * Not thread-safe.
 */
public final class MerkleTree {
  /**
   * The deepest tree built: 32,768 leaves, 512 KiB. Cassandra's default cap was 20 (and from
   * 4.0 a memory budget); on a 128 MB heap a tree per range in flight has to stay small, and
   * with 16 tokens a node a range of a 1 GB table holds ~20k partitions, ~1 per leaf here.
   */
  public static final int MAX_DEPTH = 15;
  static final int HASH_BYTES = 16;
  /**
   * 3: leaves hold the high 64 bits of storage's PartitionDigest, the low half 0 (Digest.db
   * version 2 stores 64 bits); 2 held all 128, 1 SHA-256 prefixes. A node of another format
   * cannot be compared with, so its tree is refused, not taken as different.
   */
  private static final int FORMAT = 3;

  private final Range range;
  private final int depth;
  /** Two longs per leaf: the XOR of the partitions' hashes. */
  private final long[] leaves;
  /** Ordered adds: the leaf the previous token fell in (tokens come in token order from a scan). */
  private int cursor;
  private long partitions;

  public MerkleTree(Range range, int depth) {
    if (depth < 0 || depth > MAX_DEPTH) {
      throw new IllegalArgumentException("depth: " + depth + " (expected: 0.." + MAX_DEPTH + ")");
    }
    this.range = range;
    this.depth = depth;
    this.leaves = new long[2 << depth];
  }

  public Range range() {
    return range;
  }

  public int depth() {
    return depth;
  }

  public int leafCount() {
    return 1 << depth;
  }

  /** Partitions added (by this node while validating; 0 for a decoded tree). */
  public long partitions() {
    return partitions;
  }

  /**
   * Adds one partition's hash. REQUIRES: {@code token} in the range, tokens in ascending order
   * (a scan's order); a token before the previous one still lands in the right leaf, slower.
   */
  public void add(long token, long hashHigh, long hashLow) {
    if (!range.contains(token)) {
      throw new IllegalArgumentException("token " + token + " outside " + range);
    }
    if (token <= boundary(cursor)) {
      cursor = 0;
    }
    while (cursor + 1 < leafCount() && token > boundary(cursor + 1)) {
      cursor++;
    }
    leaves[2 * cursor] ^= hashHigh;
    leaves[2 * cursor + 1] ^= hashLow;
    partitions++;
  }

  /** The lower (excluded) token bound of leaf {@code i}; {@code boundary(leafCount())} is the range's end. */
  long boundary(int i) {
    if (i >= leafCount()) {
      return range.end();
    }
    long width = range.end() - range.start(); // unsigned: the range never wraps
    return range.start() + mulShiftUnsigned(width, i, depth);
  }

  /** {@code floor(a × b / 2^shift)} for unsigned {@code a}, {@code 0 <= b < 2^31}, {@code shift < 64}. */
  private static long mulShiftUnsigned(long a, long b, int shift) {
    long low = a * b;
    long high = Math.multiplyHigh(a, b) + ((a >> 63) & b); // unsigned high word (b >= 0)
    if (shift == 0) {
      return low;
    }
    return (low >>> shift) | (high << (64 - shift));
  }

  /**
   * The token ranges where this tree and {@code other} (same range and depth) differ: the
   * differing leaves, neighbours merged, walked from the root so equal subtrees are skipped.
   */
  public List<Range> differences(MerkleTree other) {
    return ranges(differingLeaves(other));
  }

  /** The leaves where this tree and {@code other} (same range and depth) differ. */
  public java.util.BitSet differingLeaves(MerkleTree other) {
    if (!range.equals(other.range) || depth != other.depth) {
      throw new IllegalArgumentException("trees of different shapes: " + range + "/" + depth + " and "
          + other.range + "/" + other.depth);
    }
    java.util.BitSet out = new java.util.BitSet(leafCount());
    walk(other, depth, 0, out);
    return out;
  }

  /** The token ranges of {@code leaves}, neighbours merged, leaves narrower than one token left out. */
  public List<Range> ranges(java.util.BitSet leaves) {
    List<Range> out = new ArrayList<>();
    for (int i = leaves.nextSetBit(0); i >= 0; i = leaves.nextSetBit(i + 1)) {
      long lo = boundary(i);
      long hi = boundary(i + 1);
      if (lo == hi) {
        continue; // a leaf narrower than one token: nothing can be in it
      }
      if (!out.isEmpty() && out.get(out.size() - 1).end() == lo) {
        Range last = out.remove(out.size() - 1);
        out.add(new Range(last.start(), hi));
      } else {
        out.add(new Range(lo, hi));
      }
    }
    return out;
  }

  /** Compares the subtree at {@code level} levels above the leaves whose first leaf is {@code first}. */
  private void walk(MerkleTree other, int level, int first, java.util.BitSet out) {
    int span = 1 << level;
    if (equalHash(other, first, span)) {
      return;
    }
    if (level == 0) {
      out.set(first);
      return;
    }
    walk(other, level - 1, first, out);
    walk(other, level - 1, first + span / 2, out);
  }

  /** Whether the XOR of leaves {@code [first, first + span)} is the same in both trees. */
  private boolean equalHash(MerkleTree other, int first, int span) {
    long h1 = 0;
    long l1 = 0;
    long h2 = 0;
    long l2 = 0;
    for (int i = first; i < first + span; i++) {
      h1 ^= leaves[2 * i];
      l1 ^= leaves[2 * i + 1];
      h2 ^= other.leaves[2 * i];
      l2 ^= other.leaves[2 * i + 1];
    }
    return h1 == h2 && l1 == l2;
  }

  /** The root hash: the XOR of every leaf (all zeros for an empty range). */
  public long[] root() {
    long h = 0;
    long l = 0;
    for (int i = 0; i < leafCount(); i++) {
      h ^= leaves[2 * i];
      l ^= leaves[2 * i + 1];
    }
    return new long[] {h, l};
  }

  /** The tree on the wire: range, depth and the non-empty leaves. */
  public byte[] encode() {
    int nonEmpty = 0;
    for (int i = 0; i < leafCount(); i++) {
      if (leaves[2 * i] != 0 || leaves[2 * i + 1] != 0) {
        nonEmpty++;
      }
    }
    ByteArrayWriter out = new ByteArrayWriter(32 + nonEmpty * (HASH_BYTES + 3));
    out.writeByte(FORMAT);
    out.writeLong(range.start());
    out.writeLong(range.end());
    out.writeByte(depth);
    out.writeVarLong(partitions);
    out.writeVarInt(nonEmpty);
    for (int i = 0; i < leafCount(); i++) {
      if (leaves[2 * i] != 0 || leaves[2 * i + 1] != 0) {
        out.writeVarInt(i);
        out.writeLong(leaves[2 * i]);
        out.writeLong(leaves[2 * i + 1]);
      }
    }
    return out.toByteArray();
  }

  /** Reads what {@link #encode} wrote; a {@link StorageException} when it is malformed. */
  public static MerkleTree decode(byte[] bytes) {
    DataReader in = new ByteArrayReader(bytes);
    int format = in.readByte();
    if (format != FORMAT) {
      throw new StorageException("Merkle tree format " + format + " (expected: " + FORMAT + ")");
    }
    Range range = new Range(in.readLong(), in.readLong());
    int depth = in.readByte();
    if (depth < 0 || depth > MAX_DEPTH) {
      throw new StorageException("Merkle tree depth " + depth + " (expected: 0.." + MAX_DEPTH + ")");
    }
    MerkleTree t = new MerkleTree(range, depth);
    t.partitions = in.readVarLong();
    int n = in.readVarInt();
    if (n > t.leafCount()) {
      throw new StorageException("Merkle tree with " + n + " leaves (expected: <= " + t.leafCount() + ")");
    }
    for (int k = 0; k < n; k++) {
      int i = in.readVarInt();
      if (i < 0 || i >= t.leafCount()) {
        throw new StorageException("Merkle tree leaf " + i + " (expected: < " + t.leafCount() + ")");
      }
      t.leaves[2 * i] = in.readLong();
      t.leaves[2 * i + 1] = in.readLong();
    }
    return t;
  }
}
