package io.cassette.cql.auth;

import static io.cassette.cql.auth.AuthValues.text;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which datacenters a role may use (Cassandra 5.0's CassandraNetworkAuthorizer): rows of
 * {@code system_auth.network_permissions} keyed {@code roles/NAME}, an empty or missing
 * {@code dcs} meaning all datacenters, written and read as Cassandra does; read through a
 * cache valid for {@code roles_validity}. Only the role a client logged in as counts (not the
 * roles granted to it), as in Cassandra. Thread-safe.
 */
final class CassandraNetworkAuthorizer {
  static final String NETWORK_PERMISSIONS = "system_auth.network_permissions";

  private final InternalQueries queries;
  private final AuthSettings settings;
  /** Role name -> its datacenters, sorted; empty = all. */
  private final AuthCache<String, Set<String>> cache;

  CassandraNetworkAuthorizer(InternalQueries queries, AuthSettings settings) {
    this.queries = queries;
    this.settings = settings;
    this.cache = new AuthCache<>("network permissions", settings.rolesValidityMillis(), settings.cacheMaxEntries(),
        this::load);
  }

  /** The datacenters {@code role} may use, sorted; empty = all (cached). */
  Set<String> datacenters(String role) {
    return cache.get(role);
  }

  private Set<String> load(String role) {
    List<List<ByteBuffer>> rows = queries.execute("SELECT dcs FROM " + NETWORK_PERMISSIONS + " WHERE role = ?",
        settings.readConsistency(), List.of(text(resource(role))));
    if (rows.isEmpty() || rows.get(0).get(0) == null) {
      return Set.of();
    }
    return new TreeSet<>(AuthValues.asTextSet(rows.get(0).get(0)));
  }

  /** Limits {@code role} to {@code dcs}; empty = ACCESS TO ALL DATACENTERS. */
  void set(String role, Set<String> dcs) {
    queries.execute("UPDATE " + NETWORK_PERMISSIONS + " SET dcs = ? WHERE role = ?", settings.writeConsistency(),
        List.of(AuthValues.textSet(dcs), text(resource(role))));
    cache.invalidate(role);
  }

  void drop(String role) {
    queries.execute("DELETE FROM " + NETWORK_PERMISSIONS + " WHERE role = ?", settings.writeConsistency(),
        List.of(text(resource(role))));
    cache.invalidate(role);
  }

  void invalidateAll() {
    cache.invalidateAll();
  }

  /** Cassandra's RoleResource name. */
  private static String resource(String role) {
    return "roles/" + role;
  }
}
