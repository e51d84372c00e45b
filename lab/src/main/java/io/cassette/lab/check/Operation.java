package io.cassette.lab.check;

/**
 * One client operation of a history: what was asked ({@code input}), what came back
 * ({@code output}, null when not known), when it was called and when it returned, on one clock
 * (nanoseconds; only their order matters).
 *
 * <p>Two operations are concurrent when their intervals overlap; an operation whose return is
 * at or after another's call is treated as concurrent with it (the permissive choice: a
 * violation reported never depends on a tie). An indeterminate operation has no return: its
 * {@link #ret} is {@link Long#MAX_VALUE}.
 *
 * @param client the process that ran it (one operation at a time per client)
 * @param key the object it touched; histories are checked per key (P-compositionality)
 */
public record Operation<I, O>(int client, String key, I input, O output, long call, long ret, Status status) {
  public static final long NEVER = Long.MAX_VALUE;

  public static <I, O> Operation<I, O> ok(int client, String key, I input, O output, long call, long ret) {
    return new Operation<>(client, key, input, output, call, ret, Status.OK);
  }

  public static <I, O> Operation<I, O> fail(int client, String key, I input, long call, long ret) {
    return new Operation<>(client, key, input, null, call, ret, Status.FAIL);
  }

  public static <I, O> Operation<I, O> indeterminate(int client, String key, I input, long call) {
    return new Operation<>(client, key, input, null, call, NEVER, Status.INDETERMINATE);
  }

  public Operation {
    if (status == Status.INDETERMINATE) {
      ret = NEVER;
      output = null;
    } else if (ret < call) {
      throw new IllegalArgumentException("returned before its call: " + call + " > " + ret);
    }
  }

  public boolean determinate() {
    return status != Status.INDETERMINATE;
  }

  @Override
  public String toString() {
    String out = switch (status) {
      case OK -> "ok " + output;
      case FAIL -> "fail";
      case INDETERMINATE -> "info (indeterminate)";
    };
    return "c" + client + " " + key + " " + input + " -> " + out + " [" + call + ", "
        + (ret == NEVER ? "inf" : Long.toString(ret)) + "]";
  }
}
