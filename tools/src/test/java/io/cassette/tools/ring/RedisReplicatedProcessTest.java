package io.cassette.tools.ring;

import static io.cassette.tools.ring.RingProcesses.countState;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Redis on three real node processes with {@code resp_replication_factor: 3} and the default
 * {@code resp_consistency: quorum}: INCR and SET clients on two nodes while the key's executor
 * is killed with {@code kill -9}. The next replica takes over: INCRs go on being acknowledged
 * (with one replica they were CLUSTERDOWN until the node came back), no two INCRs answer the
 * same value (no increment lost or counted twice), the final count lies within the
 * acknowledged and the possibly applied ones, the register holds the last acknowledged SET (or
 * a later unanswered one); the killed node, started again, executes the key once more from
 * the current value (its own copy missed the writes: its QUORUM read brings them).
 * Slow (ring start, a kill and a restart: about 2 minutes here under load).
 */
@Tag("slow")
class RedisReplicatedProcessTest {
  private static final String RF = "resp_replication_factor=3";
  @RegisterExtension
  final RingProcesses ring = new RingProcesses(3);

  @Test
  void killingAKeysExecutorLosesNoAcknowledgedIncrOrSet() throws Exception {
    ring.pickPorts(true);
    ring.startAll(3, "--set", RF);
    for (int i = 1; i <= 3; i++) {
      ring.awaitUp(i, 3);
    }
    // A key executed by node 2 or 3 (node 1 is the metadata service: killing it is another test).
    String counter = null;
    int victim = 0;
    for (int c = 0; c < 100 && counter == null; c++) {
      List<String> replicas = ring.nodetool(1, "getendpoints", "redis", "db0", "mc" + c).lines()
          .map(String::trim).filter(l -> !l.isEmpty()).toList();
      assertThat(replicas).as("replicas of a Redis key with resp_replication_factor 3").hasSize(3);
      if (!replicas.get(0).equals(ring.address(1))) {
        counter = "c" + c;
        victim = Integer.parseInt(replicas.get(0).substring(replicas.get(0).lastIndexOf('.') + 1));
      }
    }
    assertThat(counter).isNotNull();
    String register = "{" + counter + "}reg"; // the same executor (hash tag)
    int a = victim == 2 ? 1 : 2;
    int b = victim == 3 ? 1 : 3;
    System.out.printf("key %s executed by node %d; clients on nodes %d and %d%n", counter, victim, a, b);

    Clients clients = new Clients(counter, register);
    List<Thread> threads = List.of(clients.incrLoop(a), clients.incrLoop(b), clients.setLoop(a));
    threads.forEach(Thread::start);
    ring.await("100 INCRs acknowledged before the kill", Duration.ofSeconds(120), () -> clients.incrOk.get() >= 100);
    long beforeKill = clients.incrOk.get();
    long t0 = System.nanoTime();
    ring.kill(victim);
    ring.await("200 INCRs acknowledged after the kill of the key's executor", Duration.ofSeconds(120),
        () -> clients.incrOk.get() >= beforeKill + 200);
    System.out.printf("200 INCRs after the kill in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    clients.stop.set(true);
    for (Thread t : threads) {
      t.join(60_000);
    }
    System.out.printf("INCR: %d acknowledged, %d unanswered; SET: last acknowledged %d, %d unanswered%n",
        clients.incrOk.get(), clients.incrUnknown.get(), clients.lastSet.get(), clients.unknownSets.size());
    assertThat(clients.duplicates).as("INCR answers given twice (an increment lost)").isEmpty();
    long finalCount = 0;
    for (int node : new int[] {a, b}) {
      try (Jedis j = jedis(node)) {
        finalCount = Long.parseLong(j.get(counter));
        assertThat(finalCount).as("the count through node %d", node)
            .isBetween(clients.incrOk.get(), clients.incrOk.get() + clients.incrUnknown.get());
        assertThat(finalCount).isGreaterThanOrEqualTo(clients.highestAnswer.get());
        long v = Long.parseLong(j.get(register));
        assertThat(v == clients.lastSet.get() || clients.unknownSets.contains(v))
            .as("register %d: the last acknowledged SET %d or a later unanswered one", v, clients.lastSet.get()).isTrue();
      }
    }
    // The killed node starts again and executes its key once more.
    ring.start(victim, "--set", RF);
    ring.awaitReady(victim, 2);
    int back = victim;
    ring.await("node " + back + " sees 3 UN", RingProcesses.START_TIMEOUT, () -> countState(ring.status(back), "UN") == 3);
    ring.await("node " + a + " sees 3 UN", RingProcesses.START_TIMEOUT, () -> countState(ring.status(a), "UN") == 3);
    try (Jedis j = jedis(victim)) {
      assertThat(j.incr(counter)).isEqualTo(finalCount + 1);
    }
  }

  private Jedis jedis(int node) {
    return new Jedis(ring.address(node), ring.respPort, 15_000);
  }

  /** The client threads and what they saw. */
  private final class Clients {
    final String counter;
    final String register;
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong incrOk = new AtomicLong();
    final AtomicLong incrUnknown = new AtomicLong();
    final AtomicLong highestAnswer = new AtomicLong();
    final Set<Long> answers = ConcurrentHashMap.newKeySet();
    final List<Long> duplicates = java.util.Collections.synchronizedList(new ArrayList<>());
    final AtomicLong lastSet = new AtomicLong();
    /** SETs unanswered after the last acknowledged one (any of them may have been applied). */
    final Set<Long> unknownSets = ConcurrentHashMap.newKeySet();

    Clients(String counter, String register) {
      this.counter = counter;
      this.register = register;
    }

    Thread incrLoop(int node) {
      return new Thread(() -> {
        Jedis j = null;
        while (!stop.get()) {
          try {
            if (j == null) {
              j = jedis(node);
            }
            long v = j.incr(counter);
            incrOk.incrementAndGet();
            highestAnswer.accumulateAndGet(v, Math::max);
            if (!answers.add(v)) {
              duplicates.add(v);
            }
          } catch (RuntimeException e) {
            incrUnknown.incrementAndGet(); // a timeout may have been applied: counted as possible
            System.out.println("INCR via node " + node + ": " + e);
            if (j != null) {
              j.close();
            }
            j = null;
          }
        }
        if (j != null) {
          j.close();
        }
      }, "incr-" + node);
    }

    Thread setLoop(int node) {
      return new Thread(() -> {
        Jedis j = null;
        long value = 0;
        j = jedis(node);
        try {
          j.set(register, "0");
        } finally {
          j.close();
        }
        j = null;
        while (!stop.get()) {
          value++;
          try {
            if (j == null) {
              j = jedis(node);
            }
            j.set(register, Long.toString(value));
            lastSet.set(value);
            unknownSets.clear();
          } catch (RuntimeException e) {
            unknownSets.add(value);
            System.out.println("SET via node " + node + ": " + e);
            if (j != null) {
              j.close();
            }
            j = null;
          }
        }
        if (j != null) {
          j.close();
        }
      }, "set-" + node);
    }
  }
}
