package io.cassette.cql.transport;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** SASL PLAIN with one fixed user, named like Cassandra's so drivers' PlainTextAuthProvider answers it. */
final class PlainTextTestAuthenticator implements Authenticator {
  private final String user;
  private final String password;

  PlainTextTestAuthenticator(String user, String password) {
    this.user = user;
    this.password = password;
  }

  @Override
  public boolean requireAuthentication() {
    return true;
  }

  @Override
  public String className() {
    return "org.apache.cassandra.auth.PasswordAuthenticator";
  }

  @Override
  public SaslNegotiator newNegotiator(InetSocketAddress client) {
    return new SaslNegotiator() {
      private boolean complete;

      @Override
      public byte[] evaluateResponse(byte[] token) {
        // [authzid] NUL authcid NUL password
        String s = new String(token, StandardCharsets.UTF_8);
        String[] parts = s.split("\0", -1);
        if (parts.length != 3 || !parts[1].equals(user) || !parts[2].equals(password)) {
          throw new CqlException(ErrorCode.AUTH_ERROR, "Provided username " + (parts.length > 1 ? parts[1] : "")
              + " and/or password are incorrect");
        }
        complete = true;
        return null;
      }

      @Override
      public boolean isComplete() {
        return complete;
      }

      @Override
      public String authenticatedUser() {
        return user;
      }
    };
  }
}
