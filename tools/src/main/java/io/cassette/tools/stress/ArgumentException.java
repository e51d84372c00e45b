package io.cassette.tools.stress;

/**
 * A command line the tool cannot accept: an unknown option, a malformed value or a missing
 * required one. The message names the offending text and shows the accepted forms, so
 * {@link StressMain} prints it as is and exits with status 1.
 */
public final class ArgumentException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ArgumentException(String message) {
    super(message);
  }
}
