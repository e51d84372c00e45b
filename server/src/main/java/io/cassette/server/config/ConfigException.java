package io.cassette.server.config;

/** A configuration the node refuses to start with; the message names key, value, source and what is allowed. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}
