package io.cassette.cql;

import java.util.ArrayList;
import java.util.List;

/**
 * Warnings for the client of the request being executed (the protocol's warning list, e.g.
 * "Batch for [ks.t] is of size ..."), as Cassandra's ClientWarn does it: the transport opens a
 * capture on the worker thread before calling {@link QueryHandler}, the language adds to it, and
 * the transport sends what was captured with the response (v4+).
 *
 * <p>Thread-safety: per thread; a warning added on another thread than the request's is lost.
 */
public final class ClientWarnings {
  private static final ThreadLocal<List<String>> CURRENT = new ThreadLocal<>();

  private ClientWarnings() {}

  /** Starts capturing warnings on this thread (transport). */
  public static void begin() {
    CURRENT.set(new ArrayList<>(2));
  }

  /** Adds a warning to the current request; does nothing when no capture is open. */
  public static void add(String warning) {
    List<String> warnings = CURRENT.get();
    if (warnings != null) {
      warnings.add(warning);
    }
  }

  /**
   * Makes {@code warnings} (a capture's list, from {@link #current}) this thread's capture, so a
   * request going on on another thread adds to its own warnings; returns what it replaces (give
   * it back with another swap). Null: no capture.
   */
  public static List<String> swap(List<String> warnings) {
    List<String> before = CURRENT.get();
    if (warnings == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(warnings);
    }
    return before;
  }

  /** This thread's capture (the list the transport will send), or null. */
  public static List<String> current() {
    return CURRENT.get();
  }

  /** Ends the capture on this thread and returns what was added (possibly empty) (transport). */
  public static List<String> finish() {
    List<String> warnings = CURRENT.get();
    CURRENT.remove();
    return warnings == null ? List.of() : warnings;
  }
}
