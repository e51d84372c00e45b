package io.cassette.cql;

import java.net.InetSocketAddress;

/** Per-connection state the language layer reads and changes (USE). Not thread-safe. */
public final class ClientState {
  private final InetSocketAddress remoteAddress;
  private volatile String keyspace;
  private volatile String user;
  private volatile java.util.Map<String, String> clientOptions = java.util.Map.of();

  /** The open connections of this node, for system_views.clients. */
  private static final java.util.Set<ClientState> CONNECTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private volatile int protocolVersion;
  private volatile String stage = "established";
  private volatile String sslProtocol;
  private volatile String sslCipherSuite;
  private final java.util.concurrent.atomic.AtomicLong requests = new java.util.concurrent.atomic.AtomicLong();

  public ClientState(InetSocketAddress remoteAddress) {
    this.remoteAddress = remoteAddress;
  }

  /** The server address this connection came in on (several nodes may share a JVM in tests). */
  private volatile java.net.SocketAddress localAddress;

  /**
   * The connections open now to the same server address as {@code asking} (all of them when
   * {@code asking} is null): system_views.clients of the node that answers.
   */
  public static java.util.List<ClientState> connectedLike(ClientState asking) {
    java.util.List<ClientState> out = new java.util.ArrayList<>();
    for (ClientState c : CONNECTED) {
      if (asking == null || asking.localAddress == null || asking.localAddress.equals(c.localAddress)) {
        out.add(c);
      }
    }
    return out;
  }

  /** Called by the transport when the connection opens (with the server address) and closes (null). */
  public void open(java.net.SocketAddress local) {
    if (local != null) {
      localAddress = local;
      CONNECTED.add(this);
    } else {
      CONNECTED.remove(this);
    }
  }

  /** The protocol version agreed at STARTUP (0 before). */
  public int protocolVersion() {
    return protocolVersion;
  }

  public void setProtocolVersion(int version) {
    this.protocolVersion = version;
  }

  /** Cassandra's connection stage: established, authenticating, ready. */
  public String stage() {
    return stage;
  }

  public void setStage(String stage) {
    this.stage = stage;
  }

  /** TLS protocol and cipher suite of the connection, or null without TLS. */
  public String sslProtocol() {
    return sslProtocol;
  }

  public String sslCipherSuite() {
    return sslCipherSuite;
  }

  public void setSsl(String protocol, String cipherSuite) {
    this.sslProtocol = protocol;
    this.sslCipherSuite = cipherSuite;
  }

  /** Requests received on this connection. */
  public long requestCount() {
    return requests.get();
  }

  public void countRequest() {
    requests.incrementAndGet();
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

  /** The client as the coordinator sees it, made again only when user or options changed, not per request. */
  private volatile io.cassette.coordinator.ClientContext coordinatorContext;

  /** This client as the coordinator's requests carry it (address, user, STARTUP options). */
  public io.cassette.coordinator.ClientContext coordinatorContext() {
    io.cassette.coordinator.ClientContext c = coordinatorContext;
    String u = user;
    java.util.Map<String, String> o = clientOptions;
    // the options are immutable, and ClientContext keeps such a map as it is: compared by identity
    if (c == null || !java.util.Objects.equals(c.user(), u) || c.options() != o) {
      c = new io.cassette.coordinator.ClientContext(remoteAddress, u, o);
      coordinatorContext = c;
    }
    return c;
  }
}
