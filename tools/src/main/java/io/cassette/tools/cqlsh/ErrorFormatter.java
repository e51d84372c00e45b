package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.AlreadyExistsException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.FunctionFailureException;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ProtocolError;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Errors in the words cqlsh (the Python driver) uses, e.g.
 * {@code InvalidRequest: Error from server: code=2200 [Invalid query] message="..."}, so people
 * and scripts that grep cqlsh output see the same text.
 */
final class ErrorFormatter {
  private static final Pattern EXISTING_TABLE =
      Pattern.compile("existing (?:table|column family|view) \"([^\"]+)\" to keyspace \"([^\"]+)\"");
  private static final Pattern EXISTING_KEYSPACE = Pattern.compile("existing keyspace \"([^\"]+)\"");

  private ErrorFormatter() {}

  static String format(Throwable e) {
    if (e instanceof AlreadyExistsException) {
      // The Python driver names the object from the error body; this driver keeps only the
      // message, which Cassandra words as below.
      Matcher table = EXISTING_TABLE.matcher(String.valueOf(e.getMessage()));
      if (table.find()) {
        return "AlreadyExists: Table '" + table.group(2) + "." + table.group(1) + "' already exists";
      }
      Matcher keyspace = EXISTING_KEYSPACE.matcher(String.valueOf(e.getMessage()));
      if (keyspace.find()) {
        return "AlreadyExists: Keyspace '" + keyspace.group(1) + "' already exists";
      }
      return server("AlreadyExists", 0x2400, "Already exists", e);
    }
    if (e instanceof SyntaxError) {
      return server("SyntaxException", 0x2000, "Syntax error in CQL query", e);
    }
    if (e instanceof InvalidConfigurationInQueryException) {
      return server("ConfigurationException", 0x2300, "Query invalid because of configuration issue", e);
    }
    if (e instanceof InvalidQueryException) {
      return server("InvalidRequest", 0x2200, "Invalid query", e);
    }
    if (e instanceof UnauthorizedException) {
      return server("Unauthorized", 0x2100, "Unauthorized", e);
    }
    if (e instanceof UnavailableException u) {
      return server("Unavailable", 0x1000, "Unavailable exception", e)
          + " info={'consistency': '" + u.getConsistencyLevel() + "', 'required_replicas': "
          + u.getRequired() + ", 'alive_replicas': " + u.getAlive() + "}";
    }
    if (e instanceof ReadTimeoutException r) {
      return server("ReadTimeout", 0x1200, "Coordinator node timed out waiting for replica nodes' responses", e)
          + " info={'consistency': '" + r.getConsistencyLevel() + "', 'required_responses': "
          + r.getBlockFor() + ", 'received_responses': " + r.getReceived() + "}";
    }
    if (e instanceof WriteTimeoutException w) {
      return server("WriteTimeout", 0x1100, "Coordinator node timed out waiting for replica nodes' responses", e)
          + " info={'consistency': '" + w.getConsistencyLevel() + "', 'required_responses': "
          + w.getBlockFor() + ", 'received_responses': " + w.getReceived() + ", 'write_type': '"
          + w.getWriteType() + "'}";
    }
    if (e instanceof ReadFailureException) {
      return server("ReadFailure", 0x1300, "Replica(s) failed to execute read", e);
    }
    if (e instanceof WriteFailureException) {
      return server("WriteFailure", 0x1500, "Replica(s) failed to execute write", e);
    }
    if (e instanceof FunctionFailureException) {
      return server("FunctionFailure", 0x1400, "User Defined Function failure", e);
    }
    if (e instanceof OverloadedException) {
      return server("OverloadedErrorMessage", 0x1001, "Coordinator node overloaded", e);
    }
    if (e instanceof BootstrappingException) {
      return server("IsBootstrappingErrorMessage", 0x1002, "Coordinator node is bootstrapping", e);
    }
    if (e instanceof TruncateException) {
      return server("TruncateError", 0x1003, "Error during truncate", e);
    }
    if (e instanceof ProtocolError) {
      return server("ProtocolException", 0x000A, "Protocol error", e);
    }
    if (e instanceof ServerError) {
      return server("ServerError", 0x0000, "Server error", e);
    }
    if (e instanceof DriverTimeoutException) {
      return "OperationTimedOut: errors={}, last_host=None (" + e.getMessage() + ")";
    }
    if (e instanceof AllNodesFailedException a) {
      return "NoHostAvailable: " + a.getMessage();
    }
    if (e instanceof ShellException) {
      return e.getMessage();
    }
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static String server(String name, int code, String summary, Throwable e) {
    return String.format("%s: Error from server: code=%04x [%s] message=\"%s\"", name, code, summary,
        e.getMessage());
  }
}
