package io.cassette.lab.ring;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * N nodes; the first {@code seeds} of them are seeds and so members of the metadata service
 * (Raft). One seed is the default: on a machine this loaded (load ~50 on 2 cores) three Raft
 * members spent minutes electing a leader, and the data path under test needs no metadata
 * change once the tables exist.
 */
public final class LabRing implements AutoCloseable {
  /** Fast failure detection, so a fault is seen within seconds (phi 8 at 200 ms: ~4-8 s). */
  public static final String HEARTBEAT = "heartbeat_interval=200ms";

  /**
   * Copies of each Redis key: the product's default, 1, unless the lab is run with
   * {@code --redis-replication N} (the JVM property {@code cassette.lab.redis_replication}), at
   * most N nodes. With 3 copies at resp_consistency quorum a killed node's keys move to the next
   * replica (with 1 they answer CLUSTERDOWN until it is back); but two nodes may both execute a key
   * while their views of who is up differ (a paused executor that resumes), and Redis INCRs
   * acknowledged by both are then lost (last write wins): seen in a 300 s pause run, 3 of 12 keys.
   */
  public static int redisReplicationFactor(int nodes) {
    return Math.max(1, Math.min(Integer.getInteger("cassette.lab.redis_replication", 1), nodes));
  }
  /**
   * The Redis door beyond loopback without a password runs in protected mode (Redis's rule) and
   * refuses the lab's clients in their own namespace: so the nodes get one.
   */
  public static final String REDIS_PASSWORD = "fault-lab";
  private static final long START_TIMEOUT_MILLIS = 300_000;

  private final LabNetwork network;
  private final List<LabNode> nodes = new ArrayList<>();
  private final int seedCount;
  private static final int START_ATTEMPTS = 3;
  private final List<String> startFailures = new ArrayList<>();

  public LabRing(LabNetwork network, NodeLauncher launcher, Path dir, int count, int seedCount) {
    this.network = network;
    this.seedCount = Math.max(1, Math.min(count, seedCount));
    StringBuilder seeds = new StringBuilder();
    for (int i = 1; i <= Math.min(count, seedCount); i++) {
      seeds.append(i > 1 ? "," : "").append(network.address(i));
    }
    for (int i = 1; i <= count; i++) {
      nodes.add(new LabNode(i, network, launcher, dir, seeds.toString(), List.of(HEARTBEAT, "requirepass=" + REDIS_PASSWORD,
          "resp_replication_factor=" + redisReplicationFactor(count))));
    }
  }

  /**
   * The seeds first, awaited, then the others together: a node whose metadata client started
   * before the seed's metadata service was up stayed in REGISTER for minutes (seen here at load
   * ~60), and operators start the seed first anyway.
   */
  public void start() throws IOException, InterruptedException {
    for (LabNode n : nodes) {
      if (n.index() <= seedCount) {
        n.start();
      }
    }
    for (LabNode n : nodes) {
      if (n.index() <= seedCount) {
        awaitOrRestart(n);
      }
    }
    for (LabNode n : nodes) {
      if (n.index() > seedCount) {
        n.start();
      }
    }
    for (LabNode n : nodes) {
      awaitOrRestart(n);
    }
  }

  /** Starts a node (again, after kill -9) and waits for it, as {@link #awaitOrRestart} does. */
  public void restart(LabNode n) throws IOException, InterruptedException {
    n.start();
    awaitOrRestart(n);
  }

  /**
   * Waits until {@code n} is ready; a node that exits during its start is started again, up to
   * {@link #START_ATTEMPTS} times, as a service manager would (systemd Restart=on-failure), and
   * each such exit is kept for the report ({@link #startFailures}): seen here, a node whose RESP
   * door found no QUORUM at start ("Cannot listen for RESP ... Cannot achieve consistency level
   * QUORUM") before its failure detector had seen its peers UP.
   */
  private void awaitOrRestart(LabNode n) throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        n.awaitReady(START_TIMEOUT_MILLIS);
        return;
      } catch (IOException e) {
        if (n.alive() || attempt >= START_ATTEMPTS) {
          throw e;
        }
        String error = "(no ERROR line)";
        for (String line : n.tail(60).split("\n")) {
          if (line.contains(" ERROR ")) {
            error = line;
          }
        }
        synchronized (startFailures) {
          startFailures.add("n" + n.index() + " exited during start (attempt " + attempt + "), started again: " + error);
        }
        Thread.sleep(1_000);
        n.start();
      }
    }
  }

  /** Nodes that exited while starting and were started again: findings, for the report. */
  public List<String> startFailures() {
    synchronized (startFailures) {
      return new ArrayList<>(startFailures);
    }
  }

  public List<LabNode> nodes() {
    return nodes;
  }

  public LabNode node(int i) {
    return nodes.get(i - 1);
  }

  public LabNetwork network() {
    return network;
  }

  public static long startTimeoutMillis() {
    return START_TIMEOUT_MILLIS;
  }

  @Override
  public void close() {
    for (LabNode n : nodes) {
      n.destroy();
    }
  }
}
