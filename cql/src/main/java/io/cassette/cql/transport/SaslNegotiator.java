package io.cassette.cql.transport;

/**
 * One client's authentication exchange (AUTH_RESPONSE tokens in, AUTH_CHALLENGE or
 * AUTH_SUCCESS out), as Cassandra's IAuthenticator.SaslNegotiator. Used by one connection at a
 * time; may block (password hashing): it runs off the event loop.
 */
public interface SaslNegotiator {
  /**
   * Evaluates the client's token.
   *
   * @return the challenge to send back, or the final token when {@link #isComplete()} is then true
   * @throws io.cassette.cql.CqlException AUTH_ERROR when the credentials are bad
   */
  byte[] evaluateResponse(byte[] clientToken);

  boolean isComplete();

  /** The user name, once complete. */
  String authenticatedUser();
}
