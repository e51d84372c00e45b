package io.cassette.coordinator;

/**
 * The replica's side of {@link Fence}: applies a fenced write only if its epoch is not older
 * than the one promised for its lease, atomically with the check (a promise of a newer epoch
 * waits for writes being applied under an older one, and every later one is refused).
 * Installed by the front door that hands out the leases; writes without a fence pass.
 */
public interface FenceGuard {
  /** No fencing: every write is applied. */
  FenceGuard NONE = (fence, apply) -> apply.run();

  /**
   * Runs {@code apply} unless {@code fence} (null: not fenced) carries an older epoch than its
   * lease's promise; then throws {@link Refused} and applies nothing.
   */
  void apply(Fence fence, Runnable apply);

  /** A fenced write refused: a newer epoch of its lease was promised here. */
  final class Refused extends RuntimeException {
    public Refused(String message) {
      super(message, null, false, false);
    }
  }
}
