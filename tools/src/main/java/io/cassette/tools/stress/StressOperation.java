package io.cassette.tools.stress;

/**
 * One kind of operation a run performs (WRITE, READ, a user profile's insert or query), bound
 * to a session. Implementations prepare their statements when built.
 *
 * <p>Thread-safe: all threads of a run share the instances.
 */
public interface StressOperation {
  /** The name printed in the interval lines and Results: "WRITE", "insert", "q1". */
  String name();

  /**
   * Performs the operation on the partition of {@code seed}.
   *
   * @return the number of rows written or read
   * @throws RuntimeException when the server fails it or (reads) the data returned is not what
   *     was written; the caller retries
   */
  long execute(long seed);

  /** A read that returned something other than what the seed's write stored. */
  final class ValidationFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ValidationFailure(String message) {
      super(message);
    }
  }
}
