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
 * fault of a kind drawn in turn from {@code kinds} on a random node (or random groups) for {@code faultMillis},
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
        try {
          inject(kind, node);
        } catch (InterruptedException e) {
          throw e;
        } catch (Exception e) {
          // The ring did not come back from this fault (e.g. a restarted node exited): named in
          // the report, made whole again, and the run goes on.
          error(kind.label() + " n" + node.index() + ": " + firstLine(e) + " (see nodes/n" + node.index() + ".log)");
          healAll();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      healAll();
    }
  }

  private void error(String e) {
    synchronized (errors) {
      errors.add(e);
    }
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return e.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
  }

  private void inject(FaultKind kind, LabNode node) throws Exception {
    long start = clock.getAsLong();
    long lifted = -1;
    String note = "";
    boolean done = false;
    try {
      switch (kind) {
        case KILL -> {
          node.kill9();
          Thread.sleep(faultMillis);
          lifted = clock.getAsLong();
          ring.restart(node);
          note = "restarted, ready after " + (clock.getAsLong() - start) + " ms";
        }
        case DISK_FULL -> {
          try (DiskBalloon balloon = DiskBalloon.fill(node.dataDir())) {
            note = "n" + node.index() + ": " + balloon.describe();
            Thread.sleep(faultMillis);
          }
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
        case PARTITION_HALVES, PARTITION_BRIDGE -> {
          List<Integer> shuffled = new ArrayList<>();
          for (LabNode n : ring.nodes()) {
            shuffled.add(n.index());
          }
          java.util.Collections.shuffle(shuffled, random);
          int count = shuffled.size();
          Set<Integer> minority = new HashSet<>();
          Set<Integer> majority = new HashSet<>();
          if (kind == FaultKind.PARTITION_HALVES) {
            int small = 1 + random.nextInt(Math.max(1, count / 2));
            minority.addAll(shuffled.subList(0, small));
            majority.addAll(shuffled.subList(small, count));
            note = minority + " | " + majority;
          } else {
            int bridge = shuffled.get(0);
            int half = (count - 1) / 2;
            minority.addAll(shuffled.subList(1, 1 + half));
            majority.addAll(shuffled.subList(1 + half, count));
            note = minority + " | " + majority + ", bridge n" + bridge;
          }
          ring.network().cut(minority, majority, true);
          Thread.sleep(faultMillis);
          ring.network().heal();
        }
      }
      done = true;
    } finally {
      synchronized (windows) {
        long end = clock.getAsLong();
        windows.add(new FaultWindow(kind, kind == FaultKind.PARTITION_HALVES || kind == FaultKind.PARTITION_BRIDGE
            ? 0 : node.index(), start, lifted < 0 ? end : lifted, end, done ? note : "did not recover: see the errors"));
      }
    }
  }

  /** Leaves the ring whole: partitions healed, paused nodes continued, killed ones restarted. */
  private void healAll() {
    try {
      ring.network().heal();
    } catch (Exception e) {
      error("heal: " + firstLine(e));
    }
    for (LabNode n : ring.nodes()) {
      n.resume();
      if (!n.alive()) {
        try {
          ring.restart(n);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (Exception e) {
          error("restart n" + n.index() + ": " + firstLine(e) + " (see nodes/n" + n.index() + ".log)");
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
