package io.cassette.cql;

import java.util.List;

/** FUNCTION_FAILURE: a user-defined function threw; the ERROR body names it and its argument types. */
public final class FunctionFailureException extends CqlException {
  public final String keyspace;
  public final String function;
  public final List<String> argumentTypes;

  public FunctionFailureException(String keyspace, String function, List<String> argumentTypes, String message) {
    super(ErrorCode.FUNCTION_FAILURE, message);
    this.keyspace = keyspace;
    this.function = function;
    this.argumentTypes = argumentTypes;
  }
}
