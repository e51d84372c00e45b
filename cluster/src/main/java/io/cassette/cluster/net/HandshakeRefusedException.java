package io.cassette.cluster.net;

import java.net.InetSocketAddress;

/**
 * The peer refused our connection, or we refused its answer: different cluster name or an
 * incompatible messaging version. Messages queued for that peer fail with this exception,
 * whose message says why, e.g. "127.0.0.2:7000 refused the connection: CLUSTER_NAME: cluster
 * name 'Test Cluster' differs from ours 'Other'".
 */
public final class HandshakeRefusedException extends MessagingException {
  private static final long serialVersionUID = 1L;
  private final Handshake.Refusal refusal;

  HandshakeRefusedException(InetSocketAddress peer, Handshake.Refusal refusal, String detail) {
    super(peer, peer + " refused the connection: " + refusal + ": " + detail);
    this.refusal = refusal;
  }

  public Handshake.Refusal refusal() {
    return refusal;
  }
}
