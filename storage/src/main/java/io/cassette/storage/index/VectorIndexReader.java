package io.cassette.storage.index;

import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * The vectors component of one SSTable: the graph, when the component has one, is loaded into
 * the heap at open (two int arrays); vectors are read from the file as a search visits them. A
 * component written at flush or compaction has no graph until {@link VectorGraphBuilds} adds
 * it: its searches score every vector (exact, a few ms per 100k vectors of 128 floats).
 * Thread-safe.
 */
final class VectorIndexReader extends ComponentReader {
  final int dims;
  final VectorSimilarity similarity;
  final long vectorsAt;
  /** Null while the component has no graph (maxDegree 0 in the file). */
  private final VectorGraph graph;

  VectorIndexReader(Path path) {
    super(path);
    IndexInput in = input();
    in.seek(bodyAt);
    dims = in.int4();
    similarity = VectorSimilarity.values()[in.byte1()];
    int maxDegree = in.int4(); // as built: components written with another degree stay readable
    if (maxDegree < 0 || maxDegree > 1024) {
      throw new io.cassette.storage.StorageException("index component " + path + " has graph degree " + maxDegree
          + " (expected: 0 to 1024)");
    }
    int entry = in.int4();
    vectorsAt = in.position();
    if (maxDegree == 0) {
      graph = null;
      return;
    }
    in.seek(vectorsAt + (long) rowCount * dims * 4);
    int[] degree = new int[rowCount];
    int[] neighbours = new int[rowCount * maxDegree];
    for (int i = 0; i < rowCount; i++) {
      degree[i] = in.int4();
      for (int k = 0; k < maxDegree; k++) {
        neighbours[i * maxDegree + k] = in.int4();
      }
    }
    graph = new VectorGraph(rowCount, maxDegree, degree, neighbours, entry);
  }

  /** Whether searches walk a graph (else they score every vector). */
  boolean hasGraph() {
    return graph != null;
  }

  /**
   * The {@code k} nearest rows, best first, scored exactly: found with a beam of {@code ef}
   * through the graph, or by scoring every vector while there is none.
   */
  VectorGraph.Scored[] search(float[] query, int k, int ef) {
    VectorGraph.Vectors vectors = vectorSource();
    if (graph == null) {
      return exhaustive(vectors, query, k);
    }
    return graph.search(vectors, similarity, query, k, ef, rowCount, new float[dims]);
  }

  private VectorGraph.Scored[] exhaustive(VectorGraph.Vectors vectors, float[] query, int k) {
    PriorityQueue<VectorGraph.Scored> best = new PriorityQueue<>((a, b) -> Float.compare(a.score(), b.score()));
    float[] v = new float[dims];
    for (int id = 0; id < rowCount; id++) {
      vectors.read(id, v);
      float s = similarity.score(query, v);
      if (best.size() < k) {
        best.add(new VectorGraph.Scored(id, s));
      } else if (s > best.peek().score()) {
        best.poll();
        best.add(new VectorGraph.Scored(id, s));
      }
    }
    VectorGraph.Scored[] out = best.toArray(new VectorGraph.Scored[0]);
    Arrays.sort(out, (a, b) -> Float.compare(b.score(), a.score()));
    return out;
  }

  /** The vectors as a graph build or search reads them (through the mapping). */
  VectorGraph.Vectors vectorSource() {
    FloatBuffer mapped = vectors();
    return new VectorGraph.Vectors() {
      @Override
      public int size() {
        return rowCount;
      }

      @Override
      public void read(int id, float[] out) {
        mapped.get(id * dims, out, 0, dims);
      }
    };
  }

  /**
   * The vectors, mapped: a search touches a few hundred of them at random, so they are read
   * through the page cache (off the heap, dropped by the OS under pressure) rather than one
   * read call each. Mapped once, on first use.
   */
  private FloatBuffer vectors() {
    FloatBuffer v = mappedVectors;
    if (v == null) {
      try {
        v = rowCount == 0 ? FloatBuffer.allocate(0)
            : channel.channel().map(FileChannel.MapMode.READ_ONLY, vectorsAt, (long) rowCount * dims * 4).asFloatBuffer();
      } catch (java.io.IOException e) {
        throw new io.cassette.storage.StorageException("cannot map the vectors of " + path + ": " + e, e);
      }
      mappedVectors = v;
    }
    return v;
  }

  private volatile FloatBuffer mappedVectors;

  long heapBytes() {
    return graph == null ? 0 : 4L * graph.degree.length + 4L * graph.neighbours.length;
  }
}
