package io.cassette.coordinator;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Who asked: the client's address, user and the options it sent when it connected (CQL's
 * STARTUP map: DRIVER_NAME, DRIVER_VERSION, ...). Carried with every request so the ring can
 * log, trace and (later) authorise per client; nothing on one node depends on it.
 *
 * @param address the client's socket address, or null for internal requests
 * @param user    the authenticated user, or null
 * @param options the client's connection options; never null
 */
public record ClientContext(InetSocketAddress address, String user, Map<String, String> options) {
  /** A request the node makes itself (index builds, expiry, schema bootstrap). */
  public static final ClientContext INTERNAL = new ClientContext(null, null, Map.of());

  public ClientContext {
    options = options == null ? Map.of() : Map.copyOf(options);
  }
}
