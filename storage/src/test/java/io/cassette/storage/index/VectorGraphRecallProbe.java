package io.cassette.storage.index;

import java.util.Locale;
import java.util.Random;

/**
 * Tuning probe (not a test): builds a graph over {@code n} gaussian vectors in memory and
 * prints recall@10 of its searches against an exact ranking, per search beam.
 * {@code java -cp storage/target/classes:storage/target/test-classes io.cassette.storage.index.VectorGraphRecallProbe
 * n dims degree buildBeam alpha similarity}
 */
public final class VectorGraphRecallProbe {
  public static void main(String[] args) {
    int n = Integer.parseInt(args[0]);
    int dims = Integer.parseInt(args[1]);
    int degree = Integer.parseInt(args[2]);
    int beam = Integer.parseInt(args[3]);
    float alpha = Float.parseFloat(args[4]);
    VectorSimilarity sim = VectorSimilarity.valueOf(args.length > 5 ? args[5] : "EUCLIDEAN");
    int passes = args.length > 6 ? Integer.parseInt(args[6]) : VectorGraph.BUILD_PASSES;
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    Random random = new Random(42);
    float[][] data = new float[n][dims];
    for (float[] v : data) {
      for (int d = 0; d < dims; d++) {
        v[d] = (float) random.nextGaussian();
      }
    }
    VectorGraph.Vectors vectors = new VectorGraph.Vectors() {
      public int size() {
        return n;
      }

      public void read(int id, float[] out) {
        System.arraycopy(data[id], 0, out, 0, dims);
      }
    };
    long t0 = cpu.getCurrentThreadCpuTime();
    VectorGraph g = VectorGraph.build(vectors, sim, dims, degree, beam, alpha, passes);
    double buildS = (cpu.getCurrentThreadCpuTime() - t0) / 1e9;
    int queries = 100;
    float[][] qs = new float[queries][dims];
    int[][] exact = new int[queries][10];
    for (int q = 0; q < queries; q++) {
      for (int d = 0; d < dims; d++) {
        qs[q][d] = (float) random.nextGaussian();
      }
      float[] best = new float[10];
      java.util.Arrays.fill(best, -Float.MAX_VALUE);
      int[] ids = exact[q];
      for (int i = 0; i < n; i++) {
        float s = sim.score(qs[q], data[i]);
        if (s > best[9]) {
          int j = 9;
          while (j > 0 && best[j - 1] < s) {
            best[j] = best[j - 1];
            ids[j] = ids[j - 1];
            j--;
          }
          best[j] = s;
          ids[j] = i;
        }
      }
    }
    System.out.printf(Locale.ROOT, "n=%d dims=%d degree=%d beam=%d alpha=%.2f %s: passes=%d build %.1f s CPU%n", n, dims, degree,
        beam, alpha, sim, passes, buildS);
    for (int ef : new int[] {100, 200, 300, 400, 600}) {
      double recall = 0;
      long t1 = cpu.getCurrentThreadCpuTime();
      for (int q = 0; q < queries; q++) {
        VectorGraph.Scored[] got = g.search(vectors, sim, qs[q], 10, ef, n, new float[dims]);
        for (VectorGraph.Scored s : got) {
          for (int e : exact[q]) {
            if (e == s.id()) {
              recall += 0.1 / queries;
            }
          }
        }
      }
      System.out.printf(Locale.ROOT, "  ef=%d recall@10 %.3f, %.2f ms CPU/query%n", ef, recall,
          (cpu.getCurrentThreadCpuTime() - t1) / 1e6 / queries);
    }
  }
}
