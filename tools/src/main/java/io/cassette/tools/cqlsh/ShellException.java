package io.cassette.tools.cqlsh;

/**
 * An error the shell itself reports (bad shell command, unknown table in DESCRIBE, COPY file
 * problem); its message is printed as is, in cqlsh's form (e.g. "Improper COPY command.").
 */
final class ShellException extends RuntimeException {
  ShellException(String message) {
    super(message, null, false, false);
  }

  /** An error cqlsh attributes to the server's Invalid query code, as Cassandra 4+ does for DESCRIBE. */
  static ShellException invalidRequest(String message) {
    return new ShellException("InvalidRequest: Error from server: code=2200 [Invalid query] message=\""
        + message + "\"");
  }
}
