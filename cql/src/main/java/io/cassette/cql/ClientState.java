package io.cassette.cql;

import java.net.InetSocketAddress;

/** Per-connection state the language layer reads and changes (USE). Not thread-safe. */
public final class ClientState {
  private final InetSocketAddress remoteAddress;
  private volatile String keyspace;
  private volatile String user;
  private volatile java.util.Map<String, String> clientOptions = java.util.Map.of();

  public ClientState(InetSocketAddress remoteAddress) {
    this.remoteAddress = remoteAddress;
  }

  public InetSocketAddress remoteAddress() {
    return remoteAddress;
  }

  /** The keyspace set by USE, or null. */
  public String keyspace() {
    return keyspace;
  }

  public void setKeyspace(String keyspace) {
    this.keyspace = keyspace;
  }

  /** The authenticated user, or null with AllowAllAuthenticator. */
  public String user() {
    return user;
  }

  public void setUser(String user) {
    this.user = user;
  }

  /** The options the client sent in STARTUP (DRIVER_NAME, ...); empty before. */
  public java.util.Map<String, String> clientOptions() {
    return clientOptions;
  }

  public void setClientOptions(java.util.Map<String, String> options) {
    this.clientOptions = options == null ? java.util.Map.of() : java.util.Map.copyOf(options);
  }
}
