package io.cassette.cql.auth;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.transport.Authenticator;
import io.cassette.cql.transport.SaslNegotiator;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Cassandra's PasswordAuthenticator: SASL PLAIN ({@code [authzid] NUL authcid NUL password}),
 * checked against the role's bcrypt hash in {@code system_auth.roles}. The role row is read
 * through a cache valid for {@code credentials_validity}; the bcrypt check itself runs on
 * every new connection (it is the cost of a login, see the README's figure). Answers carry
 * Cassandra's texts, so drivers raise their usual AuthenticationException. Thread-safe.
 */
public final class PasswordAuthenticator implements Authenticator {
  private final AuthCache<String, Optional<Role>> credentials;

  PasswordAuthenticator(CassandraRoleManager roles, AuthSettings settings) {
    this.credentials = new AuthCache<>("credentials", settings.credentialsValidityMillis(),
        settings.cacheMaxEntries(), roles::fresh);
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
    return new PlainNegotiator();
  }

  /**
   * Checks a user name and password as a login would (for the admin HTTP port's Basic
   * credential); returns the role, or throws AUTH_ERROR with Cassandra's text.
   */
  public Role authenticate(String username, String password) {
    Optional<Role> role = credentials.get(username);
    if (role.isEmpty() || !PasswordHashes.check(password, role.get().saltedHash())) {
      throw new CqlException(ErrorCode.AUTH_ERROR, "Provided username " + username + " and/or password are incorrect");
    }
    if (!role.get().canLogin()) {
      throw new CqlException(ErrorCode.AUTH_ERROR, username + " is not permitted to log in");
    }
    return role.get();
  }

  void invalidateAll() {
    credentials.invalidateAll();
  }

  private final class PlainNegotiator implements SaslNegotiator {
    private String user;

    @Override
    public byte[] evaluateResponse(byte[] token) {
      // Cassandra reads from the end: the password after the last NUL, the user before it.
      int last = -1;
      int before = -1;
      for (int i = token.length - 1; i >= 0; i--) {
        if (token[i] == 0) {
          if (last < 0) {
            last = i;
          } else {
            before = i;
            break;
          }
        }
      }
      if (last < 0) {
        throw new CqlException(ErrorCode.AUTH_ERROR, "Password must not be null");
      }
      String password = new String(token, last + 1, token.length - last - 1, StandardCharsets.UTF_8);
      String username = new String(token, before + 1, last - before - 1, StandardCharsets.UTF_8);
      Arrays.fill(token, (byte) 0);
      if (username.isEmpty()) {
        throw new CqlException(ErrorCode.AUTH_ERROR, "Authentication ID must not be null");
      }
      authenticate(username, password);
      user = username;
      return null;
    }

    @Override
    public boolean isComplete() {
      return user != null;
    }

    @Override
    public String authenticatedUser() {
      return user;
    }
  }
}
