package io.cassette.storage.index;

import java.util.Arrays;
import java.util.BitSet;
import java.util.PriorityQueue;

/**
 * A proximity graph over one segment's vectors (Vamana/DiskANN's single layer, as Cassandra's
 * jvector): each node keeps at most {@code maxDegree} neighbours chosen by robust pruning, a
 * search walks from the entry node keeping the {@code ef} best nodes seen. The graph is two int
 * arrays in the heap (4 * (maxDegree + 1) bytes a vector); vectors are read through a
 * {@link Vectors} source, so they may stay on disk. Built by one thread; searched by many.
 *
 * <p>Pruning compares true distances (euclidean length, 1 - cosine, 1 - dot), not the
 * similarity scores: Cassandra's euclidean score 1 / (1 + d^2) is near 1 apart for every pair
 * of distant vectors, so alpha never pruned and each node kept only its nearest neighbours
 * (no long edges: recall@10 0.75 on 128-d gaussians).
 */
final class VectorGraph {
  /**
   * Neighbours per node of a graph built now: 32 holds a 100k-vector graph in 13.2 MB of heap
   * and gives recall@10 >= 0.95 on 128-d gaussians; 16 (half the heap) stayed below 0.9.
   */
  static final int MAX_DEGREE = 32;
  /**
   * Candidates considered when inserting a node. At 20k gaussian 128-d vectors, 200 rather than
   * 100 raised recall@10 at a search beam of 640 from 0.951 to 0.963 for 1.2x the build's CPU
   * (most of a build was back-links, which do not depend on it).
   */
  static final int BUILD_BEAM = 200;
  /** Robust pruning's slack: above 1 keeps some longer edges, which shortens searches. */
  static final float ALPHA = 1.2f;

  /** Random access to a segment's vectors. */
  interface Vectors {
    int size();

    /** Fills {@code out} with vector {@code id}. */
    void read(int id, float[] out);
  }

  final int size;
  final int maxDegree;
  final int[] degree;
  final int[] neighbours;
  int entry;

  VectorGraph(int size, int maxDegree, int[] degree, int[] neighbours, int entry) {
    this.size = size;
    this.maxDegree = maxDegree;
    this.degree = degree;
    this.neighbours = neighbours;
    this.entry = entry;
  }

  /** Builds the graph of {@code vectors} by inserting them in order. */
  static VectorGraph build(Vectors vectors, VectorSimilarity sim, int dims) {
    return build(vectors, sim, dims, MAX_DEGREE, BUILD_BEAM, ALPHA, BUILD_PASSES, () -> true);
  }

  /**
   * As {@link #build(Vectors, VectorSimilarity, int)}, asking {@code wanted} every few hundred
   * nodes whether to go on; null if it said no (the segment went away meanwhile).
   */
  static VectorGraph build(Vectors vectors, VectorSimilarity sim, int dims, java.util.function.BooleanSupplier wanted) {
    return build(vectors, sim, dims, MAX_DEGREE, BUILD_BEAM, ALPHA, BUILD_PASSES, wanted);
  }

  /**
   * Vamana's build: every node inserted in order (its neighbours found by a search of the
   * nodes before it); with two passes, a second walk over all nodes searches the whole graph
   * again and re-prunes each node's neighbours with them, now with alpha's slack (the first
   * pass prunes strictly), which adds the long edges searches need.
   */
  static VectorGraph build(Vectors vectors, VectorSimilarity sim, int dims, int maxDegree, int beam, float alpha,
                           int passes) {
    return build(vectors, sim, dims, maxDegree, beam, alpha, passes, () -> true);
  }

  private static VectorGraph build(Vectors vectors, VectorSimilarity sim, int dims, int maxDegree, int beam,
                                   float alpha, int passes, java.util.function.BooleanSupplier wanted) {
    int n = vectors.size();
    VectorGraph g = new VectorGraph(n, maxDegree, new int[n], new int[n * maxDegree], 0);
    if (n == 0) {
      return g;
    }
    g.entry = g.medoid(vectors, sim, dims);
    for (int pass = 0; pass < passes; pass++) {
      Builder b = g.new Builder(vectors, sim, dims, passes > 1 && pass == 0 ? 1f : alpha);
      for (int i = pass == 0 ? 1 : 0; i < n; i++) {
        if ((i & 255) == 0 && !wanted.getAsBoolean()) {
          return null;
        }
        b.insert(i, beam, pass == 0 ? i : n);
      }
    }
    return g;
  }

  /**
   * Passes over the vectors when building (see {@link #build}): a second pass cost 1.5x the
   * build's CPU and did not raise recall on 128-d gaussians (0.956 vs 0.965 at ef 600, 20k).
   */
  static final int BUILD_PASSES = 1;

  /** A node and its score against the query (higher is nearer). */
  record Scored(int id, float score) {}

  /** The distance robust pruning compares (a metric, or near one), from the vectors. */
  static float distance(VectorSimilarity sim, float[] a, float[] b) {
    switch (sim) {
      case EUCLIDEAN:
        return (float) Math.sqrt(squaredDistance(a, b));
      case DOT_PRODUCT:
        return 1 - dot(a, b);
      default:
        return 2 * (1 - VectorSimilarity.COSINE.score(a, b)); // 1 - cos
    }
  }

  /**
   * |a - b|^2 in four sums, so that the adds do not wait on each other (a single sum is one chain
   * of 128 dependent adds). For pruning, which only compares them: the rounding of the last bits
   * differs from one sum's.
   */
  static float squaredDistance(float[] a, float[] b) {
    float d0 = 0;
    float d1 = 0;
    float d2 = 0;
    float d3 = 0;
    int i = 0;
    for (int n = a.length & ~3; i < n; i += 4) {
      float x0 = a[i] - b[i];
      float x1 = a[i + 1] - b[i + 1];
      float x2 = a[i + 2] - b[i + 2];
      float x3 = a[i + 3] - b[i + 3];
      d0 += x0 * x0;
      d1 += x1 * x1;
      d2 += x2 * x2;
      d3 += x3 * x3;
    }
    for (; i < a.length; i++) {
      float x = a[i] - b[i];
      d0 += x * x;
    }
    return (d0 + d1) + (d2 + d3);
  }

  /** a . b in four sums (see {@link #squaredDistance}). */
  static float dot(float[] a, float[] b) {
    float d0 = 0;
    float d1 = 0;
    float d2 = 0;
    float d3 = 0;
    int i = 0;
    for (int n = a.length & ~3; i < n; i += 4) {
      d0 += a[i] * b[i];
      d1 += a[i + 1] * b[i + 1];
      d2 += a[i + 2] * b[i + 2];
      d3 += a[i + 3] * b[i + 3];
    }
    for (; i < a.length; i++) {
      d0 += a[i] * b[i];
    }
    return (d0 + d1) + (d2 + d3);
  }

  /** Insertion state: scratch vectors so that a build allocates little per node. */
  private final class Builder {
    private final Vectors vectors;
    private final VectorSimilarity sim;
    private final float alpha;
    private final float[] v;
    private final float[] w;
    private final float[] x;
    private final float[] v2;
    private final float[][] kept;

    Builder(Vectors vectors, VectorSimilarity sim, int dims, float alpha) {
      this.vectors = vectors;
      this.sim = sim;
      this.alpha = alpha;
      this.v = new float[dims];
      this.w = new float[dims];
      this.x = new float[dims];
      this.v2 = new float[dims];
      this.kept = new float[maxDegree][dims];
    }

    /** Finds the neighbours of {@code node} among the nodes below {@code limit} (and its own). */
    void insert(int node, int beam, int limit) {
      vectors.read(node, v);
      Scored[] found = search(vectors, sim, v, beam, beam, limit, w);
      int had = degree[node];
      int[] ids = new int[found.length + had];
      float[] dist = new float[found.length + had];
      for (int k = 0; k < found.length; k++) {
        ids[k] = found[k].id();
      }
      System.arraycopy(neighbours, node * maxDegree, ids, found.length, had);
      for (int k = 0; k < ids.length; k++) {
        vectors.read(ids[k], w);
        dist[k] = distance(sim, v, w);
      }
      prune(node, ids, dist, ids.length);
      int base = node * maxDegree;
      for (int k = 0; k < degree[node]; k++) {
        link(neighbours[base + k], node);
      }
    }

    /**
     * Robust prune: of {@code count} candidates (any order; distances from {@code node}),
     * nearest first, keep one unless a kept neighbour is alpha times nearer to it than
     * {@code node} is.
     */
    private void prune(int node, int[] ids, float[] dist, int count) {
      Integer[] order = new Integer[count];
      for (int i = 0; i < count; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Float.compare(dist[a], dist[b]));
      int base = node * maxDegree;
      int n = 0;
      int last = -1;
      for (int o : order) {
        if (n == maxDegree) {
          break;
        }
        int c = ids[o];
        if (c == node || c == last) {
          continue;
        }
        vectors.read(c, w);
        boolean keep = true;
        for (int k = 0; k < n && keep; k++) {
          if (alpha * distance(sim, kept[k], w) <= dist[o]) {
            keep = false;
          }
        }
        if (keep) {
          System.arraycopy(w, 0, kept[n], 0, w.length);
          neighbours[base + n++] = c;
        }
        last = c;
      }
      degree[node] = n;
    }

    /** Adds the edge from -> to; when from is full, its neighbours and to are pruned again. */
    private void link(int from, int to) {
      int base = from * maxDegree;
      int d = degree[from];
      for (int k = 0; k < d; k++) {
        if (neighbours[base + k] == to) {
          return;
        }
      }
      if (d < maxDegree) {
        neighbours[base + d] = to;
        degree[from] = d + 1;
        return;
      }
      if (!linkByFullPrune) {
        linkDiverse(from, to, base, d);
        return;
      }
      vectors.read(from, x);
      int[] ids = new int[d + 1];
      float[] dist = new float[d + 1];
      for (int k = 0; k < d; k++) {
        ids[k] = neighbours[base + k];
        vectors.read(ids[k], w);
        dist[k] = distance(sim, x, w);
      }
      ids[d] = to;
      vectors.read(to, w);
      dist[d] = distance(sim, x, w);
      prune(from, ids, dist, d + 1);
    }

    /**
     * Adds to -> from's full neighbour list by robust pruning's rule without re-checking the pairs
     * already kept (they were, when the list was pruned): {@code to} is left out if a nearer
     * neighbour is alpha times nearer to it; else it goes in, the farther neighbours it is alpha
     * times nearer to leave, and if none did, the farthest. About 64 distances where the full prune
     * of 33 candidates computes up to 528 (half the build's CPU, 32 back-links per insert).
     */
    private void linkDiverse(int from, int to, int base, int d) {
      vectors.read(from, x);
      vectors.read(to, v2);
      float toDist = distance(sim, x, v2);
      float[] dist = new float[d];
      int farthest = 0;
      for (int k = 0; k < d; k++) {
        vectors.read(neighbours[base + k], kept[k]);
        dist[k] = distance(sim, x, kept[k]);
        if (dist[k] > dist[farthest]) {
          farthest = k;
        }
      }
      for (int k = 0; k < d; k++) {
        if (dist[k] < toDist && alpha * distance(sim, kept[k], v2) <= toDist) {
          return; // a nearer neighbour covers it
        }
      }
      int n = 0;
      for (int k = 0; k < d; k++) {
        boolean covered = dist[k] > toDist && alpha * distance(sim, v2, kept[k]) <= dist[k];
        if (!covered) {
          neighbours[base + n++] = neighbours[base + k];
        }
      }
      if (n == d) { // none covered: the farthest makes room
        System.arraycopy(neighbours, base + farthest + 1, neighbours, base + farthest, d - farthest - 1);
        n--;
      }
      neighbours[base + n++] = to;
      degree[from] = n;
    }
  }

  /**
   * Back-links into a full list by a full robust prune of its neighbours and the new one (the
   * build before 2026-12-02), rather than {@code linkDiverse}: for bench/ann-recall's comparison.
   */
  static boolean linkByFullPrune = false;

  /** The node nearest the mean of all vectors: a central entry point shortens every walk. */
  private int medoid(Vectors vectors, VectorSimilarity sim, int dims) {
    if (size == 0) {
      return 0;
    }
    float[] mean = new float[dims];
    float[] v = new float[dims];
    for (int i = 0; i < size; i++) {
      vectors.read(i, v);
      for (int d = 0; d < dims; d++) {
        mean[d] += v[d] / size;
      }
    }
    int best = 0;
    float bestScore = -Float.MAX_VALUE;
    for (int i = 0; i < size; i++) {
      vectors.read(i, v);
      float s = sim == VectorSimilarity.EUCLIDEAN ? VectorSimilarity.EUCLIDEAN.score(mean, v)
          : VectorSimilarity.COSINE.score(mean, v);
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    return best;
  }

  /**
   * The best {@code k} of the nodes below {@code limit} for {@code query}, best first, by a
   * beam search keeping {@code ef} candidates.
   */
  Scored[] search(Vectors vectors, VectorSimilarity sim, float[] query, int k, int ef, int limit, float[] scratch) {
    if (limit == 0) {
      return new Scored[0];
    }
    ef = Math.max(ef, k);
    BitSet visited = new BitSet(limit);
    PriorityQueue<Scored> frontier = new PriorityQueue<>((a, b) -> Float.compare(b.score, a.score));
    PriorityQueue<Scored> best = new PriorityQueue<>((a, b) -> Float.compare(a.score, b.score));
    int start = entry < limit ? entry : 0;
    vectors.read(start, scratch);
    Scored first = new Scored(start, sim.score(query, scratch));
    visited.set(start);
    frontier.add(first);
    best.add(first);
    while (!frontier.isEmpty()) {
      Scored c = frontier.poll();
      if (best.size() >= ef && c.score < best.peek().score) {
        break;
      }
      int base = c.id * maxDegree;
      for (int k2 = 0; k2 < degree[c.id]; k2++) {
        int nb = neighbours[base + k2];
        if (nb >= limit || visited.get(nb)) {
          continue;
        }
        visited.set(nb);
        vectors.read(nb, scratch);
        float s = sim.score(query, scratch);
        if (best.size() < ef || s > best.peek().score) {
          Scored e = new Scored(nb, s);
          frontier.add(e);
          best.add(e);
          if (best.size() > ef) {
            best.poll();
          }
        }
      }
    }
    Scored[] out = best.toArray(new Scored[0]);
    Arrays.sort(out, (a, b) -> Float.compare(b.score, a.score));
    return out.length > k ? Arrays.copyOf(out, k) : out;
  }
}
