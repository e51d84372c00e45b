package io.cassette.cluster.net;

/**
 * Serves one verb on the receiving node, on the messaging service's handler threads. A handler
 * for a request verb answers with {@link MessagingService#respond} or
 * {@link MessagingService#respondFailure}, now or later from any thread; if it throws, the
 * service answers FAILURE_RSP (UNKNOWN) for it. Requests that expired while queued are dropped
 * before they reach the handler.
 */
@FunctionalInterface
public interface VerbHandler {
  void handle(Message message) throws Exception;
}
