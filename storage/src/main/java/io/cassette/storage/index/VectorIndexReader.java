package io.cassette.storage.index;

import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The vectors component of one SSTable: the graph is loaded into the heap at open (two int
 * arrays), vectors are read from the file as a search visits them. Thread-safe.
 */
final class VectorIndexReader extends ComponentReader {
  final int dims;
  final VectorSimilarity similarity;
  private final long vectorsAt;
  private final VectorGraph graph;

  VectorIndexReader(Path path) {
    super(path);
    IndexInput in = input();
    in.seek(bodyAt);
    dims = in.int4();
    similarity = VectorSimilarity.values()[in.byte1()];
    int maxDegree = in.int4(); // as built: components written with another degree stay readable
    if (maxDegree < 1 || maxDegree > 1024) {
      throw new io.cassette.storage.StorageException("index component " + path + " has graph degree " + maxDegree
          + " (expected: 1 to 1024)");
    }
    int entry = in.int4();
    vectorsAt = in.position();
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

  /** The {@code k} nearest rows found with a beam of {@code ef}, best first, scored exactly. */
  VectorGraph.Scored[] search(float[] query, int k, int ef) {
    FloatBuffer mapped = vectors();
    VectorGraph.Vectors vectors = new VectorGraph.Vectors() {
      @Override
      public int size() {
        return rowCount;
      }

      @Override
      public void read(int id, float[] out) {
        mapped.get(id * dims, out, 0, dims);
      }
    };
    return graph.search(vectors, similarity, query, k, ef, rowCount, new float[dims]);
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
    return 4L * graph.degree.length + 4L * graph.neighbours.length;
  }
}
