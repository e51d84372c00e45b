package io.cassette.tools.ring;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ring changes under load with real node processes (issue 17), RF=3, writes and reads at
 * QUORUM the whole time (bounded in count and time), every acknowledged write remembered and
 * read back meanwhile (a read that answers wrong or nothing for one fails the test; timeouts
 * are counted, as the documented errors of a ring change):
 * <ol>
 *   <li>a fourth node joins; it is killed (-9) while its join is PREPARED and again while
 *       STARTED (streaming), and each time it comes back and goes on, to NORMAL;
 *   <li>node 2 is decommissioned (its ranges stream away; it leaves);
 *   <li>node 3 is killed and replaced by a new node on 127.0.0.2 with
 *       replace_address_first_boot=127.0.0.3;
 *   <li>a new node on 127.0.0.3 is killed mid-join and {@code nodetool removenode} rolls its
 *       join back; started again it joins anew, is killed, and {@code nodetool removenode}
 *       removes it (the remaining replicas re-replicate its ranges);
 *   <li>{@code nodetool repair -full m} runs, still under load.
 * </ol>
 * Beside the test's own load, {@code bin/cassette stress} (in this JVM) writes and reads its
 * keyspace at QUORUM, RF=3, in 15 s runs one after another the whole time, over 1,000 keys it
 * wrote first (a read validates its row: a lost write is an error); its errors are counted.
 * Errors are counted by kind; the time of each step and the figures are printed at the end.
 * After the join, 4 nodes own 75% each (within 5 points) of the RF=3 keyspace.
 * Afterwards every acknowledged write reads back at QUORUM and nodetool status shows three
 * UN nodes owning 100% each (effective, RF=3). Node 1 is the metadata service and stays up.
 */
@Tag("slow")
class MembershipProcessTest {
  /** Rows written before the changes, so the streams carry data. */
  private static final int PRELOAD = 3_000;
  /** Bounds of the background load. */
  private static final int MAX_LOAD_WRITES = 200_000;
  private static final Duration MAX_LOAD_TIME = Duration.ofMinutes(12);
  private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(240);

  @RegisterExtension
  final RingProcesses ring = new RingProcesses(6);

  @Test
  void joinDecommissionAndReplaceUnderQuorumLoseNoAcknowledgedWrite() throws Exception {
    // Node 5 is the replacement: a fresh data directory on 127.0.0.2 (free once node 2 has left).
    ring.addresses(i -> "127.0.0." + (i == 5 ? 2 : i == 6 ? 3 : i));
    ring.pickPorts(false);
    ring.startAll(3);
    ring.awaitUp(1, 3);
    DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10)).build();
    Map<Integer, Integer> acked = new ConcurrentHashMap<>();
    AtomicInteger errors = new AtomicInteger();
    AtomicInteger writes = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger readErrors = new AtomicInteger();
    Map<String, AtomicInteger> errorKinds = new java.util.concurrent.ConcurrentSkipListMap<>();
    Map<String, Long> stepMillis = new java.util.LinkedHashMap<>();
    StressLoad stress = new StressLoad(ring.cqlPort);
    List<String> wrongReads = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (CqlSession session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", ring.cqlPort))
        .withLocalDatacenter("datacenter1").withConfigLoader(loader).build()) {
      ring.ddl(session, "CREATE KEYSPACE m WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
      ring.ddl(session, "CREATE TABLE m.t (k int PRIMARY KEY, v int, pad text)");
      PreparedStatement insert = session.prepare("INSERT INTO m.t (k, v, pad) VALUES (?, ?, ?)");
      String pad = "x".repeat(200);
      for (int k = 0; k < PRELOAD; k++) {
        session.execute(insert.bind(k, k, pad).setConsistencyLevel(ConsistencyLevel.QUORUM));
        acked.put(k, k);
      }
      Thread load = new Thread(() -> {
        long deadline = System.nanoTime() + MAX_LOAD_TIME.toNanos();
        for (int k = PRELOAD; k < PRELOAD + MAX_LOAD_WRITES && !stop.get() && System.nanoTime() < deadline; k++) {
          try {
            session.execute(insert.bind(k, k, pad).setConsistencyLevel(ConsistencyLevel.QUORUM));
            acked.put(k, k);
          } catch (RuntimeException e) {
            errors.incrementAndGet();
            errorKinds.computeIfAbsent("write " + e.getClass().getSimpleName(), x -> new AtomicInteger()).incrementAndGet();
            sleep(50);
          }
          writes.incrementAndGet();
          sleep(2);
        }
      }, "quorum-load");
      load.setDaemon(true);
      load.start();
      PreparedStatement select = session.prepare("SELECT v FROM m.t WHERE k = ?");
      Thread reader = new Thread(() -> {
        java.util.Random random = new java.util.Random(17);
        long deadline = System.nanoTime() + MAX_LOAD_TIME.toNanos();
        for (int i = 0; i < MAX_LOAD_WRITES && !stop.get() && System.nanoTime() < deadline; i++) {
          // An acknowledged key (the preload, or one the load has had acknowledged).
          int k = random.nextInt(PRELOAD + writes.get());
          if (!acked.containsKey(k)) {
            continue;
          }
          try {
            Row row = session.execute(select.bind(k).setConsistencyLevel(ConsistencyLevel.QUORUM)).one();
            if (row == null || row.getInt("v") != k) {
              wrongReads.add(k + " -> " + (row == null ? "nothing" : row.getInt("v")));
            }
          } catch (RuntimeException e) {
            readErrors.incrementAndGet();
            errorKinds.computeIfAbsent("read " + e.getClass().getSimpleName(), x -> new AtomicInteger()).incrementAndGet();
            sleep(50);
          }
          reads.incrementAndGet();
          sleep(2);
        }
      }, "quorum-reads");
      reader.setDaemon(true);
      reader.start();
      stress.start();

      // 1. Node 4 joins; killed at PREPARED and at STARTED, each time it resumes.
      long stepStart = System.nanoTime();
      Path log4 = ring.dir().resolve("n4.log");
      for (String step : List.of("PREPARED", "STARTED")) {
        ring.jvmOptionsOnce(4, "-Dcassette.test_fault.join_pause_at=" + step);
        ring.start(4);
        ring.await("node 4 paused at " + step, CHANGE_TIMEOUT, () -> logContains(log4, "join paused at " + step));
        ring.kill(4);
        System.out.println("killed node 4 at " + step + "; status: " + ring.status(1));
      }
      long joinStart = System.nanoTime();
      ring.start(4);
      ring.awaitReady(4, 1);
      System.out.printf("node 4 resumed its join to NORMAL in %d ms%n", (System.nanoTime() - joinStart) / 1_000_000);
      ring.await("4 UN on node 1", CHANGE_TIMEOUT, () -> RingProcesses.countState(ring.status(1), "UN") == 4);
      assertThat(Files.readString(log4, StandardCharsets.ISO_8859_1)).contains("Bootstrap streamed");
      printLines(log4, "");
      // Replication-aware tokens: at RF=3 each of 4 nodes holds 75% of the data.
      String owns4 = ring.nodetool(1, "status", "m");
      System.out.print(owns4);
      Matcher share = Pattern.compile("(?m)^UN .*? ([0-9.]+)%").matcher(owns4);
      int counted = 0;
      while (share.find()) {
        counted++;
        assertThat(Double.parseDouble(share.group(1))).as(owns4).isCloseTo(75.0, org.assertj.core.data.Offset.offset(5.0));
      }
      assertThat(counted).as(owns4).isEqualTo(4);
      stepStart = lap(stepMillis, "join (with 2 kills)", stepStart);
      // Node 1 gave ranges to node 4: cleanup drops them (and nothing still replicated: checked below).
      assertThat(ring.nodetool(1, "cleanup", "m")).doesNotStartWith("failed");

      // The streaming cap, changed live (megabits, then MiB/s), then back for the decommission.
      assertThat(ring.nodetool(2, "getstreamthroughput")).isEqualTo("Current stream throughput: 201 Mb/s\n");
      ring.nodetool(2, "setstreamthroughput", "-m", "2");
      assertThat(ring.nodetool(2, "getstreamthroughput", "-m")).isEqualTo("Current stream throughput: 2.0 MiB/s\n");

      // 2. Node 2 leaves with its data.
      stepStart = System.nanoTime();
      String decommission = ring.nodetool(2, "decommission");
      System.out.print(decommission);
      assertThat(decommission).doesNotStartWith("failed").contains("Unbootstrap: finished");
      ring.await("node 2 gone, 3 UN on node 1", CHANGE_TIMEOUT, () -> {
        String s = ring.status(1);
        return RingProcesses.countState(s, "UN") == 3 && !s.contains("127.0.0.2 ");
      });
      ring.kill(2);
      stepStart = lap(stepMillis, "decommission", stepStart);

      // 3. Node 3 dies and is replaced by node 5 on 127.0.0.2.
      ring.kill(3);
      ring.await("node 3 DN on node 1", RingProcesses.DOWN_BOUND, () -> ring.status(1).contains("DN  127.0.0.3"));
      stepStart = System.nanoTime();
      ring.start(5, "--set", "replace_address_first_boot=127.0.0.3");
      ring.awaitReady(5, 1);
      ring.await("1, 4 and the replacement UN, 3 gone", CHANGE_TIMEOUT, () -> {
        String s = ring.status(1);
        return RingProcesses.countState(s, "UN") == 3 && !s.contains("127.0.0.3 ");
      });
      assertThat(ring.nodetool(5, "netstats")).startsWith("Mode: NORMAL");
      Path log5 = ring.dir().resolve("n5.log");
      assertThat(Files.readString(log5, StandardCharsets.ISO_8859_1)).contains("Replace streamed");
      printLines(log5, "");
      stepStart = lap(stepMillis, "replace (from start to 3 UN)", stepStart);

      // 4. A node killed while its join is STARTED and never back: removenode rolls the join
      // back (its tokens are free, other changes can go on). Started again, it joins anew;
      // killed for good, removenode removes it and the others re-replicate its ranges.
      stepStart = System.nanoTime();
      Path log6 = ring.dir().resolve("n6.log");
      ring.jvmOptionsOnce(6, "-Dcassette.test_fault.join_pause_at=STARTED");
      ring.start(6);
      ring.await("node 6 paused at STARTED", CHANGE_TIMEOUT, () -> logContains(log6, "join paused at STARTED"));
      ring.kill(6);
      ring.await("node 6 DJ on node 1", RingProcesses.DOWN_BOUND, () -> ring.status(1).contains("DJ  127.0.0.3"));
      Matcher joining = Pattern.compile("DJ  127\\.0\\.0\\.3 .*?([0-9a-f]{8}-[0-9a-f-]{27})").matcher(ring.status(1));
      assertThat(joining.find()).as(ring.status(1)).isTrue();
      String cancelled = ring.nodetool(1, "removenode", joining.group(1));
      System.out.print(cancelled);
      assertThat(cancelled).contains("Removenode: cancelled the JOIN");
      ring.start(6);
      ring.awaitReady(6, 1);
      ring.await("4 UN with the new node", CHANGE_TIMEOUT, () -> RingProcesses.countState(ring.status(1), "UN") == 4);
      Matcher id = Pattern.compile("UN  127\\.0\\.0\\.3 .*?([0-9a-f]{8}-[0-9a-f-]{27})").matcher(ring.status(1));
      assertThat(id.find()).isTrue();
      ring.kill(6);
      ring.await("node 6 DN on node 1", RingProcesses.DOWN_BOUND, () -> ring.status(1).contains("DN  127.0.0.3"));
      String removed = ring.nodetool(1, "removenode", id.group(1));
      System.out.print(removed);
      assertThat(removed).doesNotStartWith("failed").contains("Removenode: finished");
      ring.await("3 UN, 127.0.0.3 gone", CHANGE_TIMEOUT, () -> {
        String st = ring.status(1);
        return RingProcesses.countState(st, "UN") == 3 && !st.contains("127.0.0.3 ");
      });
      stepStart = lap(stepMillis, "cancelled join, join, removenode", stepStart);

      // 5. Anti-entropy repair under load.
      String repaired = ring.nodetool(1, "repair", "-full", "m");
      System.out.print(repaired);
      assertThat(repaired).doesNotStartWith("failed").contains("Repair completed successfully");
      lap(stepMillis, "repair -full", stepStart);

      stop.set(true);
      String stressed = stress.stop();
      load.join(30_000);
      reader.join(30_000);
      System.out.printf("load: %d writes, %d acknowledged, %d errors; %d QUORUM reads meanwhile, %d errors, %d wrong%n",
          writes.get(), acked.size(), errors.get(), reads.get(), readErrors.get(), wrongReads.size());
      System.out.println("errors by kind: " + errorKinds);
      System.out.println("steps (ms): " + stepMillis);
      System.out.println("stress: " + stressed);
      assertThat(wrongReads).as("acknowledged writes a QUORUM read missed during the changes").isEmpty();
      assertThat(stress.runs()).as(stressed).isGreaterThan(1);
      assertThat(stress.failure()).as(stressed).isNull();

      // Every acknowledged write reads back at QUORUM.
      int missing = 0;
      for (int k : acked.keySet()) {
        Row row = null;
        for (int attempt = 0; attempt < 5 && row == null; attempt++) {
          try {
            row = session.execute(select.bind(k).setConsistencyLevel(ConsistencyLevel.QUORUM)).one();
            if (row == null) {
              break;
            }
          } catch (RuntimeException e) {
            sleep(200);
          }
        }
        if (row == null || row.getInt("v") != k) {
          missing++;
        }
      }
      assertThat(missing).as("acknowledged writes not read back at QUORUM of %d", acked.size()).isZero();
      System.out.printf("re-read at QUORUM after the changes: %d acknowledged writes, %d missing%n", acked.size(), missing);
      // The stress keys too: a last read run over all of them, no errors allowed.
      String reread = StressLoad.stress("read n=" + StressLoad.KEYS + " no-warmup cl=QUORUM -pop seq=1.." + StressLoad.KEYS
          + " -node 127.0.0.1 -port native=" + ring.cqlPort + " -log no-settings -rate threads=4");
      assertThat(reread).as(reread).contains("Total errors              :          0");
    }
    String status = ring.status(1) + ring.nodetool(1, "status", "m");
    System.out.print(status);
    Matcher owns = Pattern.compile("(?m)^UN .*? ([0-9.]+)%").matcher(ring.nodetool(1, "status", "m"));
    int nodes = 0;
    while (owns.find()) {
      nodes++;
      assertThat(Double.parseDouble(owns.group(1))).isCloseTo(100.0, org.assertj.core.data.Offset.offset(0.5));
    }
    assertThat(nodes).isEqualTo(3);
  }

  private static long lap(Map<String, Long> steps, String name, long startNanos) {
    long now = System.nanoTime();
    steps.put(name, (now - startNanos) / 1_000_000);
    return now;
  }

  private static void printLines(Path log, String word) throws java.io.IOException {
    Files.readAllLines(log, StandardCharsets.ISO_8859_1).stream().filter(l -> l.contains("Ring: " + word))
        .forEach(System.out::println);
  }

  private static boolean logContains(Path log, String text) {
    try {
      return Files.exists(log) && Files.readString(log, StandardCharsets.ISO_8859_1).contains(text);
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
