package io.cassette.server.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * Who may change the node through the admin port. Reads (GET, HEAD, OPTIONS) are open; any
 * other method needs, when one is configured, a credential:
 * <ul>
 *   <li>{@code Authorization: Basic} with a superuser role's name and password, when the CQL
 *       door runs PasswordAuthenticator (what nodetool's {@code -u/-pw} send);</li>
 *   <li>{@code Authorization: Bearer <admin_http_token>} when that token is set.</li>
 * </ul>
 * A missing or wrong credential gets 401 (with {@code WWW-Authenticate}), a role that is not a
 * superuser 403. With neither configured, state changes are accepted from loopback clients
 * only (as Cassandra's JMX is local-only by default) and refused with 403 from elsewhere.
 * Checking a password costs one bcrypt (tens of ms): acceptable for admin calls.
 */
public final class AdminCredentials {
  /** Checks a role's name and password: null when they are right, else why not. */
  public interface PasswordCheck {
    String loginError(String username, String password);

    boolean isSuperuser(String username);
  }

  /** The answer to refuse with; null to go on. */
  public record Refusal(int status, String message) {}

  private final byte[] token;
  private final PasswordCheck passwords;

  /**
   * @param token     admin_http_token, or empty for none
   * @param passwords the role check when PasswordAuthenticator is on, else null
   */
  public AdminCredentials(String token, PasswordCheck passwords) {
    this.token = token == null || token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
    this.passwords = passwords;
  }

  /** True when a credential is configured (else only loopback clients may change the node). */
  public boolean configured() {
    return token != null || passwords != null;
  }

  public Refusal check(HttpRequest req, InetSocketAddress remote) {
    HttpMethod m = req.method();
    if (m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.OPTIONS) {
      return null;
    }
    if (!configured()) {
      InetAddress a = remote == null ? null : remote.getAddress();
      if (a != null && a.isLoopbackAddress()) {
        return null;
      }
      return new Refusal(403, "refused: " + m.name() + " changes the node and comes from a non-loopback"
          + " address; set authenticator: PasswordAuthenticator (then nodetool -u/-pw) or admin_http_token");
    }
    String header = req.headers().get(HttpHeaderNames.AUTHORIZATION);
    if (header == null || header.isBlank()) {
      return new Refusal(401, "authentication required: " + m.name() + " changes the node; send a superuser"
          + " role's credentials (nodetool -u USER -pw PASSWORD) or the admin_http_token");
    }
    String h = header.trim();
    if (h.regionMatches(true, 0, "Bearer ", 0, 7)) {
      byte[] given = h.substring(7).trim().getBytes(StandardCharsets.UTF_8);
      if (token != null && MessageDigest.isEqual(token, given)) {
        return null;
      }
      return new Refusal(401, "invalid admin token");
    }
    if (h.regionMatches(true, 0, "Basic ", 0, 6)) {
      if (passwords == null) {
        return new Refusal(401, "HTTP Basic needs authenticator: PasswordAuthenticator; send the admin_http_token");
      }
      String decoded;
      try {
        decoded = new String(Base64.getDecoder().decode(h.substring(6).trim()), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return new Refusal(401, "malformed Basic credentials");
      }
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        return new Refusal(401, "malformed Basic credentials");
      }
      String user = decoded.substring(0, colon);
      String error = passwords.loginError(user, decoded.substring(colon + 1));
      if (error != null) {
        return new Refusal(401, error);
      }
      if (!passwords.isSuperuser(user)) {
        return new Refusal(403, "User " + user + " is not a superuser: only superusers may change the node");
      }
      return null;
    }
    return new Refusal(401, "unsupported Authorization scheme (use Basic or Bearer)");
  }
}
