package io.cassette.coordinator.ring;

import java.net.InetAddress;
import java.util.Objects;
import java.util.UUID;

/**
 * A node of the ring as the coordinator addresses it: its host id (stable across address
 * changes) and its internode address ({@code listen_address}; the port is the ring's
 * {@code storage_port}, the same on every node).
 */
public record Endpoint(UUID hostId, InetAddress address) {
  public Endpoint {
    Objects.requireNonNull(hostId, "hostId");
    Objects.requireNonNull(address, "address");
  }

  @Override
  public String toString() {
    return address.getHostAddress() + "/" + hostId;
  }
}
