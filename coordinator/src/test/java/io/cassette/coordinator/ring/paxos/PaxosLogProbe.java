package io.cassette.coordinator.ring.paxos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Not a test (its name keeps it out of the default run): what a replica's Paxos registers cost
 * the threads that answer prepare, propose and commit (issue 18, the LWT p99). {@code threads}
 * threads each change {@code each} partitions' states, as a node's request and internode handler
 * threads do during an LWT load (three records per LWT per replica), and the time of each
 * {@link PaxosStore#update} is recorded: an update that waits for an fsync, or for another
 * thread's, shows it. Modes: {@code fsync} (the 3-argument {@code open}: fsynced before the
 * answer; run against an older coordinator jar it is the build before group commit), {@code periodic}
 * (fsynced every 10 s in the background, commitlog_sync periodic's default). Alternate the modes
 * and builds in one run to compare them under the same load:
 *
 * <pre>
 * CP=coordinator/target/test-classes:$(ls dist/target/cassette/lib/*.jar | tr '\n' :)
 * OLD=coordinator/target/test-classes:$(ls /tmp/before/lib/*.jar | tr '\n' :)
 * java -cp $OLD io.cassette.coordinator.ring.paxos.PaxosLogProbe fsync 16 100
 * java -cp $CP  io.cassette.coordinator.ring.paxos.PaxosLogProbe fsync 16 100
 * java -cp $CP  io.cassette.coordinator.ring.paxos.PaxosLogProbe periodic 16 100
 * </pre>
 */
public final class PaxosLogProbe {
  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "fsync";
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    int each = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "paxos-log-probe");
    PaxosStore store = mode.equals("periodic")
        ? PaxosStore.open(dir, PaxosStore.PURGE_GRACE_MICROS, () -> System.currentTimeMillis() * 1000, 10_000)
        : PaxosStore.open(dir, PaxosStore.PURGE_GRACE_MICROS, () -> System.currentTimeMillis() * 1000);
    long[] nanos = new long[threads * each];
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < each; i++) {
            Ballot b = new Ballot(System.currentTimeMillis() * 1000 + i, thread);
            byte[] key = ("probe-" + thread + "-" + i).getBytes();
            long t0 = System.nanoTime();
            store.update("ks", "t", key, s -> new PaxosState(b, null, null));
            nanos[thread * each + i] = System.nanoTime() - t0;
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(10, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
      store.close();
    }
    long wall = System.nanoTime() - start;
    Arrays.sort(nanos);
    System.out.printf("mode %s, %d threads x %d updates: %.0f updates/s; per update ms p50 %.2f p99 %.2f max %.2f%n",
        mode, threads, each, nanos.length / (wall / 1e9), ms(nanos, 0.5), ms(nanos, 0.99), nanos[nanos.length - 1] / 1e6);
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  private static double ms(long[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))] / 1e6;
  }
}
