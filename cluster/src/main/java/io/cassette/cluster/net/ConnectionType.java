package io.cassette.cluster.net;

/**
 * Each peer gets up to three outbound connections, as in Cassandra, so a heartbeat never waits
 * behind a 2 MB mutation: URGENT for liveness and metadata, SMALL for ordinary messages, LARGE
 * for messages bigger than {@link MessagingConfig#largeMessageThreshold()}. Connections are
 * opened lazily on the first message of their type. The code is on the wire (handshake).
 */
public enum ConnectionType {
  URGENT(0),
  SMALL(1),
  LARGE(2);

  final int code;

  ConnectionType(int code) {
    this.code = code;
  }

  static ConnectionType fromCode(int code) {
    for (ConnectionType t : values()) {
      if (t.code == code) return t;
    }
    return null;
  }
}
