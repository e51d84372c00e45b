package io.cassette.lab.check;

import java.util.ArrayList;
import java.util.List;

/**
 * The definition, searched exhaustively: some order of the operations that returned (and any
 * subset of the indeterminate ones), respecting real time, that the model accepts. Only for
 * histories of a few operations; the reference the real checker is tested against.
 */
final class BruteForce {
  static <S, I, O> boolean linearizable(Model<S, I, O> model, List<Operation<I, O>> history) {
    List<Operation<I, O>> ops = new ArrayList<>();
    for (Operation<I, O> op : history) {
      if (op.status() == Status.FAIL || (!op.determinate() && model.isReadOnly(op.input()))) {
        continue;
      }
      ops.add(op);
    }
    return search(model, ops, new boolean[ops.size()], model.init());
  }

  private static <S, I, O> boolean search(Model<S, I, O> model, List<Operation<I, O>> ops, boolean[] done, S state) {
    boolean allReturnedDone = true;
    for (int i = 0; i < ops.size(); i++) {
      if (!done[i] && ops.get(i).determinate()) {
        allReturnedDone = false;
      }
    }
    if (allReturnedDone) {
      return true;
    }
    for (int i = 0; i < ops.size(); i++) {
      if (done[i] || !mayGoNext(ops, done, i)) {
        continue;
      }
      S next = model.step(state, ops.get(i).input(), ops.get(i).output());
      if (next == null) {
        continue;
      }
      done[i] = true;
      boolean found = search(model, ops, done, next);
      done[i] = false;
      if (found) {
        return true;
      }
    }
    return false;
  }

  /** No operation left returned before {@code i} was called. */
  private static <I, O> boolean mayGoNext(List<Operation<I, O>> ops, boolean[] done, int i) {
    for (int j = 0; j < ops.size(); j++) {
      if (j != i && !done[j] && ops.get(j).ret() < ops.get(i).call()) {
        return false;
      }
    }
    return true;
  }
}
