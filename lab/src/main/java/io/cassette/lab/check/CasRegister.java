package io.cassette.lab.check;

import java.util.Objects;
import java.util.Optional;

/**
 * A compare-and-set register holding an integer (or nothing), as Knossos's {@code cas-register}:
 * read (answers the value, null when absent), write (answers nothing), cas (answers whether it
 * applied). The state is an {@code Optional} because null means "illegal" to the checker.
 */
public final class CasRegister implements Model<Optional<Integer>, CasRegister.Op, Object> {
  /** The operations; their {@code toString} is what a report prints. */
  public sealed interface Op permits Read, Write, Cas {}

  public record Read() implements Op {
    @Override
    public String toString() {
      return "read";
    }
  }

  public record Write(int value) implements Op {
    @Override
    public String toString() {
      return "write " + value;
    }
  }

  public record Cas(int expected, int value) implements Op {
    @Override
    public String toString() {
      return "cas " + expected + "->" + value;
    }
  }

  private final Integer initial;

  /** @param initial the value before the first operation (null: absent, read answers null) */
  public CasRegister(Integer initial) {
    this.initial = initial;
  }

  @Override
  public Optional<Integer> init() {
    return Optional.ofNullable(initial);
  }

  @Override
  public Optional<Integer> step(Optional<Integer> state, Op input, Object output) {
    if (input instanceof Read) {
      return output == null || Objects.equals(state.orElse(null), output) ? state : null;
    }
    if (input instanceof Write w) {
      return Optional.of(w.value());
    }
    Cas c = (Cas) input;
    boolean matches = state.isPresent() && state.get() == c.expected();
    if (output == null) {
      return matches ? Optional.of(c.value()) : state;
    }
    boolean applied = (Boolean) output;
    if (applied) {
      return matches ? Optional.of(c.value()) : null;
    }
    return matches ? null : state;
  }

  /**
   * Stands for every value no operation of the history reads or expects: states holding such
   * values answer every operation of that history alike (a read of them matches nothing asked, a
   * compare-and-set never expects them), so the search takes them as one state.
   */
  public static final int UNASKED = Integer.MIN_VALUE;

  @Override
  public Model<Optional<Integer>, Op, Object> forHistory(java.util.List<Operation<Op, Object>> history) {
    java.util.Set<Integer> asked = new java.util.HashSet<>();
    if (initial != null) {
      asked.add(initial);
    }
    for (Operation<Op, Object> op : history) {
      if (op.input() instanceof Read && op.output() instanceof Integer v) {
        asked.add(v);
      } else if (op.input() instanceof Cas c) {
        asked.add(c.expected());
      }
    }
    if (asked.contains(UNASKED)) {
      return this;
    }
    CasRegister plain = this;
    return new Model<>() {
      @Override
      public Optional<Integer> init() {
        return plain.init();
      }

      @Override
      public Optional<Integer> step(Optional<Integer> state, Op input, Object output) {
        Optional<Integer> next = plain.step(state, input, output);
        return next != null && next.isPresent() && !asked.contains(next.get()) ? Optional.of(UNASKED) : next;
      }

      @Override
      public boolean isReadOnly(Op input) {
        return plain.isReadOnly(input);
      }

      @Override
      public String describe(Optional<Integer> state) {
        return state.isPresent() && state.get() == UNASKED ? "a value nobody reads or expects" : state.toString();
      }
    };
  }

  @Override
  public boolean isReadOnly(Op input) {
    return input instanceof Read;
  }

  /** Values are unique per write in the lab's workload: a value nobody read or expected was not seen. */
  @Override
  public boolean unobserved(Op input, java.util.List<Operation<Op, Object>> history) {
    int value;
    if (input instanceof Write w) {
      value = w.value();
    } else if (input instanceof Cas c) {
      value = c.value();
    } else {
      return false;
    }
    for (Operation<Op, Object> op : history) {
      if (op.input() instanceof Read && op.status() == Status.OK && Objects.equals(op.output(), value)) {
        return false;
      }
      // A CAS expecting the value saw it if it applied, and may have if its outcome is unknown.
      if (op.input() instanceof Cas c && c.expected() == value && op.status() != Status.FAIL
          && !Boolean.FALSE.equals(op.output())) {
        return false;
      }
    }
    return true;
  }
}
