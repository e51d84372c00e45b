package io.cassette.cluster.net;

import java.net.InetSocketAddress;

/** Base of the ways a send can fail; each names the peer. Stack traces are not filled in. */
public abstract class MessagingException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient InetSocketAddress peer;

  MessagingException(InetSocketAddress peer, String message) {
    super(message, null, false, false);
    this.peer = peer;
  }

  public InetSocketAddress peer() {
    return peer;
  }
}
