package io.cassette.lab.check;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The configurations (model state, set of linearized operations) of a linearizability search
 * from which no linearization exists, with subsumption: a configuration is covered by a failed
 * one with the same state, the same linearized determinate operations and a subset of its
 * linearized indeterminate ones.
 *
 * <p>Why that is sound: an indeterminate operation has no return, so it never constrains when
 * others may be placed and need never be placed at all. A configuration that linearized more of
 * them, from the same state, has every continuation of the one that linearized fewer still open
 * to the smaller one; if the smaller one has none, neither has the larger. Only configurations
 * whose whole subtree was searched are added, so a covered configuration truly fails.
 *
 * <p>Stored per (state, determinate set) as an antichain of indeterminate sets: adding a set
 * drops the stored supersets it now covers. Not thread-safe: one search owns it.
 */
final class FailedConfigurations<S> {
  private final BitSet indeterminate;
  private final Map<Key<S>, List<BitSet>> failed = new HashMap<>();

  /** @param indeterminate the operations (by index) that have no return */
  FailedConfigurations(BitSet indeterminate) {
    this.indeterminate = indeterminate;
  }

  /** Whether {@code (state, linearized)} is known to fail (equal to or covered by a failed one). */
  boolean covers(S state, BitSet linearized) {
    List<BitSet> sets = failed.get(key(state, linearized));
    if (sets == null) {
      return false;
    }
    // stored ⊆ mine  ⇔  stored has none of the indeterminate operations mine lacks
    BitSet lacking = (BitSet) indeterminate.clone();
    lacking.andNot(linearized);
    for (BitSet s : sets) {
      if (!s.intersects(lacking)) {
        return true;
      }
    }
    return false;
  }

  /** Records that no linearization continues from {@code (state, linearized)} (copied). */
  void add(S state, BitSet linearized) {
    List<BitSet> sets = failed.computeIfAbsent(key(state, linearized), k -> new ArrayList<>(1));
    BitSet mine = indeterminatePart(linearized);
    sets.removeIf(s -> !mine.intersects(complementOf(s))); // mine ⊆ s: s is covered now
    sets.add(mine);
  }

  private Key<S> key(S state, BitSet linearized) {
    BitSet determinate = (BitSet) linearized.clone();
    determinate.andNot(indeterminate);
    return new Key<>(state, determinate);
  }

  private BitSet indeterminatePart(BitSet linearized) {
    BitSet mine = (BitSet) linearized.clone();
    mine.and(indeterminate);
    return mine;
  }

  private BitSet complementOf(BitSet indeterminateSet) {
    BitSet c = (BitSet) indeterminate.clone();
    c.andNot(indeterminateSet);
    return c;
  }

  private record Key<S>(S state, BitSet determinate) {}
}
