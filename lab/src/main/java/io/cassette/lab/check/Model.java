package io.cassette.lab.check;

/**
 * A sequential specification: the object's state and how each operation moves it.
 *
 * <p>States must be immutable values with {@code equals}/{@code hashCode}: the checker
 * memoises (linearized set, state) pairs.
 */
public interface Model<S, I, O> {
  S init();

  /**
   * The state after {@code input} runs on {@code state} and answers {@code output}, or null if
   * the object cannot answer that from that state (so a state itself is never null).
   *
   * <p>{@code output} is null for an indeterminate operation: return the state as if it took
   * effect at this point with whatever answer it would have given (never null). That it may
   * also never take effect the checker handles itself.
   */
  S step(S state, I input, O output);

  /** Whether the operation changes nothing (reads): failed or indeterminate ones are dropped. */
  boolean isReadOnly(I input);

  /**
   * Whether the indeterminate {@code input} had an effect no operation of {@code history} saw
   * (no read returned its value, no successful compare-and-set expected it). The checker first
   * searches without such operations (they "never took effect"): a linearization found then is
   * one of the whole history, and far cheaper to find when many writes timed out. Default: never.
   */
  default boolean unobserved(I input, java.util.List<Operation<I, O>> history) {
    return false;
  }

  /**
   * This model for one history: the checker searches with it. A model may merge states that no
   * operation of {@code history} can tell apart (for a register: values nobody reads or
   * expects), so the memo of failed configurations meets them as one. Default: itself.
   */
  default Model<S, I, O> forHistory(java.util.List<Operation<I, O>> history) {
    return this;
  }

  /** A state as a violation's explanation prints it. */
  default String describe(S state) {
    return String.valueOf(state);
  }
}
