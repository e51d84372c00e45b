package io.cassette.cql.transport;

import java.net.InetSocketAddress;

/** Lets every client in without a SASL exchange (Cassandra's default). */
public final class AllowAllAuthenticator implements Authenticator {
  public static final AllowAllAuthenticator INSTANCE = new AllowAllAuthenticator();

  private AllowAllAuthenticator() {}

  @Override
  public boolean requireAuthentication() {
    return false;
  }

  @Override
  public String className() {
    return "org.apache.cassandra.auth.AllowAllAuthenticator";
  }

  @Override
  public SaslNegotiator newNegotiator(InetSocketAddress client) {
    throw new UnsupportedOperationException("AllowAllAuthenticator needs no SASL exchange");
  }
}
