package io.cassette.storage.index;

import java.util.Arrays;
import java.util.BitSet;
import java.util.PriorityQueue;

/**
 * A proximity graph over one segment's vectors (Vamana/DiskANN's single layer, as Cassandra's
 * jvector): each node keeps at most {@link #MAX_DEGREE} neighbours chosen by robust pruning,
 * a search walks from the entry node keeping the {@code ef} best nodes seen. The graph is two
 * int arrays in the heap (4 * (MAX_DEGREE + 1) bytes a vector); vectors are read through a
 * {@link Vectors} source, so they may stay on disk. Built by one thread; searched by many.
 */
final class VectorGraph {
  /** Neighbours per node: 16 keeps a 100k-vector graph at 6.8 MB of heap. */
  static final int MAX_DEGREE = 16;
  /** Candidates considered when inserting a node. */
  static final int BUILD_BEAM = 64;
  /** Robust pruning's slack: above 1 keeps some longer edges, which shortens searches. */
  static final float ALPHA = 1.2f;

  /** Random access to a segment's vectors. */
  interface Vectors {
    int size();

    /** Fills {@code out} with vector {@code id}. */
    void read(int id, float[] out);
  }

  final int size;
  final int[] degree;
  final int[] neighbours;
  int entry;

  VectorGraph(int size, int[] degree, int[] neighbours, int entry) {
    this.size = size;
    this.degree = degree;
    this.neighbours = neighbours;
    this.entry = entry;
  }

  /** Builds the graph of {@code vectors} by inserting them in order. */
  static VectorGraph build(Vectors vectors, VectorSimilarity sim, int dims) {
    int n = vectors.size();
    VectorGraph g = new VectorGraph(n, new int[n], new int[n * MAX_DEGREE], 0);
    float[] v = new float[dims];
    float[] w = new float[dims];
    float[] x = new float[dims];
    for (int i = 1; i < n; i++) {
      vectors.read(i, v);
      Scored[] found = g.search(vectors, sim, v, BUILD_BEAM, BUILD_BEAM, i, w);
      int kept = g.prune(vectors, sim, i, v, found, w, x);
      for (int k = 0; k < kept; k++) {
        g.link(vectors, sim, g.neighbours[i * MAX_DEGREE + k], i, w, x);
      }
    }
    g.entry = g.medoid(vectors, sim, dims);
    return g;
  }

  /** A node and its score against the query (higher is nearer). */
  record Scored(int id, float score) {}

  private static float distance(float score) {
    return 1 - score;
  }

  /** Robust prune: keep a candidate unless a kept neighbour is much nearer to it than node is. */
  private int prune(Vectors vectors, VectorSimilarity sim, int node, float[] nodeVec, Scored[] candidates,
                    float[] a, float[] b) {
    int kept = 0;
    int base = node * MAX_DEGREE;
    for (Scored c : candidates) {
      if (kept == MAX_DEGREE) {
        break;
      }
      if (c.id == node) {
        continue;
      }
      vectors.read(c.id, a);
      float dNode = distance(c.score);
      boolean keep = true;
      for (int k = 0; k < kept && keep; k++) {
        vectors.read(neighbours[base + k], b);
        if (ALPHA * distance(sim.score(a, b)) <= dNode) {
          keep = false;
        }
      }
      if (keep) {
        neighbours[base + kept++] = c.id;
      }
    }
    degree[node] = kept;
    return kept;
  }

  /** Adds the edge from -> to; when from is full, replaces its farthest neighbour if to is nearer. */
  private void link(Vectors vectors, VectorSimilarity sim, int from, int to, float[] a, float[] b) {
    int base = from * MAX_DEGREE;
    if (degree[from] < MAX_DEGREE) {
      neighbours[base + degree[from]++] = to;
      return;
    }
    vectors.read(from, a);
    vectors.read(to, b);
    float toScore = sim.score(a, b);
    int worst = -1;
    float worstScore = toScore;
    for (int k = 0; k < MAX_DEGREE; k++) {
      vectors.read(neighbours[base + k], b);
      float s = sim.score(a, b);
      if (s < worstScore) {
        worstScore = s;
        worst = k;
      }
    }
    if (worst >= 0) {
      neighbours[base + worst] = to;
    }
  }

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
      int base = c.id * MAX_DEGREE;
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
