package io.cassette.cql;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Request tracing, as Cassandra's {@code Tracing}: the session of the request running on this
 * thread, so the language can say what it does ({@link #trace}) without passing it around,
 * and the node's probability of tracing a request nobody asked to trace
 * ({@code nodetool settraceprobability}).
 *
 * <p>Thread-safety: the session is per thread (work done on another thread is not traced
 * unless that thread {@link #attach}es it); the probability is node-wide and volatile.
 */
public final class Tracing {
  private static final ThreadLocal<TraceSession> CURRENT = new ThreadLocal<>();
  /** 0 = trace only what clients ask for (Cassandra's default). */
  private static volatile double probability;

  private Tracing() {}

  /** The session of this thread's request, or null when it is not traced. */
  public static TraceSession current() {
    return CURRENT.get();
  }

  /** Makes {@code session} (may be null) this thread's session; returns the previous one. */
  public static TraceSession attach(TraceSession session) {
    TraceSession previous = CURRENT.get();
    if (session == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(session);
    }
    return previous;
  }

  public static boolean isTracing() {
    return CURRENT.get() != null;
  }

  /** Records a step of the current request; nothing when it is not traced. */
  public static void trace(String activity) {
    TraceSession s = CURRENT.get();
    if (s != null) {
      s.event(activity);
    }
  }

  /** Records a step; the text is only built when the request is traced. */
  public static void trace(String format, Object... args) {
    TraceSession s = CURRENT.get();
    if (s != null) {
      s.event(String.format(format, args));
    }
  }

  /** {@code nodetool settraceprobability}: the share of requests traced without being asked, 0 to 1. */
  public static void setProbability(double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("Trace probability must be between 0 and 1");
    }
    probability = p;
  }

  public static double probability() {
    return probability;
  }

  /** True when a request the client did not ask to trace should be traced (sampling). */
  public static boolean sample() {
    double p = probability;
    return p > 0 && (p >= 1 || ThreadLocalRandom.current().nextDouble() < p);
  }
}
