package io.cassette.cql.transport;

import java.net.InetSocketAddress;

/**
 * Decides whether clients must authenticate and runs their SASL exchange. When
 * {@link #requireAuthentication()} is false the server answers STARTUP with READY at once, as
 * Cassandra does with AllowAllAuthenticator; otherwise with AUTHENTICATE naming
 * {@link #className()} (drivers pick their auth provider by that name).
 *
 * <p>Thread-safety: implementations are shared by all connections and thread-safe.
 */
public interface Authenticator {
  boolean requireAuthentication();

  /** The class name sent in AUTHENTICATE, e.g. {@code org.apache.cassandra.auth.PasswordAuthenticator}. */
  String className();

  /** A negotiator for one client's exchange. */
  SaslNegotiator newNegotiator(InetSocketAddress client);
}
