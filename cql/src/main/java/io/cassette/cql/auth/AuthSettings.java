package io.cassette.cql.auth;

import io.cassette.cql.Consistency;
import java.util.Locale;

/**
 * The node's authentication and authorization settings, with cassandra.yaml's names:
 * {@code authenticator}, {@code authorizer}, {@code role_manager}, {@code roles_validity},
 * {@code permissions_validity}, {@code credentials_validity}, {@code auth_cache_max_entries}
 * (one bound for the three caches), {@code auth_bcrypt_gensalt_log2_rounds},
 * {@code auth_read_consistency_level}, {@code auth_write_consistency_level},
 * {@code network_authorizer} (AllowAllNetworkAuthorizer / CassandraNetworkAuthorizer: roles
 * limited to datacenters); plus Cassette's {@code auth_initial_superuser_password} (the
 * password the default {@code cassandra} role gets on first start instead of {@code cassandra}).
 */
public record AuthSettings(String authenticator, String authorizer, String roleManager,
                           long rolesValidityMillis, long permissionsValidityMillis,
                           long credentialsValidityMillis, int cacheMaxEntries, int bcryptLog2Rounds,
                           String initialSuperuserPassword, Consistency readConsistency,
                           Consistency writeConsistency, String networkAuthorizer) {
  public static final String PASSWORD_AUTHENTICATOR = "PasswordAuthenticator";
  public static final String ALLOW_ALL_AUTHENTICATOR = "AllowAllAuthenticator";
  public static final String CASSANDRA_AUTHORIZER = "CassandraAuthorizer";
  public static final String ALLOW_ALL_AUTHORIZER = "AllowAllAuthorizer";
  public static final String CASSANDRA_ROLE_MANAGER = "CassandraRoleManager";
  public static final String ALLOW_ALL_NETWORK_AUTHORIZER = "AllowAllNetworkAuthorizer";
  public static final String CASSANDRA_NETWORK_AUTHORIZER = "CassandraNetworkAuthorizer";
  /** Cassandra's defaults: 2 s validity, LOCAL_QUORUM reads, EACH_QUORUM writes. */
  public static final long DEFAULT_VALIDITY_MILLIS = 2000;

  public AuthSettings {
    authenticator = shortName(authenticator, ALLOW_ALL_AUTHENTICATOR, PASSWORD_AUTHENTICATOR, "authenticator");
    authorizer = shortName(authorizer, ALLOW_ALL_AUTHORIZER, CASSANDRA_AUTHORIZER, "authorizer");
    roleManager = shortName(roleManager, CASSANDRA_ROLE_MANAGER, CASSANDRA_ROLE_MANAGER, "role_manager");
    networkAuthorizer = shortName(networkAuthorizer, ALLOW_ALL_NETWORK_AUTHORIZER, CASSANDRA_NETWORK_AUTHORIZER,
        "network_authorizer");
    if (CASSANDRA_NETWORK_AUTHORIZER.equals(networkAuthorizer) && ALLOW_ALL_AUTHENTICATOR.equals(authenticator)) {
      throw new IllegalArgumentException("CassandraNetworkAuthorizer needs PasswordAuthenticator (a role to restrict)");
    }
    if (CASSANDRA_AUTHORIZER.equals(authorizer) && ALLOW_ALL_AUTHENTICATOR.equals(authenticator)) {
      // Cassandra refuses the same combination at start: nobody would have a name to authorize.
      throw new IllegalArgumentException("AllowAllAuthenticator can't be used with CassandraAuthorizer");
    }
  }

  /** Without network_authorizer: AllowAllNetworkAuthorizer, Cassandra's default. */
  public AuthSettings(String authenticator, String authorizer, String roleManager, long rolesValidityMillis,
                      long permissionsValidityMillis, long credentialsValidityMillis, int cacheMaxEntries,
                      int bcryptLog2Rounds, String initialSuperuserPassword, Consistency readConsistency,
                      Consistency writeConsistency) {
    this(authenticator, authorizer, roleManager, rolesValidityMillis, permissionsValidityMillis,
        credentialsValidityMillis, cacheMaxEntries, bcryptLog2Rounds, initialSuperuserPassword, readConsistency,
        writeConsistency, null);
  }

  /** Everything allowed, nobody asked for a password: Cassandra's (and Cassette's) default. */
  public static AuthSettings allowAll() {
    return new AuthSettings(ALLOW_ALL_AUTHENTICATOR, ALLOW_ALL_AUTHORIZER, CASSANDRA_ROLE_MANAGER,
        DEFAULT_VALIDITY_MILLIS, DEFAULT_VALIDITY_MILLIS, DEFAULT_VALIDITY_MILLIS, 1000,
        PasswordHashes.DEFAULT_LOG2_ROUNDS, null, Consistency.LOCAL_QUORUM, Consistency.EACH_QUORUM);
  }

  /** PasswordAuthenticator + CassandraAuthorizer with the given validity for all three caches. */
  public static AuthSettings passwords(long validityMillis) {
    return new AuthSettings(PASSWORD_AUTHENTICATOR, CASSANDRA_AUTHORIZER, CASSANDRA_ROLE_MANAGER,
        validityMillis, validityMillis, validityMillis, 1000, PasswordHashes.DEFAULT_LOG2_ROUNDS, null,
        Consistency.LOCAL_QUORUM, Consistency.EACH_QUORUM);
  }

  public boolean requiresPasswords() {
    return PASSWORD_AUTHENTICATOR.equals(authenticator);
  }

  public boolean checksPermissions() {
    return CASSANDRA_AUTHORIZER.equals(authorizer);
  }

  /** True with CassandraNetworkAuthorizer: a role may be limited to some datacenters. */
  public boolean checksDatacenters() {
    return CASSANDRA_NETWORK_AUTHORIZER.equals(networkAuthorizer);
  }

  public AuthSettings withInitialSuperuserPassword(String password) {
    return new AuthSettings(authenticator, authorizer, roleManager, rolesValidityMillis, permissionsValidityMillis,
        credentialsValidityMillis, cacheMaxEntries, bcryptLog2Rounds, password, readConsistency, writeConsistency,
        networkAuthorizer);
  }

  public AuthSettings withNetworkAuthorizer(String name) {
    return new AuthSettings(authenticator, authorizer, roleManager, rolesValidityMillis, permissionsValidityMillis,
        credentialsValidityMillis, cacheMaxEntries, bcryptLog2Rounds, initialSuperuserPassword, readConsistency,
        writeConsistency, name);
  }

  /**
   * Accepts the short name or Cassandra's class name, in any case
   * ({@code org.apache.cassandra.auth.PasswordAuthenticator}); refuses anything else.
   */
  private static String shortName(String value, String allowAll, String real, String key) {
    if (value == null || value.isBlank()) {
      return allowAll;
    }
    String v = value.trim();
    int dot = v.lastIndexOf('.');
    String simple = dot >= 0 ? v.substring(dot + 1) : v;
    for (String known : new String[] {allowAll, real}) {
      if (known.toLowerCase(Locale.ROOT).equals(simple.toLowerCase(Locale.ROOT))) {
        return known;
      }
    }
    throw new IllegalArgumentException(key + ": unknown value '" + value + "' (expected " + allowAll
        + (real.equals(allowAll) ? "" : " or " + real) + ")");
  }
}
