package io.cassette.lab.check;

/** How an operation ended, as the client saw it. */
public enum Status {
  /** It happened, with the output recorded. */
  OK,
  /** It certainly did not happen (e.g. Unavailable: refused before anything was sent). */
  FAIL,
  /**
   * It may or may not have happened (a timeout, a lost connection): it may take effect at any
   * time after its call, or never; its output is unknown.
   */
  INDETERMINATE
}
