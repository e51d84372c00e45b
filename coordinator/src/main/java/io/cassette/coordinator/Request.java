package io.cassette.coordinator;

import java.time.Duration;
import java.util.Objects;

/**
 * What every coordinator call carries besides its data: the consistency level, the serial
 * consistency level (lightweight transactions and serial reads), how long the caller will
 * wait, and who asked. Immutable.
 *
 * @param consistency       replicas that must answer (writes: acknowledge)
 * @param serialConsistency SERIAL or LOCAL_SERIAL: the Paxos level of a compare-and-set
 * @param timeout           the caller's budget; on one node only long waits (locks) heed it
 * @param client            who asked
 * @param fence             the writer's fencing token, carried by its writes to the replicas
 *                          ({@link FenceGuard}); null for every request but a fenced Redis executor's
 */
public record Request(ConsistencyLevel consistency, ConsistencyLevel serialConsistency,
                      Duration timeout, ClientContext client, Fence fence) {
  /** Cassandra's default write_request_timeout; read and range timeouts are longer there. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  /** ONE with the defaults, for the node's own reads and writes. */
  public static final Request INTERNAL = new Request(ConsistencyLevel.ONE, ConsistencyLevel.SERIAL,
      DEFAULT_TIMEOUT, ClientContext.INTERNAL);

  /** A request without a fence. */
  public Request(ConsistencyLevel consistency, ConsistencyLevel serialConsistency, Duration timeout,
                 ClientContext client) {
    this(consistency, serialConsistency, timeout, client, null);
  }

  public Request {
    Objects.requireNonNull(consistency, "consistency");
    serialConsistency = serialConsistency == null ? ConsistencyLevel.SERIAL : serialConsistency;
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    client = client == null ? ClientContext.INTERNAL : client;
  }

  /** This request with {@code fence} (null: none) on its writes. */
  public Request withFence(Fence fence) {
    return fence == this.fence ? this : new Request(consistency, serialConsistency, timeout, client, fence);
  }

  /** A client request at {@code consistency} with the default serial level and timeout. */
  public static Request of(ConsistencyLevel consistency) {
    return new Request(consistency, ConsistencyLevel.SERIAL, DEFAULT_TIMEOUT, ClientContext.INTERNAL);
  }
}
