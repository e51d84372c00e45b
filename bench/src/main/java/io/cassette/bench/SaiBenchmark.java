package io.cassette.bench;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.cql.ClientState;
import io.cassette.cql.Consistency;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.Table;
import io.cassette.storage.index.TableIndexes;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * Storage-attached indexes and vector search, in-process through the CQL layer (no network):
 *
 * <ol>
 * <li>SAI: {@code rows} rows (id int key, n int random, t text of 1000 values, and m, u:
 *     unindexed copies of n and t); after a flush, indexes on n and t are built. Query CPU and
 *     wall time for {@code n = ?}, {@code n >= ? AND n < ?} (about rows/10,000 rows) and
 *     {@code t = ?} (rows/1000 rows) against the same restrictions on the copies with ALLOW
 *     FILTERING (a full scan); index bytes on disk against the table's.</li>
 * <li>ANN: {@code vectors} random vectors of {@code dims} floats (gaussian, or clustered
 *     with {@code -Dbench.clustered=true}), indexed with the given similarity; recall@10 of
 *     {@code ORDER BY v ANN OF ? LIMIT 10} against an exact ranking, query CPU and wall time,
 *     the graphs' heap and the heap in use after a GC. The graph is built after the flush, by
 *     the index's graph thread: queries are timed while it builds (every vector scored) and
 *     after; another vectors/10 writes and their flush are timed while it builds.</li>
 * </ol>
 * CPU per query is the calling thread's CPU time (robust to a loaded machine); wall times are
 * medians and p99s of single samples, to be read on a quiet machine.
 *
 * <pre>
 * bench/sai [rows] [vectors] [dims]        # defaults 1000000 100000 128
 * </pre>
 */
public final class SaiBenchmark {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int QUERIES = Integer.getInteger("bench.queries", 200);

  private SaiBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int vectors = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int dims = args.length > 2 ? Integer.parseInt(args[2]) : 128;
    String similarity = System.getProperty("bench.similarity", "euclidean");
    Path dir = Files.createTempDirectory("sai-bench");
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage cql = new CqlLanguage(LocalCoordinator.open(engine, null), NodeInfo.singleNode("bench",
          InetAddress.getLoopbackAddress(), 9042, UUID.randomUUID(), List.of(0L)));
      Session s = new Session(cql);
      s.run("CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      if (rows > 0) {
        sai(s, engine, rows);
      }
      if (vectors > 0) {
        ann(s, engine, vectors, dims, similarity);
      }
    } finally {
      io.cassette.storage.io.FileTree.delete(dir);
    }
  }

  private static void sai(Session s, Engine engine, int rows) {
    s.run("CREATE TABLE b.rows (id int PRIMARY KEY, n int, m int, t text, u text)");
    Random random = new Random(1);
    long t0 = System.nanoTime();
    for (int id = 0; id < rows; id++) {
      int n = random.nextInt(rows);
      s.run("INSERT INTO b.rows (id, n, m, t, u) VALUES (?, ?, ?, ?, ?)", id, n, n, "w" + (id % 1000), "w" + (id % 1000));
    }
    Table table = engine.table("b", "rows").orElseThrow();
    table.flush();
    double loadS = (System.nanoTime() - t0) / 1e9;
    t0 = System.nanoTime();
    s.run("CREATE INDEX n_idx ON b.rows (n) USING 'sai'");
    s.run("CREATE INDEX t_idx ON b.rows (t) USING 'sai'");
    double buildS = (System.nanoTime() - t0) / 1e9;
    TableIndexes idx = table.indexes();
    System.out.printf(Locale.ROOT, "SAI: %,d rows loaded in %.1f s; both indexes built in %.1f s%n", rows, loadS, buildS);
    System.out.printf(Locale.ROOT, "  table on disk %,d bytes; index n_idx %,d bytes (%.1f B/row), t_idx %,d bytes%n",
        table.metrics().bytesOnDisk(), idx.bytesOnDisk("n_idx"), idx.bytesOnDisk("n_idx") / (double) rows,
        idx.bytesOnDisk("t_idx"));
    int width = Math.max(1, rows / 10_000);
    int scans = Math.max(3, Math.min(QUERIES, 20_000_000 / rows));
    Random q = new Random(2);
    compare(s, "n = ?", "m = ?", QUERIES, scans, () -> new Object[] {q.nextInt(rows)});
    compare(s, "n >= ? AND n < ?", "m >= ? AND m < ?", QUERIES, scans, () -> {
      int from = q.nextInt(rows);
      return new Object[] {from, from + width};
    });
    compare(s, "t = ?", "u = ?", Math.min(QUERIES, 50), scans, () -> new Object[] {"w" + q.nextInt(1000)});
  }

  /** The same restriction through the index and on the unindexed copy of its column (a full scan). */
  private static void compare(Session s, String indexed, String scanned, int queries, int scans,
                              java.util.function.Supplier<Object[]> args) {
    Timing a = time(s, "SELECT id FROM b.rows WHERE " + indexed, queries, args);
    Timing b = time(s, "SELECT id FROM b.rows WHERE " + scanned + " ALLOW FILTERING", scans, args);
    System.out.printf(Locale.ROOT, "  %-18s index: %8.0f us CPU/query, median %8.2f ms, p99 %8.2f ms, %7.1f rows"
            + " | full scan: %10.0f us CPU/query, median %9.1f ms, %7.1f rows%n",
        indexed, a.cpuMicros, a.medianMs, a.p99Ms, a.rows, b.cpuMicros, b.medianMs, b.rows);
  }

  private static void ann(Session s, Engine engine, int count, int dims, String similarity) {
    s.run("CREATE TABLE b.vec (id int PRIMARY KEY, v vector<float, " + dims + ">)");
    s.run("CREATE CUSTOM INDEX v_idx ON b.vec (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': '"
        + similarity + "'}");
    boolean clustered = Boolean.getBoolean("bench.clustered");
    Random random = new Random(3);
    float[][] centres = new float[64][dims];
    for (float[] c : centres) {
      for (int d = 0; d < dims; d++) {
        c[d] = (float) random.nextGaussian() * 3;
      }
    }
    int extra = Math.max(1, count / 10);
    float[][] data = new float[count + extra][];
    long t0 = System.nanoTime();
    long c0 = THREADS.getCurrentThreadCpuTime();
    for (int id = 0; id < count; id++) {
      data[id] = AnnData.gaussian(random, dims, clustered ? centres[random.nextInt(centres.length)] : null);
      s.run("INSERT INTO b.vec (id, v) VALUES (?, ?)", id, bytes(data[id]));
    }
    double loadS = (System.nanoTime() - t0) / 1e9;
    double insertCpuUs = (THREADS.getCurrentThreadCpuTime() - c0) / 1e3 / count;
    t0 = System.nanoTime();
    long p0 = processCpu();
    Table table = engine.table("b", "vec").orElseThrow();
    TableIndexes idx = table.indexes();
    table.flush();
    double flushS = (System.nanoTime() - t0) / 1e9;
    double flushCpuS = (processCpu() - p0) / 1e9;
    long graphStart = System.nanoTime();
    io.cassette.storage.index.VectorSimilarity sim =
        io.cassette.storage.index.VectorSimilarity.valueOf(similarity.toUpperCase(Locale.ROOT));
    int queries = Math.min(QUERIES, 100);
    // while the graph is built: searches score every vector; writes go on (their latency, and a flush)
    Search before = search(s, random, data, count, dims, sim, clustered ? centres : null, Math.min(queries, 20));
    double[] writeMs = new double[extra];
    for (int i = 0; i < extra; i++) {
      int id = count + i;
      data[id] = AnnData.gaussian(random, dims, clustered ? centres[random.nextInt(centres.length)] : null);
      long w0 = System.nanoTime();
      s.run("INSERT INTO b.vec (id, v) VALUES (?, ?)", id, bytes(data[id]));
      writeMs[i] = (System.nanoTime() - w0) / 1e6;
    }
    int pendingAfterWrites = idx.graphsPending();
    long f0 = System.nanoTime();
    table.flush();
    double secondFlushS = (System.nanoTime() - f0) / 1e9;
    Arrays.sort(writeMs);
    long graphCpu0 = graphThreadCpu();
    try {
      if (!idx.awaitGraphs(3_600_000)) {
        throw new IllegalStateException("graphs not built in an hour");
      }
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    double graphS = (System.nanoTime() - graphStart) / 1e9;
    double graphCpuS = graphThreadCpu() / 1e9;
    Search after = search(s, random, data, count + extra, dims, sim, clustered ? centres : null, queries);
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    System.out.printf(Locale.ROOT, "ANN: %,d vectors of %d floats (%s, %s); loaded in %.1f s (%.0f us CPU per insert);"
            + " flush %.1f s (%.1f s process CPU), the graph built after it%n", count, dims, similarity,
        clustered ? "clustered" : "gaussian", loadS, insertCpuUs, flushS, flushCpuS);
    System.out.printf(Locale.ROOT, "  before the graph (every vector scored): recall@10 %.3f; %.0f us CPU/query,"
            + " median %.2f ms, p99 %.2f ms%n", before.recall, before.cpuMicros, before.medianMs, before.p99Ms);
    System.out.printf(Locale.ROOT, "  %,d writes while the graph was built (%d graph(s) pending after them): median %.3f ms,"
            + " p99 %.3f ms, max %.1f ms; their flush %.2f s%n", extra, pendingAfterWrites, writeMs[extra / 2],
        writeMs[Math.min(extra - 1, extra * 99 / 100)], writeMs[extra - 1], secondFlushS);
    System.out.printf(Locale.ROOT, "  graphs of both SSTables in %.1f s after the first flush (graph thread CPU %.1f s,"
            + " %.0f us per vector; %.1f s of it by the end of those writes and flush)%n", graphS, graphCpuS,
        graphCpuS * 1e6 / (count + extra), graphCpu0 / 1e9);
    System.out.printf(Locale.ROOT, "  with the graphs (%d SSTable(s), vectors each %s): recall@10 %.3f; %.0f us CPU/query,"
            + " median %.2f ms, p99 %.2f ms%n", table.metrics().sstableCount(), idx.vectorsPerSSTable("v_idx"), after.recall, after.cpuMicros, after.medianMs, after.p99Ms);
    System.out.printf(Locale.ROOT, "  graph heap %,d bytes (%.0f B/vector); index on disk %,d bytes; heap used after GC"
            + " %,d bytes (the benchmark's own copy of the vectors: %,d bytes)%n",
        idx.graphHeapBytes(), idx.graphHeapBytes() / (double) (count + extra), idx.bytesOnDisk("v_idx"), heap,
        (long) (count + extra) * dims * 4);
  }

  private record Search(double recall, double cpuMicros, double medianMs, double p99Ms) {}

  /** {@code queries} ANN queries over the first {@code live} vectors: recall@10, CPU and wall time. */
  private static Search search(Session s, Random random, float[][] data, int live, int dims,
                               io.cassette.storage.index.VectorSimilarity sim, float[][] centres, int queries) {
    double recall = 0;
    long cpu = 0;
    double[] wall = new double[queries];
    float[][] known = Arrays.copyOf(data, live);
    for (int i = 0; i < queries; i++) {
      float[] query = AnnData.gaussian(random, dims, centres == null ? null : centres[random.nextInt(centres.length)]);
      long c0 = THREADS.getCurrentThreadCpuTime();
      long w0 = System.nanoTime();
      Result.Rows r = s.run("SELECT id FROM b.vec ORDER BY v ANN OF ? LIMIT 10", bytes(query));
      wall[i] = (System.nanoTime() - w0) / 1e6;
      cpu += THREADS.getCurrentThreadCpuTime() - c0;
      Set<Integer> got = new HashSet<>();
      for (List<ByteBuffer> row : r.rows()) {
        got.add(row.get(0).getInt(0));
      }
      recall += overlap(got, AnnData.exactNearest(known, query, sim, 10)) / 10.0;
    }
    Arrays.sort(wall);
    return new Search(recall / queries, cpu / 1e3 / queries, wall[queries / 2],
        wall[Math.min(queries - 1, queries * 99 / 100)]);
  }

  /** CPU time of the graph thread so far (0 before it started). */
  private static long graphThreadCpu() {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("sai-graph-build")) {
        return Math.max(0, THREADS.getThreadCpuTime(t.getId()));
      }
    }
    return 0;
  }

  private static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static int overlap(Set<Integer> got, int[] expected) {
    int n = 0;
    for (int id : expected) {
      n += got.contains(id) ? 1 : 0;
    }
    return n;
  }



  private static byte[] bytes(float[] v) {
    ByteBuffer b = ByteBuffer.allocate(v.length * 4);
    for (float f : v) {
      b.putFloat(f);
    }
    return b.array();
  }

  private record Timing(double cpuMicros, double medianMs, double p99Ms, double rows) {}

  private static Timing time(Session s, String query, int n, java.util.function.Supplier<Object[]> args) {
    double[] wall = new double[n];
    long cpu = 0;
    long rows = 0;
    for (int i = 0; i < n; i++) {
      Object[] a = args.get();
      long c0 = THREADS.getCurrentThreadCpuTime();
      long w0 = System.nanoTime();
      Result.Rows r = s.run(query, a);
      wall[i] = (System.nanoTime() - w0) / 1e6;
      cpu += THREADS.getCurrentThreadCpuTime() - c0;
      rows += r.rows().size();
    }
    Arrays.sort(wall);
    return new Timing(cpu / 1e3 / n, wall[n / 2], wall[Math.min(n - 1, n * 99 / 100)], rows / (double) n);
  }

  /** CqlLanguage with bound values, unpaged, as a client without a driver would use it. */
  private static final class Session {
    private final CqlLanguage cql;
    private final ClientState state = new ClientState(new InetSocketAddress("127.0.0.1", 40000));

    Session(CqlLanguage cql) {
      this.cql = cql;
    }

    Result.Rows run(String query, Object... values) {
      List<ByteBuffer> vs = new ArrayList<>();
      for (Object v : values) {
        vs.add(ByteBuffer.wrap(encode(v)));
      }
      QueryOptions o = new QueryOptions(Consistency.ONE, vs, null, false, -1, null, Consistency.SERIAL,
          Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
      Result r = cql.query(query, o, state);
      return r instanceof Result.Rows rows ? rows : new Result.Rows(List.of(), List.of(), null);
    }

    private static byte[] encode(Object v) {
      if (v instanceof Integer i) {
        return ByteBuffer.allocate(4).putInt(i).array();
      }
      if (v instanceof String str) {
        return str.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      }
      return (byte[]) v;
    }
  }
}
