package io.cassette.cluster.net;

import java.net.InetSocketAddress;

/** The local messaging service stopped before the message could be sent or answered. */
public final class MessagingStoppedException extends MessagingException {
  private static final long serialVersionUID = 1L;

  MessagingStoppedException(InetSocketAddress peer) {
    super(peer, "messaging service stopped; message to " + peer + " not sent or not answered");
  }
}
