package io.cassette.cql.language;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;

/** Short constructors for the errors the language throws, with Cassandra's codes. */
public final class Errors {
  private Errors() {}

  /** INVALID (0x2200): Cassandra's InvalidRequestException. */
  public static CqlException invalid(String message) {
    return new CqlException(ErrorCode.INVALID, message);
  }

  /** SYNTAX_ERROR (0x2000). */
  public static CqlException syntax(String message) {
    return new CqlException(ErrorCode.SYNTAX_ERROR, message);
  }

  /** CONFIG_ERROR (0x2300). */
  public static CqlException config(String message) {
    return new CqlException(ErrorCode.CONFIG_ERROR, message);
  }

  public static CqlException unauthorized(String message) {
    return new CqlException(ErrorCode.UNAUTHORIZED, message);
  }
}
