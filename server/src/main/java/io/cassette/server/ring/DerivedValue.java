package io.cassette.server.ring;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A value computed from state that changes (the ring from the metadata and the failure
 * detector), kept until the next {@link #invalidate}. An invalidation that lands while the
 * value is being computed is never lost: the value is stored with the generation it was
 * computed at and is used only while that generation is still current. (Storing a plain
 * field, reset to null on a change, let a computation that read a peer as DOWN store its
 * result just after the peer's UP had reset the field: the stale ring stayed until the next
 * change, which on a quiet ring never came; a replacing node retried its Paxos repair with a
 * live replica counted as down.)
 *
 * <p>Thread-safe; {@code compute} may run on several threads at once (the last store wins;
 * each stored value is tagged with the generation read before it was computed).
 */
final class DerivedValue<T> {
  private record Tagged<T>(long generation, T value) {}

  private final Supplier<T> compute;
  /** Bumped by every change of the state the value derives from. */
  private final AtomicLong generation = new AtomicLong();
  private volatile Tagged<T> cached;

  DerivedValue(Supplier<T> compute) {
    this.compute = compute;
  }

  /** The value for the current state: the cached one if nothing changed since it was computed. */
  T get() {
    long now = generation.get();
    Tagged<T> c = cached;
    if (c != null && c.generation() == now) {
      return c.value();
    }
    T value = compute.get(); // reads the state after the generation: a later change bumps it
    cached = new Tagged<>(now, value);
    return value;
  }

  /** The state changed: the next {@link #get} computes again. */
  void invalidate() {
    generation.incrementAndGet();
  }
}
