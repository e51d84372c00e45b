package io.cassette.bench;

import io.cassette.storage.index.VectorSimilarity;
import java.util.Arrays;
import java.util.Random;

/**
 * The data of the ANN benchmarks (bench/sai's SaiBenchmark, bench/ann-recall's
 * AnnRecallHarness), so both measure the same kind of vectors: each dimension drawn from a
 * standard normal distribution, around a centre or the origin, from the caller's seeded
 * {@link Random} (the same seed gives the same vectors, run after run); and the exact nearest
 * neighbours, by scoring every vector, that recall is measured against. Compiled with each of
 * them by its script, so it needs only the storage module.
 */
public final class AnnData {
  private AnnData() {}

  /** One vector of {@code dims} N(0, 1) floats, plus {@code centre} (null: around the origin). */
  public static float[] gaussian(Random random, int dims, float[] centre) {
    float[] v = new float[dims];
    for (int d = 0; d < dims; d++) {
      v[d] = centre == null ? (float) random.nextGaussian() : (float) random.nextGaussian() + centre[d];
    }
    return v;
  }

  /** {@code count} vectors around the origin, drawn one after the other. */
  public static float[][] gaussian(Random random, int count, int dims) {
    float[][] out = new float[count][];
    for (int i = 0; i < count; i++) {
      out[i] = gaussian(random, dims, null);
    }
    return out;
  }

  /** The indexes in {@code data} of the {@code k} vectors most similar to {@code q}, best first (ties: lower first). */
  public static int[] exactNearest(float[][] data, float[] q, VectorSimilarity sim, int k) {
    Integer[] ids = new Integer[data.length];
    float[] scores = new float[data.length];
    for (int i = 0; i < data.length; i++) {
      ids[i] = i;
      scores[i] = sim.score(q, data[i]);
    }
    Arrays.sort(ids, (a, b) -> Float.compare(scores[b], scores[a]));
    int[] out = new int[Math.min(k, ids.length)];
    for (int i = 0; i < out.length; i++) {
      out[i] = ids[i];
    }
    return out;
  }
}
