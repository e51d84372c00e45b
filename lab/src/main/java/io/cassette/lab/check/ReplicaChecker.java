package io.cassette.lab.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every replica ends up with every acknowledged write (what hinted handoff is for): after the
 * run, once no node holds hints any more, each replica's own copy of a group must contain every
 * element whose write was acknowledged. A write acknowledged at ONE while a replica was down or
 * cut off reaches that replica only through a hint, and the reads here are of one replica alone
 * (no read repair, no second replica), so a missing element is a hint that was not stored, was
 * lost or was not replayed.
 *
 * <p>Some writes may rightly miss a replica, in Cassandra as here, and are counted apart by an
 * {@link Excuse}: e.g. hints are buffered in memory for {@code hints_flush_period}, so a
 * coordinator killed soon after a write may take its hints with it; a replica that answered
 * with a failure (a full disk) gets no hint. Elements nobody wrote must never appear.
 */
public final class ReplicaChecker {
  private ReplicaChecker() {}

  /**
   * A write of {@code element}, as the client saw it.
   *
   * @param coordinator the node that answered it (1-based), 0 when unknown (not acknowledged)
   */
  public record Write(int element, long call, long ret, Status status, int coordinator) {}

  /** What {@code replica} (1-based) alone held of {@code group} after the run. */
  public record ReplicaRead(int replica, int group, Set<Integer> elements) {}

  /** Why an acknowledged write may be missing from a replica; null when nothing excuses it. */
  public interface Excuse {
    String why(Write write, int replica);
  }

  /** Which group (partition) an element belongs to. */
  public interface Grouping {
    int group(int element);
  }

  /**
   * @param missing per replica, the acknowledged elements its own copy lacks with no excuse
   * @param excused acknowledged elements missing from a replica with an excuse, one line each
   *                ("element e on nR: why")
   * @param checked (acknowledged element, replica) pairs checked
   * @param recovered indeterminate writes found on every replica that was read for their group
   * @param unexpected elements read that nobody wrote (or in another group)
   */
  public record Result(int acknowledged, int failed, int indeterminate, int replicaReads, long checked,
                       Map<Integer, Set<Integer>> missing, List<String> excused, int recovered,
                       Set<Integer> unexpected) {
    public int missingCount() {
      return missing.values().stream().mapToInt(Set::size).sum();
    }

    public CheckResult.Verdict verdict() {
      return missing.isEmpty() && unexpected.isEmpty() ? CheckResult.Verdict.OK : CheckResult.Verdict.VIOLATION;
    }
  }

  public static Result check(List<Write> writes, List<ReplicaRead> reads, Grouping grouping, Excuse excuse) {
    Map<Integer, Write> byElement = new HashMap<>();
    int ok = 0;
    int failed = 0;
    int indeterminate = 0;
    for (Write w : writes) {
      byElement.put(w.element(), w);
      switch (w.status()) {
        case OK -> ok++;
        case FAIL -> failed++;
        case INDETERMINATE -> indeterminate++;
      }
    }
    Map<Integer, List<ReplicaRead>> readsByGroup = new HashMap<>();
    Set<Integer> unexpected = new TreeSet<>();
    for (ReplicaRead r : reads) {
      readsByGroup.computeIfAbsent(r.group(), k -> new ArrayList<>()).add(r);
      for (int e : r.elements()) {
        Write w = byElement.get(e);
        if (w == null || w.status() == Status.FAIL || grouping.group(e) != r.group()) {
          unexpected.add(e);
        }
      }
    }
    Map<Integer, Set<Integer>> missing = new TreeMap<>();
    List<String> excused = new ArrayList<>();
    long checked = 0;
    int recovered = 0;
    for (Write w : writes) {
      List<ReplicaRead> rs = readsByGroup.getOrDefault(grouping.group(w.element()), List.of());
      if (w.status() == Status.INDETERMINATE) {
        if (!rs.isEmpty() && rs.stream().allMatch(r -> r.elements().contains(w.element()))) {
          recovered++;
        }
        continue;
      }
      if (w.status() != Status.OK) {
        continue;
      }
      for (ReplicaRead r : rs) {
        checked++;
        if (r.elements().contains(w.element())) {
          continue;
        }
        String why = excuse.why(w, r.replica());
        if (why != null) {
          excused.add("element " + w.element() + " on n" + r.replica() + ": " + why);
        } else {
          missing.computeIfAbsent(r.replica(), k -> new TreeSet<>()).add(w.element());
        }
      }
    }
    return new Result(ok, failed, indeterminate, reads.size(), checked, missing, excused, recovered, unexpected);
  }
}
