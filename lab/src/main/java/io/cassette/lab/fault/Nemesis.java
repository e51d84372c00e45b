package io.cassette.lab.fault;

import io.cassette.lab.ring.LabNode;
import io.cassette.lab.ring.LabRing;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Injects faults one at a time while the workloads run: quiet for {@code quietMillis}, then a
 * fault of a kind drawn in turn from {@code kinds} on a random node for {@code faultMillis},
 * healed, and so on until the deadline. Every window is recorded. A node killed is restarted and
 * awaited before the next fault, so the ring never loses two nodes at once (RF=3 at QUORUM keeps
 * answering; what is tested is that nothing acknowledged is lost or reordered meanwhile).
 */
public final class Nemesis implements Runnable {
  private final LabRing ring;
  private final List<FaultKind> kinds;
  private final long quietMillis;
  private final long faultMillis;
  private final long deadlineMillis;
  private final LongSupplier clock;
  private final Random random;
  private final List<FaultWindow> windows = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();

  /** @param clock milliseconds since the run began */
  public Nemesis(LabRing ring, List<FaultKind> kinds, long quietMillis, long faultMillis, long deadlineMillis,
                 LongSupplier clock, long seed) {
    this.ring = ring;
    this.kinds = kinds;
    this.quietMillis = quietMillis;
    this.faultMillis = faultMillis;
    this.deadlineMillis = deadlineMillis;
    this.clock = clock;
    this.random = new Random(seed);
  }

  @Override
  public void run() {
    int turn = 0;
    try {
      while (!kinds.isEmpty()) {
        Thread.sleep(quietMillis);
        if (clock.getAsLong() + faultMillis > deadlineMillis) {
          return;
        }
        FaultKind kind = kinds.get(turn++ % kinds.size());
        LabNode node = ring.node(1 + random.nextInt(ring.nodes().size()));
        inject(kind, node);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      synchronized (errors) {
        errors.add(e.toString());
      }
    } finally {
      healAll();
    }
  }

  private void inject(FaultKind kind, LabNode node) throws Exception {
    long start = clock.getAsLong();
    String note = "";
    switch (kind) {
      case KILL -> {
        node.kill9();
        Thread.sleep(faultMillis);
        node.start();
        node.awaitReady(LabRing.startTimeoutMillis());
        note = "restarted, ready after " + (clock.getAsLong() - start) + " ms";
      }
      case PAUSE -> {
        node.pause();
        Thread.sleep(faultMillis);
        node.resume();
      }
      case PARTITION, PARTITION_ONE_WAY -> {
        Set<Integer> others = new HashSet<>();
        for (LabNode n : ring.nodes()) {
          if (n != node) {
            others.add(n.index());
          }
        }
        ring.network().cut(Set.of(node.index()), others, kind == FaultKind.PARTITION);
        note = kind == FaultKind.PARTITION ? "n" + node.index() + " | " + others
            : "n" + node.index() + " -> " + others + " dropped";
        Thread.sleep(faultMillis);
        ring.network().heal();
      }
    }
    synchronized (windows) {
      windows.add(new FaultWindow(kind, node.index(), start, clock.getAsLong(), note));
    }
  }

  /** Leaves the ring whole: partitions healed, paused nodes continued, killed ones restarted. */
  private void healAll() {
    try {
      ring.network().heal();
    } catch (Exception e) {
      synchronized (errors) {
        errors.add("heal: " + e);
      }
    }
    for (LabNode n : ring.nodes()) {
      n.resume();
      if (!n.alive()) {
        try {
          n.start();
          n.awaitReady(LabRing.startTimeoutMillis());
        } catch (Exception e) {
          synchronized (errors) {
            errors.add("restart n" + n.index() + ": " + e);
          }
        }
      }
    }
  }

  public List<FaultWindow> windows() {
    synchronized (windows) {
      return new ArrayList<>(windows);
    }
  }

  public List<String> errors() {
    synchronized (errors) {
      return new ArrayList<>(errors);
    }
  }
}
