package io.cassette.bench;

import io.cassette.storage.io.FileTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

/**
 * Sequential and random writes, point reads and slices with 100-byte and 1 KB values,
 * against Cassette's engine and RocksDB in the same JVM, one after the other, single
 * threaded. Prints ops/s for both, the ratio, and the bytes written to disk per byte of user
 * data (from /proc/self/io write_bytes, counted from the first write to after close).
 *
 * <pre>
 * ./mvnw -q -o -pl bench -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -Xmx64m  -cp bench/target/classes:$(cat bench/cp.txt) io.cassette.bench.StorageBenchmark [dir] [scale]
 * java -Xmx256m -cp bench/target/classes:$(cat bench/cp.txt) io.cassette.bench.StorageBenchmark [dir] [scale]
 * </pre>
 * Durability is matched: Cassette in periodic commit-log mode (fsync every 10 s), RocksDB
 * with its WAL and sync=false. -Dbench.verbose=true prints Cassette's StorageMetrics.
 * scale multiplies the operation counts (default 1: 200k small / 50k large writes).
 */
public final class StorageBenchmark {
  private static final int ROWS_PER_SLICE_PARTITION = 100;
  private static final int SLICE_LENGTH = 10;

  private StorageBenchmark() {}

  public interface StoreFactory {
    KeyValueStore open(Path dir);
  }

  /** ops/s by wall clock, and CPU µs per op of the calling thread (robust to a loaded machine). */
  record Result(double seqWrite, double randomWrite, double pointRead, double slice, double writeAmplification,
                double[] cpuMicros) {}

  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

  private static long cpu() {
    return THREADS.getCurrentThreadCpuTime();
  }

  public static void main(String[] args) throws Exception {
    Path base = Path.of(args.length > 0 ? args[0] : "/tmp/cassette-bench");
    double scale = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
    System.out.printf(Locale.ROOT, "heap %d MB, %d cores%n", Runtime.getRuntime().maxMemory() >> 20,
        Runtime.getRuntime().availableProcessors());
    // Unmeasured warm-up of both stores, so that Cassette's figures are not its JIT's.
    run(base.resolve("warmup-cassette"), CassetteStore::new, 20_000, 100);
    run(base.resolve("warmup-rocksdb"), RocksStore::new, 20_000, 100);
    for (int valueSize : new int[] {100, 1024}) {
      int n = (int) ((valueSize == 100 ? 200_000 : 50_000) * scale);
      Result c = run(base.resolve("cassette-" + valueSize), CassetteStore::new, n, valueSize);
      Result r = run(base.resolve("rocksdb-" + valueSize), RocksStore::new, n, valueSize);
      System.out.printf(Locale.ROOT, "%n%d-byte values, %d ops per workload%n", valueSize, n);
      System.out.printf(Locale.ROOT, "%-14s %12s %12s %8s%n", "workload", "cassette", "rocksdb", "ratio");
      line("seq write/s", c.seqWrite, r.seqWrite);
      line("random write/s", c.randomWrite, r.randomWrite);
      line("point read/s", c.pointRead, r.pointRead);
      line("slice(10)/s", c.slice, r.slice);
      String[] names = {"seq write", "random write", "point read", "slice(10)"};
      for (int i = 0; i < 4; i++) {
        System.out.printf(Locale.ROOT, "%-14s %12.2f %12.2f %8.2f%n", "cpu us/" + names[i].split(" ")[0].replace("(10)", ""),
            c.cpuMicros[i], r.cpuMicros[i], c.cpuMicros[i] / r.cpuMicros[i]);
      }
      System.out.printf(Locale.ROOT, "%-14s %12.2f %12.2f %8.2f%n", "disk B/user B", c.writeAmplification,
          r.writeAmplification, c.writeAmplification / r.writeAmplification);
    }
  }

  private static void line(String what, double c, double r) {
    System.out.printf(Locale.ROOT, "%-14s %12.0f %12.0f %8.2f%n", what, c, r, c / r);
  }

  static long diskWriteBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
      if (line.startsWith("write_bytes:")) {
        return Long.parseLong(line.substring("write_bytes:".length()).trim());
      }
    }
    return -1;
  }

  static byte[] key(String prefix, long i) {
    return String.format(Locale.ROOT, "%s%012d", prefix, i).getBytes();
  }

  public static Result run(Path dir, StoreFactory factory, int n, int valueSize) throws Exception {
    FileTree.delete(dir);
    Files.createDirectories(dir);
    Random random = new Random(42);
    byte[] value = new byte[valueSize];
    long userBytes = 0;
    long diskBefore = diskWriteBytes();
    double seq;
    double rnd;
    double reads;
    double slices;
    double[] cpuMicros = new double[4];
    KeyValueStore store = factory.open(dir);
    try {
      long t0 = System.nanoTime();
      long c0 = cpu();
      for (int i = 0; i < n; i++) {
        random.nextBytes(value);
        byte[] k = key("s", i);
        store.put(k, new byte[0], value);
        userBytes += k.length + value.length;
      }
      seq = n / seconds(t0);
      cpuMicros[0] = (cpu() - c0) / 1000.0 / n;
      t0 = System.nanoTime();
      c0 = cpu();
      for (int i = 0; i < n; i++) {
        random.nextBytes(value);
        byte[] k = key("r", random.nextInt(n));
        store.put(k, new byte[0], value);
        userBytes += k.length + value.length;
      }
      rnd = n / seconds(t0);
      cpuMicros[1] = (cpu() - c0) / 1000.0 / n;
      int partitions = Math.max(1, n / 10 / ROWS_PER_SLICE_PARTITION);
      for (int p = 0; p < partitions; p++) {
        for (int c = 0; c < ROWS_PER_SLICE_PARTITION; c++) {
          random.nextBytes(value);
          byte[] k = key("p", p);
          byte[] ck = key("c", c);
          store.put(k, ck, value);
          userBytes += k.length + ck.length + value.length;
        }
      }
      store.flush();
      int readCount = n / 2;
      t0 = System.nanoTime();
      c0 = cpu();
      int found = 0;
      for (int i = 0; i < readCount; i++) {
        if (store.get(key("s", random.nextInt(n)), new byte[0])) {
          found++;
        }
      }
      reads = readCount / seconds(t0);
      cpuMicros[2] = (cpu() - c0) / 1000.0 / readCount;
      if (found != readCount) {
        throw new IllegalStateException(store.name() + ": " + (readCount - found) + " keys not found");
      }
      int sliceCount = n / 10;
      t0 = System.nanoTime();
      c0 = cpu();
      for (int i = 0; i < sliceCount; i++) {
        int got = store.slice(key("p", random.nextInt(partitions)),
            key("c", random.nextInt(ROWS_PER_SLICE_PARTITION - SLICE_LENGTH)), SLICE_LENGTH);
        if (got != SLICE_LENGTH) {
          throw new IllegalStateException(store.name() + ": slice returned " + got + " rows");
        }
      }
      slices = sliceCount / seconds(t0);
      cpuMicros[3] = (cpu() - c0) / 1000.0 / sliceCount;
    } finally {
      store.close();
    }
    long diskBytes = diskWriteBytes() - diskBefore;
    FileTree.delete(dir);
    return new Result(seq, rnd, reads, slices, (double) diskBytes / userBytes, cpuMicros);
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

}
