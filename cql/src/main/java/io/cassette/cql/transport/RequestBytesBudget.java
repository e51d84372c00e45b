package io.cassette.cql.transport;

import io.cassette.cql.transport.frame.Admission;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of requests in flight (being received, waiting or executing) on the whole node and
 * per client address, against Cassandra's {@code native_transport_max_request_data_in_flight}
 * and {@code native_transport_max_request_data_in_flight_per_ip}. The frame decoder reserves a
 * request's declared size before buffering its body; the connection handler releases it once
 * the request is answered. A connection that cannot reserve stops reading and is woken when
 * bytes are released.
 *
 * <p>A request is admitted when nothing else is in flight (node-wide, or for its address), so
 * one request larger than a limit still runs, as Cassandra over-allocates for it; the size
 * limits ({@code native_transport_max_frame_size}, {@code native_transport_max_message_size})
 * bound that one request.
 *
 * <p>Thread-safety: thread-safe; wake-ups run on the releasing thread and must only hand off
 * (e.g. schedule work on an event loop).
 */
final class RequestBytesBudget {
  private final long limitBytes;
  private final long perIpLimitBytes;
  private final boolean throwOnOverload;
  private long usedBytes;
  private final Map<InetAddress, long[]> usedPerIp = new HashMap<>();
  private final List<Runnable> waiters = new ArrayList<>();

  RequestBytesBudget(long limitBytes) {
    this(limitBytes, limitBytes, false);
  }

  RequestBytesBudget(long limitBytes, long perIpLimitBytes, boolean throwOnOverload) {
    if (limitBytes <= 0 || perIpLimitBytes <= 0) {
      throw new IllegalArgumentException("request bytes budget: " + limitBytes + ", per IP " + perIpLimitBytes
          + " (expected: > 0)");
    }
    this.limitBytes = limitBytes;
    this.perIpLimitBytes = perIpLimitBytes;
    this.throwOnOverload = throwOnOverload;
  }

  /** The admission of one connection's decoder, counted against {@code address} and the node. */
  Admission forClient(InetAddress address) {
    return new Admission() {
      @Override
      public boolean tryReserve(long bytes, Runnable wakeUp) {
        return tryAcquireOrWait(address, bytes, wakeUp);
      }

      @Override
      public void release(long bytes) {
        RequestBytesBudget.this.release(address, bytes);
      }

      @Override
      public boolean throwOnOverload() {
        return throwOnOverload;
      }
    };
  }

  /**
   * Takes {@code bytes} if they fit both limits (a limit with nothing in flight admits anything);
   * otherwise registers {@code wakeUp} to run once at the next release and returns false. Atomic,
   * so no release can slip between the failed attempt and the registration.
   */
  synchronized boolean tryAcquireOrWait(InetAddress address, long bytes, Runnable wakeUp) {
    if (bytes <= 0) {
      return true;
    }
    long[] ip = address == null ? null : usedPerIp.get(address);
    long ipUsed = ip == null ? 0 : ip[0];
    boolean nodeFits = usedBytes == 0 || usedBytes + bytes <= limitBytes;
    boolean ipFits = ipUsed == 0 || ipUsed + bytes <= perIpLimitBytes;
    if (nodeFits && ipFits) {
      usedBytes += bytes;
      if (address != null) {
        usedPerIp.computeIfAbsent(address, a -> new long[1])[0] += bytes;
      }
      return true;
    }
    if (!throwOnOverload) {
      waiters.add(wakeUp);
    }
    return false;
  }

  void release(InetAddress address, long bytes) {
    if (bytes <= 0) {
      return;
    }
    Runnable[] wakeUps;
    synchronized (this) {
      usedBytes -= bytes;
      if (address != null) {
        long[] ip = usedPerIp.get(address);
        if (ip != null && (ip[0] -= bytes) <= 0) {
          usedPerIp.remove(address);
        }
      }
      if (waiters.isEmpty()) {
        return;
      }
      wakeUps = waiters.toArray(new Runnable[0]);
      waiters.clear();
    }
    for (Runnable r : wakeUps) {
      try {
        r.run();
      } catch (RuntimeException e) {
        // A connection whose event loop is shutting down: nothing to wake, the others still are.
      }
    }
  }

  synchronized long usedBytes() {
    return usedBytes;
  }

  /** Bytes held by requests from {@code address}. */
  synchronized long usedBytes(InetAddress address) {
    long[] ip = usedPerIp.get(address);
    return ip == null ? 0 : ip[0];
  }

  long limitBytes() {
    return limitBytes;
  }
}
