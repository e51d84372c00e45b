package io.cassette.storage.index;

import io.cassette.bench.AnnData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * One vector graph, offline (bench/ann-recall): builds {@link VectorGraph} over {@code n} gaussian
 * vectors of {@code dims} floats (bench/sai's data: seed 3, N(0, 1) each float) read through a
 * big-endian mapping as {@link VectorIndexReader} reads them, then answers gaussian queries with
 * several search beams: recall@10 against an exact ranking and thread CPU per query. With
 * {@code -Dann.segments=a,b,...} the vectors are split into segments of those sizes, each with its
 * own graph, searched one after the other and merged as TableIndexes.nearest does.
 *
 * <p>Build settings come from -D options (defaults: the graph's own): ann.degree, ann.buildBeam,
 * ann.alpha, ann.passes; ann.efs the search beams (default 640), ann.queries (default 200),
 * ann.sim (euclidean). Figures on a loaded machine are ratios within one run.
 */
public final class AnnRecallHarness {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private AnnRecallHarness() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int dims = args.length > 1 ? Integer.parseInt(args[1]) : 128;
    int degree = Integer.getInteger("ann.degree", VectorGraph.MAX_DEGREE);
    int buildBeam = Integer.getInteger("ann.buildBeam", VectorGraph.BUILD_BEAM);
    float alpha = Float.parseFloat(System.getProperty("ann.alpha", Float.toString(VectorGraph.ALPHA)));
    int passes = Integer.getInteger("ann.passes", VectorGraph.BUILD_PASSES);
    int queries = Integer.getInteger("ann.queries", 200);
    VectorSimilarity sim = VectorSimilarity.valueOf(System.getProperty("ann.sim", "euclidean").toUpperCase(Locale.ROOT));
    int[] efs = Arrays.stream(System.getProperty("ann.efs", "640").split(",")).mapToInt(Integer::parseInt).toArray();
    int[] segments = Arrays.stream(System.getProperty("ann.segments", Integer.toString(n)).split(","))
        .mapToInt(Integer::parseInt).toArray();
    if (Arrays.stream(segments).sum() != n) {
      throw new IllegalArgumentException("segments " + Arrays.toString(segments) + " do not add up to " + n);
    }

    VectorGraph.linkByFullPrune = Boolean.getBoolean("ann.fullPrune");
    float[][] data = AnnData.gaussian(new Random(3), n, dims);
    Path dir = Files.createTempDirectory("ann-recall");
    VectorGraph.Vectors[] sources = new VectorGraph.Vectors[segments.length];
    VectorGraph[] graphs = new VectorGraph[segments.length];
    int[] firstId = new int[segments.length];
    long buildCpu = 0;
    long heap = 0;
    try {
      int at = 0;
      for (int s = 0; s < segments.length; s++) {
        firstId[s] = at;
        sources[s] = mapped(dir.resolve("seg" + s), Arrays.copyOfRange(data, at, at + segments[s]), dims);
        at += segments[s];
        long c0 = THREADS.getCurrentThreadCpuTime();
        graphs[s] = VectorGraph.build(sources[s], sim, dims, degree, buildBeam, alpha, passes);
        buildCpu += THREADS.getCurrentThreadCpuTime() - c0;
        heap += 4L * graphs[s].degree.length + 4L * graphs[s].neighbours.length;
      }
      long edges = 0;
      for (VectorGraph g : graphs) {
        for (int d : g.degree) {
          edges += d;
        }
      }
      System.out.printf(Locale.ROOT, "n %,d dims %d segments %s degree %d buildBeam %d alpha %.2f passes %d%s:"
              + " build %.1f s CPU (%.0f us/vector), mean degree %.1f, heap %.0f B/vector%n", n, dims,
          Arrays.toString(segments), degree, buildBeam, alpha, passes,
          VectorGraph.linkByFullPrune ? " (back-links by a full prune)" : "", buildCpu / 1e9, buildCpu / 1e3 / n,
          edges / (double) n, heap / (double) n);

      Random qr = new Random(4);
      float[][] qs = new float[queries][];
      int[][] truth = new int[queries][];
      for (int i = 0; i < queries; i++) {
        qs[i] = AnnData.gaussian(qr, dims, null);
        truth[i] = AnnData.exactNearest(data, qs[i], sim, 10);
      }
      // warm the search code before timing
      for (int i = 0; i < Math.min(queries, 50); i++) {
        search(graphs, sources, firstId, sim, qs[i], efs[0], dims);
      }
      for (int ef : efs) {
        double recall = 0;
        long c0 = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < queries; i++) {
          int[] got = search(graphs, sources, firstId, sim, qs[i], ef, dims);
          Set<Integer> g = new HashSet<>();
          for (int id : got) {
            g.add(id);
          }
          int hit = 0;
          for (int id : truth[i]) {
            hit += g.contains(id) ? 1 : 0;
          }
          recall += hit / 10.0;
        }
        double cpuUs = (THREADS.getCurrentThreadCpuTime() - c0) / 1e3 / queries;
        System.out.printf(Locale.ROOT, "  ef %4d: recall@10 %.3f, %6.0f us CPU/query%n", ef, recall / queries, cpuUs);
      }
    } finally {
      io.cassette.storage.io.FileTree.delete(dir);
    }
  }

  /** Each segment's graph searched with {@code ef}, the best 10 of all, as global ids. */
  private static int[] search(VectorGraph[] graphs, VectorGraph.Vectors[] sources, int[] firstId, VectorSimilarity sim,
                              float[] q, int ef, int dims) {
    int total = 0;
    VectorGraph.Scored[][] found = new VectorGraph.Scored[graphs.length][];
    for (int s = 0; s < graphs.length; s++) {
      found[s] = graphs[s].search(sources[s], sim, q, 10, ef, graphs[s].size, new float[dims]);
      total += found[s].length;
    }
    long[] all = new long[total];
    float[] score = new float[total];
    Integer[] order = new Integer[total];
    int k = 0;
    for (int s = 0; s < graphs.length; s++) {
      for (VectorGraph.Scored sc : found[s]) {
        all[k] = firstId[s] + sc.id();
        score[k] = sc.score();
        order[k] = k;
        k++;
      }
    }
    Arrays.sort(order, (a, b) -> Float.compare(score[b], score[a]));
    int[] out = new int[Math.min(10, total)];
    for (int i = 0; i < out.length; i++) {
      out[i] = (int) all[order[i]];
    }
    return out;
  }

  /** The vectors in a file, mapped big-endian as a vectors component holds them. */
  private static VectorGraph.Vectors mapped(Path file, float[][] vectors, int dims) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(vectors.length * dims * 4);
    for (float[] v : vectors) {
      for (float f : v) {
        b.putFloat(f);
      }
    }
    b.flip();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.READ)) {
      while (b.hasRemaining()) {
        ch.write(b);
      }
      FloatBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, (long) vectors.length * dims * 4).asFloatBuffer();
      int size = vectors.length;
      return new VectorGraph.Vectors() {
        @Override
        public int size() {
          return size;
        }

        @Override
        public void read(int id, float[] out) {
          m.get(id * dims, out, 0, dims);
        }
      };
    }
  }

}
