package io.cassette.tls;

/** TLS settings or files that cannot make a context; the message names the file and the problem. */
public final class TlsConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TlsConfigException(String message) {
    super(message);
  }

  public TlsConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
