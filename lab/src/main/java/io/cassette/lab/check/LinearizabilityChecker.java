package io.cassette.lab.check;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Is a history linearizable against a {@link Model}? Wing and Gong's search with Lowe's
 * just-in-time linearization and memoisation, in the shape Porcupine gives it:
 *
 * <ol>
 *   <li>Per-key decomposition: linearizability is local (Herlihy and Wing), so each key's
 *       operations are checked alone, which keeps every search small.
 *   <li>A key's calls and returns, in time order, form a doubly linked list. Walking it, a call
 *       is tried as the next linearized operation (the model must accept its output from the
 *       current state); success removes ("lifts") its call and return from the list and starts
 *       over from the head. Reaching a return whose operation is not linearized yet means a
 *       wrong choice earlier: pop the last choice, put its entries back, try the next call.
 *   <li>Memoisation ({@link FailedConfigurations}): a (model state, set of linearized
 *       operations) from which every way on failed is remembered, and so is every set that
 *       holds more indeterminate operations with the same state and the same determinate ones
 *       (they only have fewer choices left). Porcupine memoises exact pairs; with the many
 *       timed-out writes of a kill run, exact pairs let the search try every subset of them.
 *   <li>An indeterminate operation that would leave the state as it is is not placed there.
 * </ol>
 *
 * <p>Operations that failed are dropped (they did not happen), and so are read-only ones that
 * did not return an answer. An indeterminate operation has no return entry: it may be
 * linearized any time after its call, and the search succeeds once every operation that
 * returned is linearized, so it may also never happen.
 *
 * <p>The search is exponential in the worst case: {@code maxSteps} bounds each key, and a key
 * that runs out is UNKNOWN rather than a guess.
 */
public final class LinearizabilityChecker<S, I, O> {
  /** Lines of the partial linearization printed with a violation. */
  private static final int EXPLANATION_TAIL = 12;

  private final Model<S, I, O> model;
  private final long maxSteps;

  public LinearizabilityChecker(Model<S, I, O> model, long maxSteps) {
    this.model = model;
    this.maxSteps = maxSteps;
  }

  public LinearizabilityChecker(Model<S, I, O> model) {
    this(model, 5_000_000);
  }

  /** Every key's result, keys in first-seen order. */
  public List<CheckResult> checkByKey(List<Operation<I, O>> history) {
    Map<String, List<Operation<I, O>>> byKey = new LinkedHashMap<>();
    for (Operation<I, O> op : history) {
      byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
    }
    List<CheckResult> results = new ArrayList<>();
    for (Map.Entry<String, List<Operation<I, O>>> e : byKey.entrySet()) {
      results.add(checkKey(e.getKey(), e.getValue()));
    }
    return results;
  }

  /** The worst verdict over all keys: a violation if any key has one, else unknown if any is. */
  public static CheckResult.Verdict overall(List<CheckResult> results) {
    CheckResult.Verdict v = CheckResult.Verdict.OK;
    for (CheckResult r : results) {
      if (r.verdict() == CheckResult.Verdict.VIOLATION) {
        return r.verdict();
      }
      if (r.verdict() == CheckResult.Verdict.UNKNOWN) {
        v = r.verdict();
      }
    }
    return v;
  }

  /**
   * One key's operations (all of them are taken as the same object). First without the
   * indeterminate operations whose effect nobody saw ({@link Model#unobserved}): if that history
   * is linearizable, so is the whole (they never took effect); otherwise the whole is searched.
   */
  public CheckResult checkKey(String key, List<Operation<I, O>> operations) {
    List<Operation<I, O>> seen = new ArrayList<>();
    for (Operation<I, O> op : operations) {
      if (op.determinate() || !model.unobserved(op.input(), operations)) {
        seen.add(op);
      }
    }
    if (seen.size() < operations.size()) {
      CheckResult r = search(key, seen);
      if (r.ok()) {
        return new CheckResult(key, r.verdict(), r.operations(), List.of((operations.size() - seen.size())
            + " indeterminate operations nobody saw left out"));
      }
    }
    return search(key, operations);
  }

  private CheckResult search(String key, List<Operation<I, O>> operations) {
    List<Operation<I, O>> ops = new ArrayList<>();
    for (Operation<I, O> op : operations) {
      if (op.status() == Status.FAIL) {
        continue;
      }
      if (op.status() == Status.INDETERMINATE && model.isReadOnly(op.input())) {
        continue;
      }
      ops.add(op);
    }
    Model<S, I, O> model = this.model.forHistory(ops);
    int n = ops.size();
    BitSet indeterminate = new BitSet(n);
    for (int i = 0; i < n; i++) {
      indeterminate.set(i, !ops.get(i).determinate());
    }
    int determinate = n - indeterminate.cardinality();
    // Two lists: the determinate operations' calls and returns, and the indeterminate ones' calls.
    Entry head = buildList(ops, false);
    Entry pendingHead = buildList(ops, true);

    BitSet linearized = new BitSet(n);
    FailedConfigurations<S> failed = new FailedConfigurations<>(indeterminate);
    List<Entry> calls = new ArrayList<>(); // the stack of choices
    List<S> states = new ArrayList<>();    // the state before each choice
    List<Entry> stops = new ArrayList<>(); // the return that bounded each choice
    S state = model.init();
    int linearizedDeterminate = 0;
    long steps = 0;
    // For the explanation: the deepest point reached and the return that stopped it there.
    int bestDepth = -1;
    List<Integer> bestOrder = List.of();
    List<S> bestStates = List.of();
    int stuckOn = -1;

    Entry entry = head.next;
    Entry stop = null; // non-null while trying indeterminate calls made before this return
    while (linearizedDeterminate < determinate) {
      if (++steps > maxSteps) {
        return new CheckResult(key, CheckResult.Verdict.UNKNOWN, n,
            List.of("search budget of " + maxSteps + " steps exhausted"));
      }
      if (stop == null && !entry.isCall) {
        // Every determinate call before the first return was tried: now the indeterminate ones.
        stop = entry;
        entry = pendingHead.next;
        continue;
      }
      if (entry != null && (stop == null || entry.time <= stop.time)) {
        Operation<I, O> op = ops.get(entry.op);
        S next = model.step(state, op.input(), op.output());
        boolean fresh = false;
        if (next != null && !(stop != null && next.equals(state))) {
          // (An indeterminate operation that changes nothing here is never worth placing: it
          // may as well not happen, and leaving it out keeps it for later.)
          linearized.set(entry.op);
          fresh = !failed.covers(next, linearized);
          linearized.clear(entry.op);
        }
        if (fresh) {
          calls.add(entry);
          states.add(state);
          stops.add(stop);
          state = next;
          linearized.set(entry.op);
          if (op.determinate()) {
            linearizedDeterminate++;
          }
          entry.lift();
          entry = head.next;
          stop = null;
        } else {
          entry = entry.next;
        }
        continue;
      }
      // Nothing more to try here: the return "stop" cannot be reached from this state.
      if (calls.size() > bestDepth) {
        bestDepth = calls.size();
        List<Integer> order = new ArrayList<>();
        for (Entry c : calls) {
          order.add(c.op);
        }
        bestOrder = order;
        bestStates = new ArrayList<>(states);
        bestStates.add(state);
        stuckOn = stop.op;
      }
      if (calls.isEmpty()) {
        return new CheckResult(key, CheckResult.Verdict.VIOLATION, n,
            explain(model, ops, bestOrder, bestStates, stuckOn));
      }
      failed.add(state, linearized); // every way on from here was tried
      Entry last = calls.remove(calls.size() - 1);
      state = states.remove(states.size() - 1);
      stop = stops.remove(stops.size() - 1);
      linearized.clear(last.op);
      if (ops.get(last.op).determinate()) {
        linearizedDeterminate--;
      }
      last.unlift();
      entry = last.next;
    }
    return new CheckResult(key, CheckResult.Verdict.OK, n, List.of());
  }

  private List<String> explain(Model<S, I, O> model, List<Operation<I, O>> ops, List<Integer> order, List<S> states, int stuckOn) {
    List<String> lines = new ArrayList<>();
    Operation<I, O> stuck = ops.get(stuckOn);
    lines.add("no linearization: " + stuck + " cannot be placed (from state " + model.describe(states.get(states.size() - 1))
        + " after the longest linearizable prefix, " + order.size() + " operations)");
    int from = Math.max(0, order.size() - EXPLANATION_TAIL);
    if (from > 0) {
      lines.add("  ... " + from + " earlier operations");
    }
    for (int i = from; i < order.size(); i++) {
      lines.add("  " + (i + 1) + ". " + ops.get(order.get(i)) + "  => " + model.describe(states.get(i + 1)));
    }
    // The operations concurrent with the stuck one that were not placed: the other candidates.
    for (int i = 0; i < ops.size(); i++) {
      Operation<I, O> o = ops.get(i);
      if (i != stuckOn && !order.contains(i) && o.call() <= stuck.ret() && o.ret() >= stuck.call()) {
        lines.add("  concurrent, not placed: " + o);
      }
    }
    return lines;
  }

  /**
   * Calls and returns in time order (a call before a return at the same instant), behind a
   * sentinel: of the determinate operations, or the calls of the indeterminate ones.
   */
  private Entry buildList(List<Operation<I, O>> ops, boolean indeterminate) {
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      Operation<I, O> op = ops.get(i);
      if (op.determinate() == indeterminate) {
        continue;
      }
      Entry call = new Entry(i, true, op.call());
      entries.add(call);
      if (op.determinate()) {
        Entry ret = new Entry(i, false, op.ret());
        call.match = ret;
        entries.add(ret);
      }
    }
    entries.sort(Comparator.comparingLong((Entry e) -> e.time).thenComparing(e -> !e.isCall));
    Entry head = new Entry(-1, false, Long.MIN_VALUE);
    Entry prev = head;
    for (Entry e : entries) {
      prev.next = e;
      e.prev = prev;
      prev = e;
    }
    return head;
  }

  /** A node of the call/return list. */
  private static final class Entry {
    final int op;
    final boolean isCall;
    final long time;
    Entry match; // a call's return entry; null for an indeterminate call
    Entry prev;
    Entry next;

    Entry(int op, boolean isCall, long time) {
      this.op = op;
      this.isCall = isCall;
      this.time = time;
    }

    /** Unlinks this call and its return. */
    void lift() {
      prev.next = next;
      if (next != null) {
        next.prev = prev;
      }
      if (match != null) {
        match.prev.next = match.next;
        if (match.next != null) {
          match.next.prev = match.prev;
        }
      }
    }

    /** Links them back, in the reverse order of {@link #lift}. */
    void unlift() {
      if (match != null) {
        match.prev.next = match;
        if (match.next != null) {
          match.next.prev = match;
        }
      }
      prev.next = this;
      if (next != null) {
        next.prev = this;
      }
    }
  }

}
