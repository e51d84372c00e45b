package io.cassette.tools.nodetool;

/** A failure to report to the operator as one line ("nodetool: " + message) and exit 1. */
final class NodetoolException extends RuntimeException {
  NodetoolException(String message) {
    super(message, null, false, false);
  }
}
