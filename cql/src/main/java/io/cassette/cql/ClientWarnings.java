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
  /** This thread's capture: reused, so a request without warnings allocates nothing here. */
  private static final class Capture {
    boolean open;
    List<String> warnings; // created on the first warning, or when handed to another thread
  }

  private static final ThreadLocal<Capture> CURRENT = ThreadLocal.withInitial(Capture::new);

  private ClientWarnings() {}

  /** Starts capturing warnings on this thread (transport). */
  public static void begin() {
    Capture c = CURRENT.get();
    c.open = true;
    c.warnings = null;
  }

  /** Adds a warning to the current request; does nothing when no capture is open. */
  public static void add(String warning) {
    Capture c = CURRENT.get();
    if (c.open) {
      if (c.warnings == null) {
        c.warnings = new ArrayList<>(2);
      }
      c.warnings.add(warning);
    }
  }

  /**
   * Makes {@code warnings} (a capture's list, from {@link #current}) this thread's capture, so a
   * request going on on another thread adds to its own warnings; returns what it replaces (give
   * it back with another swap). Null: no capture.
   */
  public static List<String> swap(List<String> warnings) {
    List<String> before = current();
    Capture c = CURRENT.get();
    c.open = warnings != null;
    c.warnings = warnings;
    return before;
  }

  /** This thread's capture (the list the transport will send), or null. */
  public static List<String> current() {
    Capture c = CURRENT.get();
    if (!c.open) {
      return null;
    }
    if (c.warnings == null) {
      c.warnings = new ArrayList<>(2);
    }
    return c.warnings;
  }

  /** Ends the capture on this thread and returns what was added (possibly empty) (transport). */
  public static List<String> finish() {
    Capture c = CURRENT.get();
    List<String> warnings = c.open && c.warnings != null ? c.warnings : List.of();
    c.open = false;
    c.warnings = null;
    return warnings;
  }
}
