package io.cassette.server;

import io.cassette.cql.Consistency;
import io.cassette.cql.auth.AccessControl;
import io.cassette.cql.auth.AuthSettings;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import io.cassette.server.http.AdminCredentials;
import java.net.InetAddress;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's authentication settings from its configuration (cassandra.yaml's keys), the
 * admin port's credential, and the warning for a node open to its network without passwords.
 */
final class NodeAuth {
  private static final Logger log = LoggerFactory.getLogger(NodeAuth.class);
  /** What the auth caches hold at most per cache (Cassandra's *_cache_max_entries default). */
  private static final int CACHE_MAX_ENTRIES = 1000;

  private NodeAuth() {}

  static AuthSettings settings(Config config) {
    try {
      return new AuthSettings(config.string(ConfigKeys.AUTHENTICATOR), config.string(ConfigKeys.AUTHORIZER),
          config.string(ConfigKeys.ROLE_MANAGER), config.duration(ConfigKeys.ROLES_VALIDITY).toMillis(),
          config.duration(ConfigKeys.PERMISSIONS_VALIDITY).toMillis(),
          config.duration(ConfigKeys.CREDENTIALS_VALIDITY).toMillis(), CACHE_MAX_ENTRIES,
          config.integer(ConfigKeys.AUTH_BCRYPT_GENSALT_LOG2_ROUNDS),
          config.string(ConfigKeys.AUTH_INITIAL_SUPERUSER_PASSWORD),
          Consistency.valueOf(config.string(ConfigKeys.AUTH_READ_CONSISTENCY_LEVEL).toUpperCase(Locale.ROOT)),
          Consistency.valueOf(config.string(ConfigKeys.AUTH_WRITE_CONSISTENCY_LEVEL).toUpperCase(Locale.ROOT)),
          config.string(ConfigKeys.NETWORK_AUTHORIZER));
    } catch (IllegalArgumentException e) {
      throw new CassetteNode.StartException("Invalid authentication settings: " + e.getMessage());
    }
  }

  /** The admin port's credential: a superuser role (PasswordAuthenticator) and/or admin_http_token. */
  static AdminCredentials adminCredentials(Config config, AccessControl access) {
    AdminCredentials.PasswordCheck passwords = null;
    if (access != null && access.settings().requiresPasswords()) {
      passwords = new AdminCredentials.PasswordCheck() {
        @Override
        public String loginError(String username, String password) {
          return access.loginError(username, password);
        }

        @Override
        public boolean isSuperuser(String username) {
          return access.isSuper(username);
        }
      };
    }
    return new AdminCredentials(config.string(ConfigKeys.ADMIN_HTTP_TOKEN), passwords);
  }

  /**
   * POST /api/invalidaterolescache, /api/invalidatepermissionscache and
   * /api/invalidatecredentialscache: nodetool's commands of the same names (state changes, so
   * they need the admin credential).
   */
  static void registerEndpoints(io.cassette.server.http.AdminHttpServer http, AccessControl access) {
    register(http, "/api/invalidaterolescache", access::invalidateRolesCache);
    register(http, "/api/invalidatepermissionscache", access::invalidatePermissionsCache);
    register(http, "/api/invalidatecredentialscache", access::invalidateCredentialsCache);
  }

  private static void register(io.cassette.server.http.AdminHttpServer http, String path, Runnable action) {
    http.register(path, req -> {
      if (!req.method().equals("POST")) {
        return new io.cassette.server.http.AdminHttpServer.Response(405, "application/json",
            io.cassette.server.http.JsonWriter.error(path + " changes the node: use POST"));
      }
      action.run();
      return io.cassette.server.http.AdminHttpServer.Response.json("{}");
    });
  }

  /** Warns, loudly, when the node listens beyond loopback with AllowAllAuthenticator. */
  static void warnIfOpen(Config config, String host) {
    AuthSettings s = settings(config);
    if (s.requiresPasswords()) {
      return;
    }
    boolean loopback;
    try {
      loopback = InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      loopback = false;
    }
    if (!loopback) {
      log.warn("SECURITY: listening on {} (not loopback) with authenticator: AllowAllAuthenticator: anyone who"
          + " can reach this address may read, change and drop every table. Set authenticator:"
          + " PasswordAuthenticator and authorizer: CassandraAuthorizer (conf/cassette.yaml), or listen on"
          + " 127.0.0.1.", host);
    }
  }
}
