package io.cassette.coordinator.ring;

import static io.cassette.coordinator.ring.RingCoordinatorTest.b;
import static io.cassette.coordinator.ring.RingCoordinatorTest.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.TableSpec;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (its name keeps it out of the default run): what one QUORUM read of one partition
 * costs on a 3-node in-JVM ring, RF=3, as process CPU time and thread context switches per read
 * (robust to the machine's load, unlike reads/s). {@link RingWriteProbe} loads the keys first.
 * Run as RingWriteProbe's comment shows, with {@code -Dtest=RingReadProbe}. Prints one line per
 * round ("ring read probe: ...").
 */
class RingReadProbe {
  static final int KEYS = Integer.getInteger("probe.keys", 5_000);
  /** Reads with readAsync, as many in flight as there are readers, no thread waiting per read. */
  static final boolean ASYNC = Boolean.getBoolean("probe.async");

  @TempDir
  Path dir;

  @Test
  void quorumReads() throws Exception {
    try (RingHarness ring = new RingHarness(dir.resolve("ring"), 3, 16, b -> b)) {
      ring.schema(new KeyspaceDefinition("ks", Map.of("class", "SimpleStrategy", "replication_factor", "3"),
          List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
      Request quorum = Request.of(ConsistencyLevel.QUORUM);
      for (int i = 0; i < KEYS; i++) {
        for (int attempt = 1; ; attempt++) {
          try {
            ring.node(i % 3).coordinator().write(new Mutation(List.of(put("k" + i, RingWriteProbe.VALUE,
                System.currentTimeMillis() * 1000))), Request.of(ConsistencyLevel.ALL));
            break;
          } catch (CoordinatorException.Timeout e) {
            if (attempt == 5) {
              throw e; // a loaded machine times some out: retried, boundedly
            }
          }
        }
      }
      ExecutorService pool = Executors.newFixedThreadPool(RingWriteProbe.WRITERS);
      try {
        run(ring, pool, RingWriteProbe.WARMUP, "warmup");
        for (int r = 1; r <= RingWriteProbe.ROUNDS; r++) {
          run(ring, pool, RingWriteProbe.WRITES, "round " + r);
        }
      } finally {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      }
    }
  }

  private static void run(RingHarness ring, ExecutorService pool, int reads, String label) throws Exception {
    Request quorum = Request.of(ConsistencyLevel.QUORUM);
    AtomicLong next = new AtomicLong();
    AtomicLong timeouts = new AtomicLong();
    AtomicLong missing = new AtomicLong();
    long cpu0 = RingWriteProbe.processCpuNanos();
    long cs0 = RingWriteProbe.contextSwitches();
    long t0 = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    if (ASYNC) {
      java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(RingWriteProbe.WRITERS);
      for (long i = 0; i < reads; i++) {
        inFlight.acquire();
        ring.node((int) (i % 3)).coordinator().readAsync("ks", "t", b("k" + (i * 7919 % KEYS)), ReadQuery.all(0), quorum)
            .whenComplete((v, e) -> {
              if (e != null) {
                timeouts.incrementAndGet();
              } else if (v.isEmpty()) {
                missing.incrementAndGet();
              }
              inFlight.release();
            });
      }
      inFlight.acquire(RingWriteProbe.WRITERS);
    }
    for (int w = 0; !ASYNC && w < RingWriteProbe.WRITERS; w++) {
      int coordinator = w % 3;
      done.add(pool.submit(() -> {
        long i;
        while ((i = next.getAndIncrement()) < reads) {
          try {
            PartitionView v = ring.node(coordinator).coordinator().read("ks", "t", b("k" + (i * 7919 % KEYS)),
                ReadQuery.all(0), quorum);
            if (v.isEmpty()) {
              missing.incrementAndGet();
            }
          } catch (CoordinatorException.Timeout e) {
            timeouts.incrementAndGet(); // a loaded machine: counted, not fatal
          }
        }
      }));
    }
    for (Future<?> f : done) {
      f.get(10, TimeUnit.MINUTES);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuMicros = (RingWriteProbe.processCpuNanos() - cpu0) / 1e3 / reads;
    double switches = (double) (RingWriteProbe.contextSwitches() - cs0) / reads;
    System.out.printf("ring read probe: %s: %d reads, %d readers, %.0f reads/s, %.0f µs CPU per read,"
        + " %.1f context switches per read, %d timeouts, %d missing, load %.1f%s%n", label, reads,
        RingWriteProbe.WRITERS, reads / seconds, cpuMicros, switches, timeouts.get(), missing.get(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), ASYNC ? ", async" : "");
    assertThat(missing.get()).isZero();
  }
}
