package io.cassette.coordinator.ring;

import static io.cassette.coordinator.ring.RingCoordinatorTest.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.storage.Mutation;
import io.cassette.storage.TableSpec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (its name keeps it out of the default run): what one QUORUM write costs on a
 * 3-node in-JVM ring, RF=3, measured as the process's CPU time and thread context switches per
 * write, which a loaded machine disturbs far less than throughput. Each writer thread
 * coordinates on node (thread % 3), as a token-unaware client would spread its requests.
 *
 * <pre>
 * mkdir -p /tmp/core0/bin   # surefire wants a path ending in java: a wrapper pinning core 0
 * printf '#!/bin/sh\nexec taskset -c 0 java "$@"\n' > /tmp/core0/bin/java; chmod +x /tmp/core0/bin/java
 * ./mvnw -B -q -pl coordinator -am verify -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dtest=RingWriteProbe -Djvm=/tmp/core0/bin/java -DargLine="-XX:ActiveProcessorCount=1 -Xmx256m"
 * </pre>
 * Prints one line per round to stdout ("ring write probe: ...").
 */
class RingWriteProbe {
  static final int WRITERS = Integer.getInteger("probe.writers", 12);
  static final int WARMUP = Integer.getInteger("probe.warmup", 20_000);
  static final int WRITES = Integer.getInteger("probe.writes", 20_000);
  static final int ROUNDS = Integer.getInteger("probe.rounds", 3);
  /** About the stress tool's row: five 34-byte columns. */
  static final String VALUE = "x".repeat(170);

  @TempDir
  Path dir;

  @Test
  void quorumWrites() throws Exception {
    try (RingHarness ring = new RingHarness(dir.resolve("ring"), 3, 16, b -> b)) {
      ring.schema(new KeyspaceDefinition("ks", Map.of("class", "SimpleStrategy", "replication_factor", "3"),
          List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      try {
        run(ring, pool, WARMUP, "warmup");
        for (int r = 1; r <= ROUNDS; r++) {
          run(ring, pool, WRITES, "round " + r);
        }
      } finally {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      }
    }
  }

  private static void run(RingHarness ring, ExecutorService pool, int writes, String label) throws Exception {
    Request quorum = Request.of(ConsistencyLevel.QUORUM);
    AtomicLong next = new AtomicLong();
    AtomicLong timeouts = new AtomicLong();
    long cpu0 = processCpuNanos();
    long cs0 = contextSwitches();
    long t0 = System.nanoTime();
    List<Future<?>> done = new java.util.ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int coordinator = w % 3;
      done.add(pool.submit(() -> {
        long i;
        while ((i = next.getAndIncrement()) < writes) {
          try {
            ring.node(coordinator).coordinator().write(new Mutation(List.of(put("k" + (i * 7919 % 1_000_003), VALUE,
                System.currentTimeMillis() * 1000))), quorum);
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
    double cpuMicros = (processCpuNanos() - cpu0) / 1e3 / writes;
    double switches = (double) (contextSwitches() - cs0) / writes;
    System.out.printf("ring write probe: %s: %d writes, %d writers, %.0f writes/s, %.0f µs CPU per write,"
        + " %.1f context switches per write, %d timeouts, load %.1f%n", label, writes, WRITERS, writes / seconds,
        cpuMicros, switches, timeouts.get(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Voluntary and involuntary context switches of every thread of this process (Linux). */
  static long contextSwitches() throws IOException {
    long sum = 0;
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path t : (Iterable<Path>) tasks::iterator) {
        try {
          for (String line : Files.readAllLines(t.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches") || line.startsWith("nonvoluntary_ctxt_switches")) {
              sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
          }
        } catch (IOException gone) {
          // the thread ended
        }
      }
    }
    return sum;
  }
}
