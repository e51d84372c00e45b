package io.cassette.cluster.net;

import java.net.InetSocketAddress;

/** No answer arrived within the request's expiry (the verb's configured timeout). */
public final class RequestTimeoutException extends MessagingException {
  private static final long serialVersionUID = 1L;
  private final Verb verb;
  private final long timeoutMillis;

  RequestTimeoutException(InetSocketAddress peer, Verb verb, long timeoutMillis) {
    super(peer, verb + " to " + peer + " timed out after " + timeoutMillis + " ms ("
        + verb.timeoutKind().configKey() + ")");
    this.verb = verb;
    this.timeoutMillis = timeoutMillis;
  }

  public Verb verb() {
    return verb;
  }

  public long timeoutMillis() {
    return timeoutMillis;
  }
}
