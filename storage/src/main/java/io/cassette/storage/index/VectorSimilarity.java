package io.cassette.storage.index;

/**
 * Cassandra 5.0's vector similarity functions, as scores where higher is nearer (the values
 * its {@code similarity_*} CQL functions return): cosine (1 + cos) / 2, dot product
 * (1 + a.b) / 2, euclidean 1 / (1 + |a - b|^2).
 */
public enum VectorSimilarity {
  COSINE, DOT_PRODUCT, EUCLIDEAN;

  public float score(float[] a, float[] b) {
    switch (this) {
      case DOT_PRODUCT: {
        float dot = 0;
        for (int i = 0; i < a.length; i++) {
          dot += a[i] * b[i];
        }
        return (1 + dot) / 2;
      }
      case EUCLIDEAN: {
        float d = 0;
        for (int i = 0; i < a.length; i++) {
          float x = a[i] - b[i];
          d += x * x;
        }
        return 1 / (1 + d);
      }
      default: {
        float dot = 0;
        float na = 0;
        float nb = 0;
        for (int i = 0; i < a.length; i++) {
          dot += a[i] * b[i];
          na += a[i] * a[i];
          nb += b[i] * b[i];
        }
        float cos = (float) (dot / Math.sqrt((double) na * (double) nb));
        return (1 + cos) / 2; // in float, as Cassandra's similarity_cosine
      }
    }
  }

  /** The vector a vector term holds: {@code dimensions} big-endian IEEE floats. */
  public static float[] floats(byte[] term) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(term);
    float[] v = new float[term.length / 4];
    for (int i = 0; i < v.length; i++) {
      v[i] = b.getFloat();
    }
    return v;
  }
}
