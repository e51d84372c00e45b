package io.cassette.cluster.net;

import java.net.InetSocketAddress;

/**
 * The message was not queued: the bytes waiting for this peer (or for all peers) or the
 * number of queued messages is at its limit. Back-pressure, not a bug: the caller should fail
 * the request (Cassandra answers the client with an overloaded error) or try later.
 */
public final class OverloadedException extends MessagingException {
  private static final long serialVersionUID = 1L;

  OverloadedException(InetSocketAddress peer, String what) {
    super(peer, "overloaded: " + what);
  }
}
