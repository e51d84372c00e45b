package io.cassette.cql.transport.frame;

/**
 * Where the frame decoder reserves the bytes of a request before buffering its body: the
 * node-wide and per-client bounds on request data in flight. A reservation lasts until the
 * request has been answered; its owner releases it.
 *
 * <p>Thread-safety: implementations are thread-safe; {@code wakeUp} may run on any thread.
 */
public interface Admission {
  /**
   * Reserves {@code bytes} if they fit; otherwise registers {@code wakeUp} to run once at the
   * next release and returns false.
   */
  boolean tryReserve(long bytes, Runnable wakeUp);

  void release(long bytes);

  /**
   * Cassandra's {@code native_transport_throw_on_overload}: answer OVERLOADED instead of
   * pausing the connection when a request does not fit.
   */
  boolean throwOnOverload();

  /** No bound: every reservation succeeds (tests of the framing alone). */
  Admission UNBOUNDED = new Admission() {
    @Override
    public boolean tryReserve(long bytes, Runnable wakeUp) {
      return true;
    }

    @Override
    public void release(long bytes) {}

    @Override
    public boolean throwOnOverload() {
      return false;
    }
  };
}
