package io.cassette.lab.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A grow-only set of acknowledged inserts (Jepsen's "set-full", reduced): every element whose
 * insert was acknowledged must be in every read that started after the acknowledgement, and in
 * the final read. Indeterminate inserts may appear or not; an element nobody tried to insert
 * must never appear.
 *
 * <p>Reads are of one group (a partition) at a time; {@code group} names which elements a read
 * covers.
 */
public final class SetChecker {
  /** An insert of {@code element}; {@code status} as the client saw it. */
  public record Insert(int element, long call, long ret, Status status) {}

  /** A read of one group that answered {@code elements} ({@code fin}: one of the reads after the run). */
  public record Read(int group, long call, long ret, Set<Integer> elements, boolean fin, String via) {}

  /**
   * @param lost acknowledged elements missing from a final read
   * @param stale acknowledged elements missing from a read that started after their acknowledgement
   *              (lost ones included; each with the first read that missed it)
   * @param unexpected elements read that were never inserted
   * @param recovered indeterminate inserts found in the final reads
   */
  public record Result(int acknowledged, int failed, int indeterminate, int reads,
                       Set<Integer> lost, Map<Integer, String> stale, Set<Integer> unexpected, int recovered) {
    public CheckResult.Verdict verdict() {
      return lost.isEmpty() && stale.isEmpty() && unexpected.isEmpty() ? CheckResult.Verdict.OK
          : CheckResult.Verdict.VIOLATION;
    }
  }

  /** How an element maps to the group a read covers. */
  public interface Grouping {
    int group(int element);
  }

  public static Result check(List<Insert> inserts, List<Read> reads, Grouping grouping) {
    Map<Integer, Insert> byElement = new HashMap<>();
    int ok = 0;
    int failed = 0;
    int indeterminate = 0;
    for (Insert i : inserts) {
      byElement.put(i.element(), i);
      switch (i.status()) {
        case OK -> ok++;
        case FAIL -> failed++;
        case INDETERMINATE -> indeterminate++;
      }
    }
    Set<Integer> lost = new TreeSet<>();
    Map<Integer, String> stale = new java.util.TreeMap<>();
    Set<Integer> unexpected = new TreeSet<>();
    Set<Integer> seenAtEnd = new HashSet<>();
    List<Read> finals = new ArrayList<>();
    for (Read r : reads) {
      for (int e : r.elements()) {
        if (!byElement.containsKey(e) || grouping.group(e) != r.group()) {
          unexpected.add(e);
        }
      }
      if (r.fin()) {
        finals.add(r);
        seenAtEnd.addAll(r.elements());
      }
    }
    Map<Integer, List<Read>> readsByGroup = new HashMap<>();
    for (Read r : reads) {
      readsByGroup.computeIfAbsent(r.group(), k -> new ArrayList<>()).add(r);
    }
    for (Insert i : inserts) {
      if (i.status() != Status.OK) {
        continue;
      }
      for (Read r : readsByGroup.getOrDefault(grouping.group(i.element()), List.of())) {
        if (r.call() > i.ret() && !r.elements().contains(i.element())) {
          stale.putIfAbsent(i.element(), "inserted [" + i.call() + ", " + i.ret() + "], missing from the "
              + (r.fin() ? "final " : "") + "read via " + r.via() + " [" + r.call() + ", " + r.ret() + "] of "
              + r.elements().size() + " elements");
          if (r.fin()) {
            lost.add(i.element());
          }
        }
      }
    }
    int recovered = 0;
    for (Insert i : inserts) {
      if (i.status() == Status.INDETERMINATE && seenAtEnd.contains(i.element())) {
        recovered++;
      }
    }
    return new Result(ok, failed, indeterminate, reads.size(), lost, stale, unexpected, recovered);
  }
}
