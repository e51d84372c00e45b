package io.cassette.cluster.net;

import java.net.InetSocketAddress;

/** The peer answered with FAILURE_RSP: it received the request and could not serve it. */
public final class RequestFailureException extends MessagingException {
  private static final long serialVersionUID = 1L;
  private final RequestFailureReason reason;
  private final String detail;

  RequestFailureException(InetSocketAddress peer, Verb verb, RequestFailureReason reason, String detail) {
    super(peer, verb + " failed on " + peer + ": " + reason + (detail.isEmpty() ? "" : " (" + detail + ")"));
    this.reason = reason;
    this.detail = detail;
  }

  public RequestFailureReason reason() {
    return reason;
  }

  public String detail() {
    return detail;
  }
}
