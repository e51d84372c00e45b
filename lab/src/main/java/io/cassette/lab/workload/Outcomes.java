package io.cassette.lab.workload;

import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import io.cassette.lab.check.Status;

/**
 * What a client error says about whether a write happened. Only answers given before anything
 * was done are failures: Unavailable (the coordinator refused before sending) and no node to
 * send to. Everything else (timeouts, lost connections, write failures) may have taken effect:
 * indeterminate. A statement the node rejects as invalid is a bug in the lab, not a fault.
 */
public final class Outcomes {
  private Outcomes() {}

  public static Status ofCqlWrite(RuntimeException e) {
    if (e instanceof InvalidQueryException || e instanceof SyntaxError) {
      throw e;
    }
    if (e instanceof UnavailableException || e instanceof NoNodeAvailableException) {
      return Status.FAIL;
    }
    return Status.INDETERMINATE;
  }

  /**
   * Redis: CLUSTERDOWN is said before the command runs, and so is a TRYAGAIN that says the command
   * was not run or not applied (no lease, a lease run out, a node still starting); a timeout or
   * a dropped connection may have run it.
   */
  public static Status ofRedisWrite(RuntimeException e) {
    String m = String.valueOf(e.getMessage());
    if (e instanceof redis.clients.jedis.exceptions.JedisDataException && (m.startsWith("CLUSTERDOWN")
        || m.startsWith("TRYAGAIN") && (m.contains("was not run") || m.contains("was not applied")))) {
      return Status.FAIL;
    }
    if (e instanceof redis.clients.jedis.exceptions.JedisConnectionException
        && m.contains("Failed to connect")) {
      return Status.FAIL;
    }
    return Status.INDETERMINATE;
  }
}
